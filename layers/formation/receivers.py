"""Signal receivers: the short-term layer says turns arrived or a session closed; formation work is
recorded in the outbox in that same transaction (connected in FormationConfig.ready)."""
from __future__ import annotations

from layers.formation.models import FormationState
from layers.formation.policy import formation_policy
from layers.formation.services.catch_up import extraction_enqueue, summarisation_enqueue


def on_turns_appended(sender, *, session, turns, **kwargs) -> None:
    if session.needs_summary:
        summarisation_enqueue(session.pk)
    cursor = FormationState.objects.filter(session_id=session.pk).values_list("last_extracted_seq", flat=True).first()
    if session.turn_count - (cursor or 0) >= formation_policy(session.tenant_id).extract_every_turns:
        extraction_enqueue(session.pk)


def on_session_ended(sender, *, session, **kwargs) -> None:
    # Whatever is left after the cursor is extracted now; the run itself finds out if nothing is.
    extraction_enqueue(session.pk)
    if session.needs_summary:
        summarisation_enqueue(session.pk)
