"""Signal receivers: the short-term layer says turns arrived or a session closed; formation work is
recorded in the outbox in that same transaction (connected in FormationConfig.ready)."""
from __future__ import annotations

from layers.formation.habits.requests import request_read
from layers.formation.selectors import extraction_cursor
from layers.formation.services.catch_up import extraction_enqueue, summarisation_enqueue
from layers.formation.services.extraction import extraction_asked_by_append, extraction_due
from layers.formation.services.habits import habits_enqueue
from layers.short_term.models import TurnRole


def on_turns_appended(sender, *, session, turns, **kwargs) -> None:
    if session.needs_summary:
        summarisation_enqueue(session.pk)
    # A routine request ("播放白噪音") may be one more occurrence of a habit; other turns wait for the session end.
    if any(turn.role == TurnRole.USER and request_read(turn.content) for turn in turns):
        habits_enqueue(session.tenant_id, session.user_id)
    # The cursor is read only when extraction can be due: new turns are at most turn_count (the cursor is
    # never negative), so extraction_due at cursor 0 saying no means no at any cursor (one SELECT fewer).
    if extraction_due(session, cursor=0):
        cursor = extraction_cursor(session_pk=session.pk)
        if extraction_asked_by_append(session, cursor=cursor, appended=len(turns)):
            extraction_enqueue(session.pk)


def on_session_ended(sender, *, session, **kwargs) -> None:
    # Whatever is left after the cursor is extracted now; the run itself finds out if nothing is.
    extraction_enqueue(session.pk)
    if session.needs_summary:
        summarisation_enqueue(session.pk)
    # A finished conversation may have repeated a request once more (layers/formation/services/habits.py).
    habits_enqueue(session.tenant_id, session.user_id)
