from celery import shared_task

from layers.transient.services import task_states_sweep_expired


@shared_task(name="transient.tasks.task_states_sweep_expired", acks_late=True)
def task_states_sweep_expired_task(dry_run: bool = False) -> dict:
    """Periodic: forget expired task states. Idempotent; concurrent runs skip each other's rows."""
    return task_states_sweep_expired(dry_run=dry_run)
