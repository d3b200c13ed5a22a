"""Pieces shared by the change-request services: state transitions and audit payloads."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from audit.services import audit_record
from audit.subjects import subject_digest
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict
from permanent.models import CHANGE_TRANSITIONS, ChangeRequest
from permanent.payload import canonical_json, value_hash


def transition(change_request: ChangeRequest, new_state: str) -> None:
    if new_state not in CHANGE_TRANSITIONS[change_request.state]:
        raise Conflict(
            _("A %(state)s change request cannot become %(new)s.") % {"state": change_request.state, "new": new_state},
            code="illegal_transition", details={"state": change_request.state, "requested": new_state},
        )
    change_request.state = new_state


def describe_value(*, tenant_id: int, user_id: str, value: Any) -> str:
    """How a value appears in the audit trail: a plain hash for global entries, a keyed digest for a
    user's entry (their content must not be linkable once they are erased)."""
    if user_id:
        return subject_digest(tenant_id, user_id, canonical_json(value))
    return value_hash(value)


def describe_key(*, tenant_id: int, user_id: str, key: str) -> dict:
    if user_id:
        return {"key_digest": subject_digest(tenant_id, user_id, key), "scope": "user"}
    return {"key": key, "scope": "global"}


def audit_change_request(change_request: ChangeRequest, *, actor: Actor, event: str, before: dict | None = None,
                         after: dict | None = None) -> None:
    base = describe_key(tenant_id=change_request.tenant_id, user_id=change_request.user_id, key=change_request.key)
    audit_record(
        tenant_id=change_request.tenant_id, actor=actor, event=event, object_id=change_request.pk,
        before=before, after={**base, "request_action": change_request.action, "state": change_request.state,
                              "payload_hash": change_request.payload_hash, **(after or {})},
        subject_user_id=change_request.user_id or None,
    )
