"""Approving and rejecting change requests. Only staff reviewers decide; agents never can."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memoryhub.console.permissions import ChangeRequestPolicy
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, Forbidden, InvalidInput, NotFound
from permanent.events import CHANGE_APPROVAL_RECORDED, CHANGE_APPROVED, CHANGE_REJECTED
from permanent.models import (
    COMMENT_MAX_LENGTH,
    Approval,
    ApprovalDecision,
    ChangeRequest,
    ChangeState,
)
from permanent.payload import change_request_payload_hash
from permanent.services.applying import apply_locked, raise_if_superseded
from permanent.services.common import audit_change_request, transition


def _lock_for_review(change_request_id: int, reviewer, payload_hash: str, comment: str) -> ChangeRequest:
    locked = (ChangeRequest.objects.select_for_update(of=("self",)).select_related("proposer_api_key", "entry")
              .filter(pk=change_request_id).first())
    if locked is None:
        raise NotFound(_("No such change request."), code="change_request_not_found")
    refusal = ChangeRequestPolicy(reviewer).review_refusal(locked)
    if refusal is not None:
        raise Forbidden(str(refusal.message), code=refusal.code)
    if locked.state != ChangeState.PENDING:
        raise Conflict(_("This change request is %(state)s, not pending.") % {"state": locked.get_state_display()},
                       code="illegal_transition", details={"state": locked.state})
    if payload_hash != locked.payload_hash or locked.payload_hash != change_request_payload_hash(locked):
        raise Conflict(_("The change you reviewed is not the one pending; reload and review again."),
                       code="payload_mismatch")
    if len(comment or "") > COMMENT_MAX_LENGTH:
        raise InvalidInput(_("The comment is too long."), code="comment_too_long")
    if locked.approvals.filter(reviewer=reviewer).exists():
        raise Conflict(_("You already reviewed this request; another reviewer must."), code="already_reviewed")
    return locked


def change_request_approve(*, change_request: ChangeRequest, reviewer, payload_hash: str,
                           comment: str = "") -> ChangeRequest:
    """Record one approval of exactly `payload_hash`. With enough distinct approvals the request is
    approved, and applied at once unless it is scheduled for later."""
    outcome = None
    with transaction.atomic():
        locked = _lock_for_review(change_request.pk, reviewer, payload_hash, comment)
        Approval.objects.create(change_request=locked, reviewer=reviewer, decision=ApprovalDecision.APPROVE,
                                payload_hash=payload_hash, comment=comment or "")
        actor = Actor.for_user(reviewer)
        count = locked.approvals.filter(decision=ApprovalDecision.APPROVE).count()
        required = locked.required_approvals
        audit_change_request(locked, actor=actor, event=CHANGE_APPROVAL_RECORDED,
                             after={"approvals": count, "required": required})
        if count >= required:
            transition(locked, ChangeState.APPROVED)
            locked.decided_at = timezone.now()
            locked.save()
            audit_change_request(locked, actor=actor, event=CHANGE_APPROVED,
                                 after={"approvals": count})
            if locked.effective_at is None or locked.effective_at <= timezone.now():
                outcome = apply_locked(locked, actor=actor)
    raise_if_superseded(locked, outcome)
    return locked


@transaction.atomic
def change_request_reject(*, change_request: ChangeRequest, reviewer, payload_hash: str,
                          comment: str = "") -> ChangeRequest:
    locked = _lock_for_review(change_request.pk, reviewer, payload_hash, comment)
    Approval.objects.create(change_request=locked, reviewer=reviewer, decision=ApprovalDecision.REJECT,
                            payload_hash=payload_hash, comment=comment or "")
    transition(locked, ChangeState.REJECTED)
    locked.decided_at = timezone.now()
    locked.save()
    audit_change_request(locked, actor=Actor.for_user(reviewer), event=CHANGE_REJECTED)
    return locked
