"""Writing audit events. Call `audit_record` inside the transaction of the change it describes."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import transaction
from django.utils import timezone

from audit.events import EventType, event_type_get
from audit.models import AuditEvent
from audit.subjects import subject_pseudonym
from memoryhub.core.actors import Actor
from memoryhub.core.locks import AUDIT_CHAIN, advisory_lock
from memoryhub.core.request_context import current_request_id

GENESIS_HASH = "0" * 64


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
        last = AuditEvent.objects.filter(tenant_id=tenant_id).order_by("-seq").values("seq", "hash").first()
        event = AuditEvent(
            tenant_id=tenant_id,
            seq=(last["seq"] + 1) if last else 1,
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
            prev_hash=last["hash"] if last else GENESIS_HASH,
        )
        event.hash = event_hash(event.prev_hash, event)
        event.save(force_insert=True)
        return event
