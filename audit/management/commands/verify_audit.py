from django.core.management.base import BaseCommand, CommandError

from audit.selectors import audit_chain_verify
from memoryhub.tenancy.models import Tenant


class Command(BaseCommand):
    help = ("Verify the hash chain of the audit trail and that each tenant's chain ends at its sealed head "
            "(AUDIT_HEAD_KEY); name the first broken link.")

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="tenant slug (default: every tenant)")

    def handle(self, *args, **options):
        tenant_id = None
        if options["tenant"]:
            tenant = Tenant.objects.filter(slug=options["tenant"]).first()
            if tenant is None:
                raise CommandError(f"no tenant {options['tenant']!r}")
            tenant_id = tenant.id
        report = audit_chain_verify(tenant_id=tenant_id)
        if not report.ok:
            raise CommandError(f"BROKEN after {report.events_checked} events: {report.first_break}")
        self.stdout.write(f"OK: {report.events_checked} events in {report.tenants_checked} tenant chain(s) verify")
