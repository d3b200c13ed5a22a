"""Reads of formation's own state: each session's cursors, and the sessions left behind."""
from __future__ import annotations

from django.db.models import F, Q, QuerySet, Value
from django.db.models.functions import Coalesce

from layers.formation.models import FormationRun, FormationState
from layers.short_term.models import Session, SessionStatus


def extraction_cursor(*, session_pk: int) -> int:
    """The last turn seq extraction has read in the session (0 before its first run)."""
    cursor = FormationState.objects.filter(session_id=session_pk).values_list("last_extracted_seq", flat=True).first()
    return cursor or 0


def sessions_with_extraction_cursor() -> QuerySet[Session]:
    """Sessions annotated with `cursor`, their extraction cursor (0 when none ran)."""
    return Session.objects.annotate(cursor=Coalesce(F("formation_state__last_extracted_seq"), Value(0)))


def sessions_behind_extraction(*, tenant_id: int, extract_every_turns: int) -> QuerySet[Session]:
    """A tenant's sessions with turns after the cursor that are due: N of them while active, any once closed."""
    behind = sessions_with_extraction_cursor().filter(tenant_id=tenant_id, turn_count__gt=F("cursor"))
    return behind.filter(~Q(status=SessionStatus.ACTIVE) | Q(turn_count__gte=F("cursor") + extract_every_turns))


def formation_runs(*, session_pk: int) -> QuerySet[FormationRun]:
    return FormationRun.objects.filter(session_id=session_pk).order_by("id")
