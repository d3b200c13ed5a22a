"""manage.py large_owner_indexes [--dry-run]: the large-owner indexes job (layers/long_term/services/large_owners.py)
run now instead of at the beat's next turn."""
import json

from django.core.management.base import BaseCommand

from layers.long_term.services.large_owners import large_owner_indexes_sync


class Command(BaseCommand):
    help = ("Build the partial HNSW and GIN search indexes of owners past policy.large_owners.min_memories "
            "active memories and drop those of owners below keep_memories (CONCURRENTLY: searches and writes go "
            "on). Running it twice changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="say what would be built and dropped")

    def handle(self, *args, **options):
        self.stdout.write(json.dumps(large_owner_indexes_sync(dry_run=options["dry_run"])))
