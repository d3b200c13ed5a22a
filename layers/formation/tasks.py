"""Formation tasks: thin (ids in, one service), late-acked, safe to run twice."""
from celery import shared_task

from layers.formation.llm import LLMUnavailable
from layers.formation.services import (
    formation_catch_up,
    session_extract,
    session_summarise,
)
from layers.formation.services.habits import habits_catch_up, habits_mine

# An unreachable model endpoint is retried with back-off; the cursor has not moved, and the
# catch-up beat re-enqueues the session later even if every retry fails.
_RETRY = {"autoretry_for": (LLMUnavailable,), "retry_backoff": 5, "retry_backoff_max": 300, "max_retries": 5}


# A backlog longer than one run's slice is worked off in the same task, each slice committed on its
# own; past this many slices the catch-up beat continues.
MAX_SLICES_PER_TASK = 20


def _slices(run_once, session_pk: int) -> dict:
    reports = []
    for _ in range(MAX_SLICES_PER_TASK):
        report = run_once(session_pk=session_pk)
        reports.append(report.as_dict())
        if not (report.wrote and report.more):
            break
    return {"session": session_pk, "runs": reports}


# Another run holds the session: it may have read the cursor before the turns this message is about
# arrived, so try again shortly rather than leave them to the catch-up beat.
BUSY_RETRY_SECONDS = 5


def _run(task, run_once, session_pk: int) -> dict:
    result = _slices(run_once, session_pk)
    if result["runs"][0]["status"] == "busy" and task.request.retries < task.max_retries:
        raise task.retry(countdown=BUSY_RETRY_SECONDS)
    return result


@shared_task(bind=True, name="formation.extract_session", acks_late=True, ignore_result=True, **_RETRY)
def extract_session(self, session_pk: int) -> dict:
    return _run(self, session_extract, session_pk)


@shared_task(bind=True, name="formation.summarise_session", acks_late=True, ignore_result=True, **_RETRY)
def summarise_session(self, session_pk: int) -> dict:
    return _run(self, session_summarise, session_pk)


@shared_task(name="formation.catch_up", acks_late=True, ignore_result=True)
def catch_up() -> dict:
    return formation_catch_up()


# Ids in; the run reads the lookback and writes only what differs, so a redelivered message changes nothing.
@shared_task(name="formation.mine_habits", acks_late=True, ignore_result=True)
def mine_habits(tenant_id: int, user_id: str) -> dict:
    return habits_mine(tenant_id=tenant_id, user_id=user_id)


@shared_task(name="formation.habits_catch_up", acks_late=True, ignore_result=True)
def mine_habits_catch_up() -> dict:
    return habits_catch_up()
