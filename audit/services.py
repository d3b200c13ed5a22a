"""Writing audit events. Call `audit_record` inside the transaction of the change it describes."""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from audit.events import EventType, event_type_get
from audit.models import AuditEvent, AuditHead
from audit.subjects import subject_pseudonym
from memoryhub.core.actors import Actor
from memoryhub.core.locks import AUDIT_CHAIN, advisory_lock
from memoryhub.core.request_context import current_request_id

GENESIS_HASH = "0" * 64
# Versioned, so a later change of what a seal covers cannot be confused with this one.
HEAD_SEAL_CONTEXT = b"memoryhub.audit.head.v1"

logger = logging.getLogger(__name__)


def _normalise(value: Any) -> Any:
    """What the value reads back as from jsonb, so the hash can be recomputed from the row."""
    if value is None:
        return None
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))


def canonical_event(event: AuditEvent) -> str:
    body = {
        "tenant_id": event.tenant_id,
        "seq": event.seq,
        "occurred_at": event.occurred_at.isoformat(),
        "actor": [event.actor_kind, event.actor_id, event.actor_label],
        "action": event.action,
        "object": [event.object_type, event.object_id],
        "subject": event.subject,
        "before": event.before,
        "after": event.after,
        "request_id": event.request_id,
    }
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(prev_hash: str, event: AuditEvent) -> str:
    return hashlib.sha256((prev_hash + canonical_event(event)).encode("utf-8")).hexdigest()


def head_seal(tenant_id: int, event_count: int, last_hash: str, key: str | None = None) -> str:
    """The HMAC over a tenant's head under `AUDIT_HEAD_KEY` (or `key`), which the database never holds."""
    message = b"%s\0%d\0%d\0%s" % (HEAD_SEAL_CONTEXT, int(tenant_id), int(event_count), last_hash.encode("ascii"))
    return hmac.new((key or settings.AUDIT_HEAD_KEY).encode("utf-8"), message, hashlib.sha256).hexdigest()


def head_seal_valid(head: AuditHead) -> bool:
    """Whether the head was sealed with the current key or one of `AUDIT_HEAD_PREVIOUS_KEYS` (a rotation:
    the next append of the tenant seals it with the current key)."""
    for key in (settings.AUDIT_HEAD_KEY, *settings.AUDIT_HEAD_PREVIOUS_KEYS):
        if hmac.compare_digest(head.mac, head_seal(head.tenant_id, head.event_count, head.last_hash, key)):
            return True
    return False


_CHAIN_ENDS = f"""
    SELECT h.event_count, h.last_hash, h.mac, e.seq, e.hash
    FROM (SELECT 1) AS one
    LEFT JOIN {AuditHead._meta.db_table} AS h ON h.tenant_id = %(tenant)s
    LEFT JOIN LATERAL (SELECT seq, hash FROM {AuditEvent._meta.db_table} WHERE tenant_id = %(tenant)s
                       ORDER BY seq DESC LIMIT 1) AS e ON true
"""


def _chain_base(tenant_id: int) -> tuple[int, str, bool]:
    """(seq, hash) the next event follows, and whether the head moves with it. Read under the chain lock.

    A sound head is where the chain continues, even when the table lost its newest events since (the
    gap then stays for verification to find). The head is left as it is, as evidence, when it is not
    sound: its seal does not verify, it is missing while events exist, or events were added past it
    other than through here. Appends go on meanwhile, chained to the table's last event.
    """
    with connection.cursor() as cursor:
        cursor.execute(_CHAIN_ENDS, {"tenant": int(tenant_id)})
        count, head_hash, mac, last_seq, last_hash = cursor.fetchone()
    if count is None:
        if last_seq is None:
            return 0, GENESIS_HASH, True  # the tenant's first event
        logger.error("audit chain of tenant %s has no head record; it is not re-created", tenant_id)
        return last_seq, last_hash, False
    head = AuditHead(tenant_id=tenant_id, event_count=count, last_hash=head_hash, mac=mac)
    if not head_seal_valid(head):
        logger.error("audit chain head of tenant %s does not verify; it is left as it is", tenant_id)
    elif last_seq is not None and last_seq > count:
        logger.error("audit chain of tenant %s holds events past its head; the head is left as it is", tenant_id)
    else:
        return count, head_hash, True
    return (last_seq, last_hash, False) if last_seq is not None else (0, GENESIS_HASH, False)


def audit_record(
    *,
    tenant_id: int,
    actor: Actor,
    event: str | EventType,
    object_id: Any,
    before: dict | None = None,
    after: dict | None = None,
    subject_user_id: str | None = None,
) -> AuditEvent:
    """Append one event to the tenant's chain, in the caller's transaction.

    `event` is a declared event type (audit/events.py) or its name; it gives the object's type.
    `actor` is who acted: every write names one (a staff user, an API key or a system job).
    `subject_user_id` names the end user the event is about; it is stored only as a keyed pseudonym.
    User content in `before` / `after` must already be a digest (see `audit.subjects.subject_digest`).
    """
    declared = event_type_get(event)
    if not isinstance(actor, Actor):
        raise TypeError("audit_record needs the acting Actor")
    with transaction.atomic():
        advisory_lock(AUDIT_CHAIN, int(tenant_id))
        last_seq, last_hash, head_moves = _chain_base(tenant_id)
        event = AuditEvent(
            tenant_id=tenant_id,
            seq=last_seq + 1,
            occurred_at=timezone.now(),
            actor_kind=actor.kind,
            actor_id=str(actor.id)[:64],
            actor_label=actor.label[:200],
            action=declared.name,
            object_type=declared.object_type,
            object_id=str(object_id)[:128],
            subject=subject_pseudonym(tenant_id, subject_user_id) if subject_user_id else "",
            before=_normalise(before),
            after=_normalise(after),
            request_id=current_request_id.get()[:64],
            prev_hash=last_hash,
        )
        event.hash = event_hash(event.prev_hash, event)
        event.save(force_insert=True)
        if head_moves:
            _head_move(event)
        return event


def _head_move(event: AuditEvent) -> None:
    """The head now ends at `event`, sealed, in the append's own transaction."""
    values = {"event_count": event.seq, "last_hash": event.hash, "updated_at": event.occurred_at,
              "mac": head_seal(event.tenant_id, event.seq, event.hash)}
    if not AuditHead.objects.filter(tenant_id=event.tenant_id).update(**values):
        AuditHead.objects.create(tenant_id=event.tenant_id, **values)
