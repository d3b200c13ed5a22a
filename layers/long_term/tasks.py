"""Periodic work of the long-term layer; thin wrappers around one service each."""
from celery import shared_task

from layers.long_term.services import memories_archive_expired, memory_access_flush


@shared_task(name="long_term.flush_access", acks_late=True, ignore_result=True)
def flush_memory_access() -> dict:
    return memory_access_flush()


@shared_task(name="long_term.archive_expired", acks_late=True, ignore_result=True)
def archive_expired_memories() -> dict:
    return memories_archive_expired()
