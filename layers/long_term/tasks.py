"""Periodic work of the long-term layer; thin wrappers around one service each.

The forgetting jobs (expiry, decay archiving, purge) are scheduled by layers/forgetting.
"""
from celery import shared_task

from layers.long_term.services import memories_reembed, memory_access_flush
from layers.long_term.services.large_owners import large_owner_indexes_sync


@shared_task(name="long_term.flush_access", acks_late=True, ignore_result=True)
def flush_memory_access() -> dict:
    return memory_access_flush()


@shared_task(name="long_term.reembed", acks_late=True, ignore_result=True)
def reembed(batch_size: int = 100, limit: int = 1000) -> dict:
    """One bounded slice of a re-embedding; the beat calls it again until nothing is left."""
    return memories_reembed(batch_size=batch_size, limit=limit)


@shared_task(name="long_term.large_owner_indexes", acks_late=True, ignore_result=True)
def large_owner_indexes() -> dict:
    """Build and drop the large owners' partial search indexes (services/large_owners.py); idempotent."""
    return large_owner_indexes_sync()
