from celery import shared_task

from layers.short_term.services import sessions_expire_idle


@shared_task(name="short_term.tasks.sessions_expire_idle", acks_late=True)
def sessions_expire_idle_task(dry_run: bool = False) -> dict:
    """Periodic: expire idle sessions. Safe to run twice (each session is re-checked under its lock)."""
    return sessions_expire_idle(dry_run=dry_run)
