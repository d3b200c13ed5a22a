"""Enqueueing formation work: on signals (receivers) and from the periodic catch-up, both through the
outbox so the request survives a broker outage and nothing depends on a single message."""
from __future__ import annotations

from django.db import transaction
from django.db.models import F

from layers.formation.policy import formation_policy
from layers.formation.selectors import sessions_behind_extraction, sessions_with_extraction_cursor
from memoryhub.outbox.services import task_enqueue_on_commit

EXTRACT_TASK = "formation.extract_session"
SUMMARISE_TASK = "formation.summarise_session"
CATCH_UP_BATCH = 500


def extraction_enqueue(session_pk: int) -> None:
    task_enqueue_on_commit(EXTRACT_TASK, args=[session_pk], dedupe_key=f"formation.extract:{session_pk}")


def summarisation_enqueue(session_pk: int) -> None:
    task_enqueue_on_commit(SUMMARISE_TASK, args=[session_pk], dedupe_key=f"formation.summarise:{session_pk}")


def formation_catch_up(*, limit: int = CATCH_UP_BATCH) -> dict:
    """Enqueue work for sessions left behind: a summary due, or turns after the extraction cursor
    that are due (N of them while active, any once the session closed). Pending requests for the
    same session collapse in the outbox, so running this often costs little."""
    sessions = sessions_with_extraction_cursor()
    summarise = list(sessions.filter(needs_summary=True).order_by("id").values_list("pk", flat=True)[:limit])
    extract: list[int] = []
    behind = sessions.filter(turn_count__gt=F("cursor"))
    for tenant_id in behind.values_list("tenant_id", flat=True).distinct().order_by("tenant_id"):
        due = sessions_behind_extraction(tenant_id=tenant_id,
                                         extract_every_turns=formation_policy(tenant_id).extract_every_turns)
        extract.extend(due.order_by("id").values_list("pk", flat=True)[:limit - len(extract)])
        if len(extract) >= limit:
            break
    with transaction.atomic():
        for pk in summarise:
            summarisation_enqueue(pk)
        for pk in extract:
            extraction_enqueue(pk)
    return {"summarise": len(summarise), "extract": len(extract)}
