"""One step from nothing to a staff member who can work in the console: the login, staff status,
the tenant role and its group, each role change audited (memoryhub/tenancy/services.py)."""
from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.models import Role, Tenant
from memoryhub.tenancy.services import membership_grant, membership_revoke


class Command(BaseCommand):
    help = ("Create (or update) a staff user and give them a role in a tenant: "
            "create_staff USER --tenant T --role editor|reviewer|auditor")

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--tenant", required=True, help="tenant slug (the tenant must exist)")
        parser.add_argument("--role", required=True, choices=Role.values)
        parser.add_argument("--password", help="password for a new user (default: a generated one, printed once)")
        parser.add_argument("--email", default="")
        parser.add_argument("--revoke", action="store_true", help="take the role back instead of granting it")

    def handle(self, *args, **options):
        tenant = Tenant.objects.filter(slug=options["tenant"]).first()
        if tenant is None:
            raise CommandError(f"no tenant {options['tenant']!r} (create_api_key creates one)")
        User = get_user_model()
        actor = Actor.system("cli.create_staff")
        username = options["username"].strip()
        if not username:
            raise CommandError("a username is required")
        user = User.objects.filter(username=username).first()
        if options["revoke"]:
            if user is None:
                raise CommandError(f"no user {username!r}")
            change = membership_revoke(user=user, tenant=tenant, role=options["role"], actor=actor)
            self.stdout.write(f"revoked {options['role']} of {username} in {tenant.slug}" if change.changed
                              else f"{username} had no {options['role']} role in {tenant.slug}")
            return
        generated = None
        try:
            with transaction.atomic():
                if user is None:
                    password = options["password"] or secrets.token_urlsafe(12)
                    generated = None if options["password"] else password
                    candidate = User(username=username, email=options["email"])
                    try:
                        validate_password(password, candidate)
                    except ValidationError as exc:
                        raise CommandError("; ".join(exc.messages))
                    user = User.objects.create_user(username=username, email=options["email"], password=password)
                elif options["password"]:
                    raise CommandError(f"user {username!r} exists; change a password with changepassword")
                change = membership_grant(user=user, tenant=tenant, role=options["role"], actor=actor)
        except DomainError as exc:
            raise CommandError(exc.message)
        done = "granted" if change.changed else "already held"
        self.stdout.write(f"{username}: {options['role']} in {tenant.slug} ({done}); staff; "
                          f"groups: {', '.join(user.groups.order_by('name').values_list('name', flat=True))}")
        if generated:
            self.stdout.write(f"password (shown once): {generated}")
