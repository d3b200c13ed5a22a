from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.models import Scope
from memoryhub.tenancy.services import api_key_create, tenant_get_or_create


class Command(BaseCommand):
    help = "Create an API key for a tenant (creating the tenant if it is new) and print it once."

    def add_arguments(self, parser):
        parser.add_argument("tenant", help="tenant slug")
        parser.add_argument("--name", default="cli key")
        parser.add_argument("--scopes", default="read,write,propose",
                            help=f"comma-separated, from {', '.join(Scope.values)}")
        parser.add_argument("--created-by", help="username of the staff user this key belongs to")
        parser.add_argument("--quiet", action="store_true", help="print only the key")

    def handle(self, *args, **options):
        created_by = None
        if options["created_by"]:
            created_by = get_user_model().objects.filter(username=options["created_by"]).first()
            if created_by is None:
                raise CommandError(f"no user {options['created_by']!r}")
        try:
            actor = Actor.for_user(created_by) if created_by else Actor.system("cli.create_api_key")
            tenant, created = tenant_get_or_create(slug=options["tenant"], actor=actor)
            issued = api_key_create(
                tenant=tenant, name=options["name"],
                scopes=[s.strip() for s in options["scopes"].split(",") if s.strip()],
                actor=actor,
                created_by=created_by,
            )
        except DomainError as exc:
            raise CommandError(exc.message)
        if options["quiet"]:
            self.stdout.write(issued.plaintext)
            return
        if created:
            self.stdout.write(f"created tenant {tenant.slug}")
        self.stdout.write(f"API key for {tenant.slug} ({', '.join(issued.api_key.scopes)}), shown once:")
        self.stdout.write(issued.plaintext)
