"""Layer health per tenant and layer, the figures of GET /metrics and of the console dashboard
(memoryhub/console/dashboard.py `layer_health_rows`), printed as a table."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from memoryhub.console.dashboard import layer_health_rows
from memoryhub.tenancy.models import Tenant


class Command(BaseCommand):
    help = "Print layer health (hit rates, extraction drops, quarantine, outbox depth, job failures) per tenant and layer"

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="only this tenant (slug); default every tenant and the outbox")

    def handle(self, *args, tenant=None, **options):
        tenant_ids = None
        if tenant:
            found = Tenant.objects.filter(slug=tenant).values_list("pk", flat=True).first()
            if found is None:
                raise CommandError(_("no tenant %s") % tenant)
            tenant_ids = [found]
        rows = layer_health_rows(tenant_ids)
        header = [_("tenant"), _("layer"), _("figure"), _("value"), _("threshold")]
        table = [header] + [[row["tenant"], row["layer"], row["figure"],
                             row["value"] + (f" ! {_('below threshold')}" if row["flagged"] else ""),
                             row["threshold"]] for row in rows]
        widths = [max(len(str(line[i])) for line in table) for i in range(len(header))]
        for line in table:
            self.stdout.write("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths)).rstrip())
