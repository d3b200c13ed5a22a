"""Opening, ending and expiring sessions."""
from __future__ import annotations

import json
import logging
import re
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from layers.short_term.events import SESSION_CLOSED
from layers.short_term.models import SESSION_TRANSITIONS, Session, SessionStatus
from layers.short_term.policy import short_term_policy
from layers.short_term.signals import session_ended
from memoryhub.api.identifiers import validate_user_id
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, InvalidInput, TooLarge
from memoryhub.core.locks import deadlock_retry
from memoryhub.safety.secrets import refuse_secrets
from memoryhub.tenancy.models import Tenant

logger = logging.getLogger(__name__)

_SESSION_ID_RE = re.compile(Session.SESSION_ID_PATTERN)
# Idle sessions are expired in batches of this size, at most EXPIRE_MAX_PER_RUN a run; the next
# run continues where this one stopped.
EXPIRE_BATCH = 500
EXPIRE_MAX_PER_RUN = 20_000


def validate_client_string(value, *, field: str, max_length: int, required: bool = True) -> str:
    """A client-supplied identifier: a string, within length, free of control characters."""
    if value is None or value == "":
        if required:
            raise InvalidInput(_("%(field)s is required") % {"field": field}, code="invalid",
                               details={"fields": {field: ["required"]}})
        return ""
    if not isinstance(value, str):
        raise InvalidInput(_("%(field)s must be a string") % {"field": field},
                           details={"fields": {field: ["must be a string"]}})
    if len(value) > max_length:
        raise InvalidInput(_("%(field)s is longer than %(max)d characters") % {"field": field, "max": max_length},
                           details={"fields": {field: [f"at most {max_length} characters"]}})
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value) or value != value.strip():
        raise InvalidInput(_("%(field)s has control characters or surrounding spaces") % {"field": field},
                           details={"fields": {field: ["no control characters or surrounding spaces"]}})
    return value


def validate_session_id(value) -> str:
    value = validate_client_string(value, field="session_id", max_length=Session.SESSION_ID_MAX_LENGTH)
    if not _SESSION_ID_RE.match(value):
        raise InvalidInput(
            _("session_id may contain letters, digits and . _ : @ - and must start with a letter or digit"),
            details={"fields": {"session_id": ["letters, digits and . _ : @ - only"]}},
        )
    return value


def _validate_metadata(metadata) -> dict:
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise InvalidInput(_("metadata must be a JSON object"), details={"fields": {"metadata": ["must be an object"]}})
    size = len(json.dumps(metadata, ensure_ascii=False).encode("utf-8"))
    if size > Session.METADATA_MAX_BYTES:
        raise TooLarge(_("metadata is larger than %(max)d bytes") % {"max": Session.METADATA_MAX_BYTES},
                       code="metadata_too_large", details={"max_bytes": Session.METADATA_MAX_BYTES, "bytes": size})
    refuse_secrets(metadata, field="metadata")  # stored and exported as sent: no secrets in it
    return metadata


def session_open(*, tenant: Tenant, session_id: str, user_id: str, agent_id: str = "",
                 metadata: dict | None = None, actor: Actor) -> tuple[Session, bool]:
    """Open a session, or return the one already open under `session_id` (idempotent).

    Returns (session, created). A session id names one conversation of one user: reopening it for
    another user is a Conflict. An ended or expired session is returned as it is; it never becomes
    active again, so a client that wants to talk on opens a new session id.
    """
    session_id = validate_session_id(session_id)
    user_id = validate_user_id(user_id, max_length=Session.USER_ID_MAX_LENGTH)
    agent_id = validate_client_string(agent_id, field="agent_id", max_length=Session.AGENT_ID_MAX_LENGTH,
                                      required=False)
    metadata = _validate_metadata(metadata)

    existing = Session.objects.filter(tenant=tenant, session_id=session_id).first()
    if existing is None:
        try:
            with transaction.atomic():
                session = Session.objects.create(
                    tenant=tenant, session_id=session_id, user_id=user_id, agent_id=agent_id,
                    metadata=metadata, last_activity_at=timezone.now(),
                    opened_by=actor.label[:Session.ACTOR_MAX_LENGTH],
                )
            return session, True
        except IntegrityError:
            # A concurrent open of the same id won the race; fall through to the idempotent path.
            existing = Session.objects.get(tenant=tenant, session_id=session_id)
    if existing.user_id != user_id:
        raise Conflict(_("this session id belongs to another user"), code="session_user_mismatch")
    return existing, False


def _check_transition(session: Session, target: str) -> None:
    if target not in SESSION_TRANSITIONS[session.status]:
        raise Conflict(
            _("a %(status)s session cannot become %(target)s") % {"status": session.status, "target": target},
            code=f"session_{session.status}",
            details={"status": session.status, "requested": target},
        )


@deadlock_retry
@transaction.atomic
def session_end(*, session: Session, actor: Actor) -> Session:
    """End an active session (audited; sends `session_ended`). Ending an ended session is a no-op;
    an expired session cannot be ended (409 `session_expired`)."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status == SessionStatus.ENDED:
        return session
    _check_transition(session, SessionStatus.ENDED)
    _close(session, status=SessionStatus.ENDED, actor=actor, now=timezone.now())
    return session


@deadlock_retry
@transaction.atomic
def session_expire(*, session: Session, actor: Actor, now: datetime | None = None) -> Session:
    """Mark an active session expired (audited; sends `session_ended` with reason "expired")."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status == SessionStatus.EXPIRED:
        return session
    _check_transition(session, SessionStatus.EXPIRED)
    _close(session, status=SessionStatus.EXPIRED, actor=actor, now=now or timezone.now())
    return session


def _close(session: Session, *, status: str, actor: Actor, now: datetime) -> None:
    before = {"status": session.status}
    session.status = status
    session.ended_at = now
    session.save(update_fields=["status", "ended_at"])
    audit_record(
        tenant_id=session.tenant_id, actor=actor, event=SESSION_CLOSED[status],
        object_id=session.pk, before=before,
        after={"status": status, "turn_count": session.turn_count,
               "last_activity_at": session.last_activity_at.isoformat()},
        subject_user_id=session.user_id,
    )
    session_ended.send(sender=Session, session=session, reason=status)


def session_is_idle(session: Session, *, now: datetime | None = None) -> bool:
    if session.status != SessionStatus.ACTIVE:
        return False
    timeout = short_term_policy(session.tenant_id).idle_timeout
    return session.last_activity_at < (now or timezone.now()) - timeout


def session_expired_error() -> Conflict:
    """The refusal of new work (turns, tasks) in a session found idle past its timeout."""
    return Conflict(_("the session expired after being idle; open a new one"), code="session_expired",
                    details={"status": SessionStatus.EXPIRED})


def session_touch(session: Session, *, now: datetime) -> None:
    """Record activity on a locked session that is not a turn (e.g. work on its tasks), keeping an
    active session from expiring as idle. A session already idle past its timeout is not revived; the
    sweep expires it."""
    if session.status == SessionStatus.ACTIVE and not session_is_idle(session, now=now):
        session.last_activity_at = now
        session.save(update_fields=["last_activity_at"])


def _idle_cutoffs(now: datetime) -> dict[int, datetime]:
    """Per tenant with active sessions: activity before this instant means idle (its own timeout)."""
    tenant_ids = (Session.objects.filter(status=SessionStatus.ACTIVE)
                  .values_list("tenant_id", flat=True).distinct().order_by())
    return {tenant_id: now - short_term_policy(tenant_id).idle_timeout for tenant_id in tenant_ids}


def _idle_candidates(*, cutoffs: dict[int, datetime], after_pk: int, limit: int) -> list[int]:
    """Ids of idle active sessions, in id order after `after_pk`."""
    found: list[int] = []
    for tenant_id, cutoff in cutoffs.items():
        found.extend(
            Session.objects.filter(tenant_id=tenant_id, status=SessionStatus.ACTIVE, last_activity_at__lt=cutoff,
                                   pk__gt=after_pk)
            .order_by("pk").values_list("pk", flat=True)[:limit]
        )
    return sorted(found)[:limit]


def sessions_expire_idle(*, now: datetime | None = None, dry_run: bool = False,
                         max_sessions: int = EXPIRE_MAX_PER_RUN) -> dict:
    """Expire active sessions idle longer than their tenant's timeout. With `dry_run`, only count.

    Works through batches in id order, up to `max_sessions` a run (the next run continues). Each
    session is expired in its own transaction under its row lock, re-checked there, so a turn
    appended meanwhile keeps the session alive and concurrent sweeps never expire one twice.
    """
    now = now or timezone.now()
    actor = Actor.system("short_term.sessions_expire_idle")
    seen = expired = 0
    after_pk = 0
    cutoffs = _idle_cutoffs(now)  # each tenant's policy read once a run, not once a batch and row
    while seen < max_sessions:
        batch = _idle_candidates(cutoffs=cutoffs, after_pk=after_pk, limit=min(EXPIRE_BATCH, max_sessions - seen))
        if not batch:
            break
        seen += len(batch)
        after_pk = batch[-1]
        if dry_run:
            continue
        for pk in batch:
            with transaction.atomic():
                session = Session.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
                if (session is None or session.status != SessionStatus.ACTIVE
                        or session.last_activity_at >= cutoffs[session.tenant_id]):
                    continue  # taken by another sweep, closed, or active again meanwhile
                _close(session, status=SessionStatus.EXPIRED, actor=actor, now=now)
                expired += 1
    if expired:
        logger.info("expired %d idle sessions", expired)
    return {"dry_run": dry_run, "expired": expired, "would_expire": seen}
