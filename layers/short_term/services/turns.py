"""Appending turns: batches in order, idempotent by client id, gap-free sequence numbers."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from layers.short_term.models import (
    Session,
    SessionStatus,
    SessionSummary,
    Turn,
    TurnRole,
)
from layers.short_term.policy import ShortTermPolicy, short_term_policy
from layers.short_term.selectors import session_not_found_error
from layers.short_term.services.sessions import (
    _close,
    session_expired_error,
    session_is_idle,
    validate_client_string,
)
from layers.short_term.signals import turns_appended
from memoryhub.api.metrics import record_annotator_failure
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, InvalidInput, TooLarge
from memoryhub.core.locks import deadlock_retry
from memoryhub.providers.tokens import count_tokens
from memoryhub.safety.secrets import redact_secrets, secret_message, secrets_in_json
from memoryhub.tenancy.models import Tenant

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnInput:
    role: str
    content: str
    tool_name: str = ""
    client_id: str | None = None
    occurred_at: str | datetime | None = None


@dataclass(frozen=True)
class AppendedTurn:
    turn: Turn
    created: bool  # False: a retry of a stored client id; the stored turn is returned unchanged


@dataclass(frozen=True)
class TurnsAppended:
    session: Session
    turns: list[AppendedTurn]
    redactions: list[dict] = field(default_factory=list)  # [{"index", "kind"}] over the new turns
    # What registered append annotators said about the new turns, by annotator name (e.g. "resolutions").
    annotations: dict[str, list] = field(default_factory=dict)

    @property
    def created_count(self) -> int:
        return sum(1 for item in self.turns if item.created)


_TURN_FIELDS = {"role", "content", "tool_name", "client_id", "occurred_at"}


@dataclass
class _Prepared:
    role: str
    content: str
    token_count: int
    tool_name: str
    client_id: str | None
    redactions: list[dict]
    occurred_at: datetime | None


def _invalid(index: int, field_name: str, message: str, code: str = "invalid_turn") -> InvalidInput:
    return InvalidInput(_("turn %(index)d: %(message)s") % {"index": index, "message": message}, code=code,
                        details={"index": index, "field": field_name})


def _occurred_at(index: int, value) -> datetime | None:
    """When the turn was said, for conversations imported or replayed later (ISO 8601 with a time zone;
    None means now). It dates the turn's memories; the turn's order is still its seq."""
    if value is None or isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str):
        parsed = parse_datetime(value.strip())
        if parsed is None:
            raise _invalid(index, "occurred_at", _("occurred_at must be an ISO 8601 date and time"))
    else:
        raise _invalid(index, "occurred_at", _("occurred_at must be an ISO 8601 date and time"))
    if parsed is not None and timezone.is_naive(parsed):
        raise _invalid(index, "occurred_at", _("occurred_at needs a time zone (for example Z or +08:00)"))
    return parsed


def _prepare(turns: list, *, redact: bool) -> list[_Prepared]:
    if not isinstance(turns, (list, tuple)) or not turns:
        raise InvalidInput(_("send at least one turn"), code="empty_batch")
    if len(turns) > Turn.BATCH_MAX_TURNS:
        raise TooLarge(_("a batch holds at most %(max)d turns") % {"max": Turn.BATCH_MAX_TURNS},
                       code="batch_too_large", details={"max_turns": Turn.BATCH_MAX_TURNS, "turns": len(turns)})
    prepared, seen_client_ids = [], {}
    for index, raw in enumerate(turns):
        if isinstance(raw, TurnInput):
            item = raw
        elif isinstance(raw, dict):
            unknown = sorted(set(raw) - _TURN_FIELDS)
            if unknown:
                raise _invalid(index, unknown[0], _("unknown fields: %(names)s") % {"names": ", ".join(unknown)})
            item = TurnInput(role=raw.get("role"), content=raw.get("content"), tool_name=raw.get("tool_name") or "",
                             client_id=raw.get("client_id"), occurred_at=raw.get("occurred_at"))
        else:
            raise _invalid(index, "", _("each turn must be an object"))
        if item.role not in TurnRole.values:
            raise _invalid(index, "role", _("role must be one of %(roles)s") % {"roles": ", ".join(TurnRole.values)})
        if not isinstance(item.content, str) or not item.content.strip():
            raise _invalid(index, "content", _("content must be non-empty text"))
        if len(item.content) > Turn.CONTENT_MAX_CHARS:
            raise TooLarge(
                _("turn %(index)d is longer than %(max)d characters") % {"index": index, "max": Turn.CONTENT_MAX_CHARS},
                code="turn_too_large", details={"index": index, "max_chars": Turn.CONTENT_MAX_CHARS,
                                                "chars": len(item.content)})
        tool_name = validate_client_string(item.tool_name or "", field="tool_name",
                                           max_length=Turn.TOOL_NAME_MAX_LENGTH, required=False)
        # Content is redacted (a conversation is kept); a tool's name is a name: a secret there is refused.
        for path, kinds in secrets_in_json(tool_name, "tool_name"):
            raise _invalid(index, path, secret_message(path, kinds), code="secret_detected")
        client_id = validate_client_string(item.client_id or "", field="client_id",
                                           max_length=Turn.CLIENT_ID_MAX_LENGTH, required=False) or None
        if client_id is not None:
            if client_id in seen_client_ids:
                raise _invalid(index, "client_id", _("client_id repeats turn %(other)d of this batch")
                               % {"other": seen_client_ids[client_id]}, code="duplicate_client_id")
            seen_client_ids[client_id] = index
        content, findings = redact_secrets(item.content) if redact else (item.content, [])
        prepared.append(_Prepared(
            role=item.role, content=content, token_count=count_tokens(content), tool_name=tool_name,
            client_id=client_id, redactions=[{"kind": finding.kind} for finding in findings],
            occurred_at=_occurred_at(index, item.occurred_at),
        ))
    return prepared


def summary_due(session: Session, *, covers_up_to: int, policy: ShortTermPolicy) -> bool:
    """Whether enough unsummarised and new turns have piled up for the next rolling summary."""
    unsummarised = session.turn_count - covers_up_to
    new_since_last = session.turn_count - session.summarised_at_turn_count
    return unsummarised >= policy.summary_trigger_turns and new_since_last >= policy.summary_min_new_turns


def _summary_due_now(session: Session) -> bool:
    """summary_due for the session as it stands, reading the latest summary's coverage only when it can
    matter: unsummarised turns are at most turn_count (coverage is never negative), so a session shorter
    than the trigger, or with too few turns since the last summary, is not due whatever that row says. Most
    appends stop here, one SELECT fewer in the append's transaction (docs/benchmarks.md, issue 16)."""
    policy = short_term_policy(session.tenant_id)
    if not summary_due(session, covers_up_to=0, policy=policy):
        return False
    latest = SessionSummary.objects.filter(session=session).order_by("-version").values("covers_up_to").first()
    return summary_due(session, covers_up_to=latest["covers_up_to"] if latest else 0, policy=policy)


class _SessionExpired(Exception):
    pass


def turns_append(*, session: Session, turns: list, actor: Actor) -> TurnsAppended:
    """Append a batch of turns in order, all or nothing.

    A turn whose `client_id` is already stored is not stored again: the stored turn is returned
    (`created=False`), so a retried batch adds nothing. Reusing a client id for a different role or
    content is a Conflict. Secrets are redacted before storage unless the tenant turned that off;
    the result lists what was redacted. Sequence numbers are gap-free: the session row is locked
    for the whole append. An ended or expired session refuses turns (409); an active session idle
    past its timeout is expired on the spot and refuses them too.
    """
    return _append(Session.objects.filter(pk=session.pk), tenant=session.tenant, turns=turns, actor=actor)


def turns_append_to(*, tenant: Tenant, session_id: str, turns: list, actor: Actor) -> TurnsAppended:
    """`turns_append` to the tenant's session with this client id (NotFound when it has none): the session
    is read once, by the lock the append takes anyway, where reading it first and then locking it read it
    twice (the API's path; docs/benchmarks.md, issue 16)."""
    return _append(Session.objects.filter(tenant=tenant, session_id=session_id), tenant=tenant, turns=turns,
                   actor=actor)


def _append(sessions: QuerySet[Session], *, tenant: Tenant, turns: list, actor: Actor) -> TurnsAppended:
    prepared = _prepare(turns, redact=tenant.redact_secrets_in_turns)
    try:
        return _append_locked(sessions=sessions, tenant=tenant, prepared=prepared, actor=actor)
    except _SessionExpired:
        raise session_expired_error() from None


# The session row is the first lock of the order (memoryhub/core/locks.py); if PostgreSQL still picks
# the append as a deadlock victim, it is run again whole rather than answered with a 500.
@deadlock_retry
def _append_locked(*, sessions: QuerySet[Session], tenant: Tenant, prepared: list[_Prepared],
                   actor: Actor) -> TurnsAppended:
    expired = False
    with transaction.atomic():
        # FOR NO KEY UPDATE of the session row only: appends exclude each other, but rows that merely
        # point at the session or the tenant (a formation run, a memory) are not held up behind them.
        session = sessions.select_for_update(no_key=True, of=("self",)).first()
        if session is None:
            raise session_not_found_error()
        session.tenant = tenant  # the caller's (the API key's) row: no join for it
        if session.status != SessionStatus.ACTIVE:
            raise Conflict(_("the session is %(status)s and takes no more turns") % {"status": session.status},
                           code=f"session_{session.status}", details={"status": session.status})
        now = timezone.now()
        if session_is_idle(session, now=now):
            # Committed below, before the caller hears about it, so the expiry is not rolled back.
            _close(session, status=SessionStatus.EXPIRED, actor=Actor.system("short_term.turns_append"), now=now)
            expired = True
        else:
            result = _store(session, prepared, now=now, actor=actor)
    if expired:
        raise _SessionExpired()
    return result


# Higher layers annotate appended turns without short-term importing them (the import points down):
# an annotator registered here (by its app's `ready`, e.g. layers/transient/apps.py) runs inside the
# append transaction with (session=, turns=[new Turn rows], actor=) and returns a list, served under its name.
append_annotators: dict[str, object] = {}


def append_annotator_register(name: str, annotator) -> None:
    append_annotators[name] = annotator


def _annotations(*, session: Session, turns: list[Turn], actor: Actor) -> dict[str, list]:
    """What every annotator says about the new turns. They run together inside one savepoint (two statements
    per append, not two per annotator); if any of them raises, that savepoint is rolled back and each runs
    again in a savepoint of its own, so the one that fails loses only its own writes and the others' stand."""
    if not turns:
        return {name: [] for name in append_annotators}
    try:
        with transaction.atomic():
            return {name: annotate(session=session, turns=turns, actor=actor)
                    for name, annotate in append_annotators.items()}
    except Exception:  # noqa: BLE001 - found again, logged and counted by the one that fails below
        return {name: _annotate(name, annotate, session=session, turns=turns, actor=actor)
                for name, annotate in append_annotators.items()}


def _annotate(name: str, annotate, *, session: Session, turns: list[Turn], actor: Actor) -> list:
    """One annotator inside a savepoint: whatever it raises (a row the database refuses, a bug in its
    rules) rolls back its own writes only, so the turns are still appended; it is logged and counted
    (memoryhub/api/metrics.py, memoryhub_append_annotator_failures) and its list is served empty."""
    try:
        with transaction.atomic():
            return annotate(session=session, turns=turns, actor=actor)
    except Exception:  # noqa: BLE001 - an annotation is never worth the user's turns
        logger.exception("append annotator %r failed on session %s", name, session.pk)
        record_annotator_failure(name, session.tenant_id)
        return []


def _store(session: Session, prepared: list[_Prepared], *, now, actor: Actor) -> TurnsAppended:
    client_ids = [item.client_id for item in prepared if item.client_id]
    stored = {turn.client_id: turn for turn in Turn.objects.filter(session=session, client_id__in=client_ids)}
    mismatched = [index for index, item in enumerate(prepared)
                  if item.client_id in stored
                  and (stored[item.client_id].role, stored[item.client_id].content) != (item.role, item.content)]
    if mismatched:
        raise Conflict(_("client ids already stored with a different role or content"), code="client_id_reused",
                       details={"indices": mismatched})

    new_turns, results, redactions = [], [], []
    seq = session.turn_count
    for index, item in enumerate(prepared):
        if item.client_id in stored:
            results.append(AppendedTurn(turn=stored[item.client_id], created=False))
            continue
        seq += 1
        turn = Turn(session=session, seq=seq, role=item.role, content=item.content, token_count=item.token_count,
                    tool_name=item.tool_name, client_id=item.client_id, redactions=item.redactions,
                    appended_by=actor.label[:Turn.ACTOR_MAX_LENGTH], occurred_at=item.occurred_at)
        new_turns.append(turn)
        results.append(AppendedTurn(turn=turn, created=True))
        redactions.extend({"index": index, "kind": r["kind"]} for r in item.redactions)
    if new_turns:
        # Turns carry no history; one INSERT keeps large batches cheap.
        Turn.objects.bulk_create(new_turns)
        session.turn_count = seq
        session.last_activity_at = now
        session.needs_summary = _summary_due_now(session)
        session.save(update_fields=["turn_count", "last_activity_at", "needs_summary"])
        turns_appended.send(sender=Session, session=session, turns=new_turns)
    annotations = _annotations(session=session, turns=new_turns, actor=actor)
    return TurnsAppended(session=session, turns=results, redactions=redactions, annotations=annotations)
