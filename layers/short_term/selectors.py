"""Reads of the short-term layer: sessions, turns and the window an agent puts in its prompt."""
from __future__ import annotations

from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from layers.short_term.models import Session, SessionSummary, Turn
from layers.short_term.policy import MAX_WINDOW_TURNS, short_term_policy
from memoryhub.core.errors import InvalidInput, NotFound
from memoryhub.providers.tokens import count_tokens, truncate_to_tokens
from memoryhub.tenancy.models import Tenant
from memoryhub.tenancy.selectors import zone_named

# A turn longer than this share of `max_tokens` is cut to it while older turns are waiting, so one
# pasted document cannot push the rest of the conversation out of the window.
WINDOW_TURN_MAX_SHARE = 0.5
# Likewise the summary never takes more than this share of the budget.
WINDOW_SUMMARY_MAX_SHARE = 0.5
# A long turn is cut only when it is the first turn of the window (the newest) or longer than its
# share of the budget; ordinary turns that no longer fit end the window. A fragment shorter than
# this is noise, so the window stops instead (unless it would otherwise be empty).
WINDOW_MIN_FRAGMENT_TOKENS = 8
MAX_WINDOW_TOKENS = 1_000_000


def session_time_zone(session: Session) -> ZoneInfo | None:
    """The zone the session's user speaks in, when its metadata names a real one (`time_zone`); None
    otherwise, so each caller falls back to its own default (the tenant's, a policy's)."""
    metadata = session.metadata if isinstance(session.metadata, dict) else {}
    return zone_named(metadata.get("time_zone"))


def session_get(*, tenant: Tenant, session_id: str) -> Session:
    """The tenant's session with this client id; NotFound otherwise (also for other tenants')."""
    session = Session.objects.select_related("tenant").filter(tenant=tenant, session_id=session_id).first()
    if session is None:
        raise session_not_found_error()
    return session


def session_not_found_error() -> NotFound:
    return NotFound(_("no such session"), code="session_not_found")


def turn_list(*, session: Session) -> QuerySet[Turn]:
    return Turn.objects.filter(session=session).order_by("seq")


def session_summary_latest(*, session: Session) -> SessionSummary | None:
    return SessionSummary.objects.filter(session=session).order_by("-version").first()


@dataclass(frozen=True)
class WindowTurn:
    turn: Turn
    content: str  # the stored content, or its prefix when `truncated`
    token_count: int
    truncated: bool


@dataclass(frozen=True)
class SessionWindow:
    session: Session
    summary: SessionSummary | None
    summary_content: str
    summary_token_count: int
    summary_truncated: bool
    turns: list[WindowTurn] = field(default_factory=list)  # oldest first, as a prompt reads them
    max_turns: int = 0
    max_tokens: int | None = None

    @property
    def token_count(self) -> int:
        return self.summary_token_count + sum(item.token_count for item in self.turns)


def window_limit_error(name: str, high: int) -> InvalidInput:
    """The error for a window limit that is not an integer in 1..high (the API's query parsing uses it too)."""
    return InvalidInput(_("%(name)s must be an integer between 1 and %(high)d") % {"name": name, "high": high},
                        code="invalid_window", details={"fields": {name: [f"integer in 1..{high}"]}})


def _check_limit(value, *, name: str, high: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise window_limit_error(name, high)


def session_window(*, session: Session, max_turns: int | None = None, max_tokens: int | None = None) -> SessionWindow:
    """The latest summary plus the newest turns after it, within `max_turns` and `max_tokens`.

    Turns are chosen newest first and returned oldest first. `max_tokens` bounds the whole window
    (summary and turns). Storage is never changed: a turn too long for its share of the budget
    appears truncated and flagged, and the window keeps going with older turns while they fit.
    `max_turns` defaults to the tenant's policy (15); without `max_tokens` only turns are counted.
    """
    _check_limit(max_turns, name="max_turns", high=MAX_WINDOW_TURNS)
    _check_limit(max_tokens, name="max_tokens", high=MAX_WINDOW_TOKENS)
    max_turns = max_turns or short_term_policy(session.tenant_id).window_max_turns

    summary = session_summary_latest(session=session)
    summary_content, summary_tokens, summary_truncated = "", 0, False
    if summary is not None:
        summary_content, summary_tokens = summary.content, summary.token_count
        if max_tokens is not None and summary_tokens > max_tokens * WINDOW_SUMMARY_MAX_SHARE:
            summary_content = truncate_to_tokens(summary.content, int(max_tokens * WINDOW_SUMMARY_MAX_SHARE))
            summary_tokens, summary_truncated = count_tokens(summary_content), True

    candidates = list(
        Turn.objects.filter(session=session, seq__gt=summary.covers_up_to if summary else 0)
        .order_by("-seq")[:max_turns]
    )
    chosen: list[WindowTurn] = []
    used = summary_tokens
    for position, turn in enumerate(candidates):
        if max_tokens is None:
            chosen.append(WindowTurn(turn, turn.content, turn.token_count, False))
            continue
        remaining = max_tokens - used
        older_waiting = position < len(candidates) - 1
        cap = int(max_tokens * WINDOW_TURN_MAX_SHARE)
        if turn.token_count <= remaining and (turn.token_count <= cap or not older_waiting):
            chosen.append(WindowTurn(turn, turn.content, turn.token_count, False))
            used += turn.token_count
            continue
        if turn.token_count <= cap and chosen:
            break  # an ordinary turn that no longer fits ends the window; only long turns are cut
        limit = min(remaining, cap) if older_waiting else remaining
        if limit < 1 or (chosen and limit < WINDOW_MIN_FRAGMENT_TOKENS):
            break
        content = truncate_to_tokens(turn.content, limit)
        if not content:
            break
        tokens = count_tokens(content)
        chosen.append(WindowTurn(turn, content, tokens, True))
        used += tokens
    chosen.reverse()
    return SessionWindow(session=session, summary=summary, summary_content=summary_content,
                         summary_token_count=summary_tokens, summary_truncated=summary_truncated,
                         turns=chosen, max_turns=max_turns, max_tokens=max_tokens)
