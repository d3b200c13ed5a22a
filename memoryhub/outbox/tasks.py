from celery import shared_task

from memoryhub.outbox.services import outbox_flush


@shared_task(name="outbox.tasks.outbox_flush")
def outbox_flush_task() -> dict:
    return outbox_flush()
