from datetime import timedelta

from django.core.management.base import BaseCommand

from memoryhub.outbox.services import outbox_flush


class Command(BaseCommand):
    help = "Send tasks recorded in the outbox while the broker was unreachable."

    def handle(self, *args, **options):
        result = outbox_flush(older_than=timedelta(0))
        self.stdout.write(f"sent {result['sent']}, failed {result['failed']}")
