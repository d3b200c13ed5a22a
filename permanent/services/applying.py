"""Applying an approved change request: the only code that writes entries and versions."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict
from permanent.cache import invalidate_on_commit
from permanent.events import CHANGE_APPLIED, CHANGE_SUPERSEDED, ENTRY_CHANGED
from permanent.models import (
    ApprovalDecision,
    ChangeAction,
    ChangeRequest,
    ChangeState,
    EntryStatus,
    PermanentEntry,
    PermanentVersion,
)
from permanent.payload import (
    change_request_payload_hash,
    validate_against_schema,
    value_hash,
)
from permanent.services.common import (
    audit_change_request,
    describe_key,
    describe_value,
    transition,
)

SUPERSEDED = "superseded"
APPLIED = "applied"


def raise_if_superseded(change_request: ChangeRequest, outcome: str | None) -> None:
    """Called after the transaction that recorded the superseding has committed."""
    if outcome == SUPERSEDED:
        raise Conflict(change_request.state_note, code="base_version_moved",
                       details={"base_version": change_request.base_version})


def apply_locked(change_request: ChangeRequest, *, actor: Actor) -> str:
    """Apply an approved request the caller holds a row lock on. Returns `applied`, or `superseded`
    when the entry moved past the request's base version (the request must be re-proposed)."""
    entry = (PermanentEntry.objects.select_for_update()
             .filter(tenant_id=change_request.tenant_id, key=change_request.key, user_id=change_request.user_id)
             .first())
    current = entry.current_version if entry else 0
    if current != change_request.base_version:
        transition(change_request, ChangeState.SUPERSEDED)
        change_request.state_note = (
            _("The entry moved from version %(base)d to %(current)d after this was proposed; re-propose it.")
            % {"base": change_request.base_version, "current": current})
        change_request.save()
        audit_change_request(change_request, actor=actor, event=CHANGE_SUPERSEDED,
                             after={"current_version": current})
        return SUPERSEDED
    # The approvals must be for exactly this payload, and the payload must still be what was hashed.
    expected = change_request_payload_hash(change_request)
    approvals = list(change_request.approvals.filter(decision=ApprovalDecision.APPROVE))
    if change_request.payload_hash != expected or any(a.payload_hash != expected for a in approvals):
        raise Conflict(_("The payload differs from the one approved; it cannot be applied."), code="payload_mismatch")

    now = timezone.now()
    action = change_request.action
    if entry is None:
        entry = PermanentEntry(
            tenant_id=change_request.tenant_id, key=change_request.key, user_id=change_request.user_id,
            schema=change_request.proposed_schema, required_approvals=change_request.proposed_required_approvals or 1,
        )
    before = {"version": current, "status": entry.status if entry.pk else None}
    if entry.pk:
        before["value"] = describe_value(tenant_id=entry.tenant_id, user_id=entry.user_id, value=entry.value)
    value = None if action == ChangeAction.RETIRE else change_request.proposed_value
    if action != ChangeAction.RETIRE:
        validate_against_schema(value, entry.schema)
    entry.current_version = current + 1
    entry.value = value
    entry.value_hash = value_hash(value)
    entry.status = EntryStatus.RETIRED if action == ChangeAction.RETIRE else EntryStatus.ACTIVE
    entry.save()
    PermanentVersion.objects.create(
        entry=entry, number=entry.current_version, action=action, value=value, value_hash=entry.value_hash,
        rolled_back_to=change_request.target_version if action == ChangeAction.ROLLBACK else None,
        proposed_by=change_request.proposer_label,
        approved_by=[a.reviewer.get_username() for a in approvals],
        change_request=change_request, effective_from=now,
    )
    transition(change_request, ChangeState.APPLIED)
    change_request.entry = entry
    change_request.applied_version = entry.current_version
    change_request.applied_at = now
    change_request.save()
    audit_change_request(change_request, actor=actor, event=CHANGE_APPLIED,
                         after={"applied_version": entry.current_version})
    audit_record(
        tenant_id=entry.tenant_id, actor=actor, event=ENTRY_CHANGED[action],
        object_id=entry.pk, before=before,
        after={**describe_key(tenant_id=entry.tenant_id, user_id=entry.user_id, key=entry.key),
               "version": entry.current_version, "status": entry.status, "change_request": change_request.pk,
               "value": describe_value(tenant_id=entry.tenant_id, user_id=entry.user_id, value=value)},
        subject_user_id=entry.user_id or None,
    )
    invalidate_on_commit(entry.tenant_id)
    return APPLIED


def change_request_apply(*, change_request: ChangeRequest, actor: Actor) -> ChangeRequest:
    """Apply one approved request now (its `effective_at` permitting). 409 when its base moved."""
    with transaction.atomic():
        locked = ChangeRequest.objects.select_for_update().get(pk=change_request.pk)
        if locked.state != ChangeState.APPROVED:
            raise Conflict(_("Only an approved request can be applied."), code="illegal_transition",
                           details={"state": locked.state})
        if locked.effective_at and locked.effective_at > timezone.now():
            raise Conflict(_("This request is scheduled for later."), code="not_yet_effective")
        outcome = apply_locked(locked, actor=actor)
    raise_if_superseded(locked, outcome)
    return locked


def change_requests_apply_due(*, now=None, limit: int = 200) -> dict:
    """Apply approved requests whose `effective_at` has come. Safe to run from many workers at once:
    each request is taken with SKIP LOCKED and re-checked under the lock."""
    now = now or timezone.now()
    actor = Actor.system("permanent.apply_due")
    applied = superseded = 0
    due_ids = list(ChangeRequest.objects.filter(state=ChangeState.APPROVED, effective_at__lte=now)
                   .order_by("effective_at", "id").values_list("id", flat=True)[:limit])
    for change_request_id in due_ids:
        with transaction.atomic():
            locked = (ChangeRequest.objects.select_for_update(skip_locked=True)
                      .filter(pk=change_request_id, state=ChangeState.APPROVED, effective_at__lte=now).first())
            if locked is None:
                continue
            if apply_locked(locked, actor=actor) == APPLIED:
                applied += 1
            else:
                superseded += 1
    return {"applied": applied, "superseded": superseded}
