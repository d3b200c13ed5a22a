"""manage.py export_memories --tenant SLUG [--user ID] [--output FILE]: JSON Lines that import_memories reads."""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from layers.long_term.services.bulk import memories_export
from memoryhub.core.actors import Actor
from memoryhub.tenancy.selectors import tenant_named


class Command(BaseCommand):
    help = ("Write a tenant's current long-term memories (active and quarantined; one user's with --user) as JSON "
            "Lines, one memory per line with the fields POST /api/v1/memories takes, oldest first. "
            "import_memories reads the file back; the export is an audit event.")

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True, help="tenant slug")
        parser.add_argument("--user", default=None, help="only this end user's memories")
        parser.add_argument("--output", default="-", help="file to write (default: stdout)")

    def handle(self, *args, **options):
        tenant = tenant_named(options["tenant"])
        out = self.stdout if options["output"] == "-" else open(options["output"], "w", encoding="utf-8")
        count = 0
        try:
            for line in memories_export(tenant=tenant, actor=Actor.system("export_memories"), user_id=options["user"]):
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                count += 1
        finally:
            if out is not self.stdout:
                out.close()
        self.stderr.write(f"{count} memories exported")
