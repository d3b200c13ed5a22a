from celery import shared_task

from layers.reminders.services import reminder_deliver, reminders_dispatch


@shared_task(name="reminders.tasks.reminders_dispatch", acks_late=True)
def reminders_dispatch_task() -> dict:
    """Periodic: mark due reminders and enqueue their deliveries. Idempotent; runs skip each other's rows."""
    return reminders_dispatch()


@shared_task(name="reminders.tasks.reminder_deliver", acks_late=True)
def reminder_deliver_task(reminder_id: int) -> str:
    """One webhook attempt for a due reminder; a repeat finds it delivered or leased and does nothing."""
    return reminder_deliver(reminder_id=reminder_id)
