from django.core.management.base import BaseCommand

from layers.long_term.management.progress import progress_bar
from layers.long_term.services import memories_needing_reembed, memories_reembed
from memoryhub.providers.embeddings import get_embedder


class Command(BaseCommand):
    help = ("Re-embed every memory made by another model than the configured embedding provider, in "
            "batches. Interrupt it at any time: running it again continues with what is left. Search keeps "
            "working meanwhile (queries only compare vectors of the same model).")

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument("--limit", type=int, default=None, help="stop after this many memories")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    def handle(self, *args, **options):
        embedder = get_embedder()
        pending = memories_needing_reembed(embedder).count()
        self.stdout.write(f"{pending} memories to re-embed with {embedder.name}")

        def progress(done, total):
            if not options["no_progress"]:
                self.stderr.write(progress_bar(done, total), ending="")
                self.stderr.flush()

        result = memories_reembed(batch_size=max(1, options["batch_size"]), limit=options["limit"],
                                  embedder=embedder, progress=progress)
        if not options["no_progress"] and result["reembedded"]:
            self.stderr.write("")
        self.stdout.write(f"re-embedded {result['reembedded']}, {result['remaining']} left")
