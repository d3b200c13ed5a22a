"""Periodic work of the long-term layer; thin wrappers around one service each.

The forgetting jobs (expiry, decay archiving, purge) and re-embedding are scheduled with the other
formation/forgetting work in `layers.formation.tasks`.
"""
from celery import shared_task

from layers.long_term.services import memory_access_flush


@shared_task(name="long_term.flush_access", acks_late=True, ignore_result=True)
def flush_memory_access() -> dict:
    return memory_access_flush()
