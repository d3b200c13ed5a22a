"""manage.py graph_backfill [--tenant SLUG]: derive the relation graph of memories already stored."""
from django.core.management.base import BaseCommand

from layers.long_term.graph.services import graph_backfill
from memoryhub.core.actors import Actor
from memoryhub.tenancy.selectors import tenant_named


class Command(BaseCommand):
    help = "Derive graph edges for stored memories (idempotent: a rerun writes nothing)."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="only this tenant's slug")
        parser.add_argument("--batch-size", type=int, default=500)

    def handle(self, *args, tenant=None, batch_size=500, **options):
        tenant_id = None
        if tenant:
            tenant_id = tenant_named(tenant).pk
        report = graph_backfill(actor=Actor.system("long_term_graph.backfill"), tenant_id=tenant_id,
                                batch_size=batch_size)
        self.stdout.write(f"{report['memories']} memories read, {report['edges_written']} edges written")
