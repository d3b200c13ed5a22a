from celery import shared_task

from permanent.cache import generation_bump
from permanent.services import change_requests_apply_due


@shared_task(name="permanent.tasks.apply_due_change_requests", acks_late=True)
def apply_due_change_requests() -> dict:
    """Beat: apply approved requests whose `effective_at` has come (idempotent)."""
    return change_requests_apply_due()


@shared_task(name="permanent.tasks.cache_invalidate", acks_late=True)
def cache_invalidate(tenant_id: int) -> bool:
    """Deferred cache invalidation for when Redis was down at apply time."""
    if not generation_bump(tenant_id):
        raise RuntimeError("Redis still unavailable")
    return True
