"""The forgetting jobs as periodic tasks: thin, late-acked, safe to run twice (each job re-checks its rows)."""
from celery import shared_task

from layers.forgetting.jobs import FORGETTING_JOBS


@shared_task(name="forgetting.run", acks_late=True, ignore_result=True)
def forget(job: str) -> dict:
    return FORGETTING_JOBS[job]()
