"""Reads of formation's own state: each session's cursors, and the sessions left behind."""
from __future__ import annotations

from django.db.models import F, Q, QuerySet, Value
from django.db.models.functions import Coalesce

from layers.formation.models import FormationRun, FormationState
from layers.short_term.models import Session, SessionStatus, Turn, TurnRole


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


def user_turns_between(*, tenant_id: int, user_id: str, since, until) -> QuerySet[Turn]:
    """One end user's own turns across all their sessions that were said in [since, until], oldest first,
    annotated with `moment` (when it was said: `occurred_at`, else when it was appended)."""
    return (Turn.objects.filter(session__tenant_id=tenant_id, session__user_id=user_id, role=TurnRole.USER)
            .annotate(moment=Coalesce(F("occurred_at"), F("created_at")))
            .filter(moment__gte=since, moment__lte=until).order_by("moment", "id"))


def users_with_turns_since(*, since) -> QuerySet:
    """(tenant_id, user_id) of the end users who said something since `since`."""
    return (Session.objects.filter(turns__role=TurnRole.USER, turns__created_at__gte=since)
            .values_list("tenant_id", "user_id").distinct().order_by("tenant_id", "user_id"))
