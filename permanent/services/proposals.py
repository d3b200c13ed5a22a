"""Proposing, withdrawing and scheduling change requests."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memoryhub.console.permissions import ChangeRequestPolicy
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, Forbidden, InvalidInput, NotFound
from memoryhub.tenancy.models import ApiKey, Scope, Tenant
from permanent.events import CHANGE_PROPOSED, CHANGE_SCHEDULED, CHANGE_WITHDRAWN
from permanent.models import (
    MAX_REQUIRED_APPROVALS,
    REASON_MAX_LENGTH,
    ChangeAction,
    ChangeOrigin,
    ChangeRequest,
    ChangeState,
    EntryStatus,
    PermanentEntry,
    PermanentVersion,
    VersionAction,
)
from permanent.payload import (
    payload_hash,
    validate_against_schema,
    validate_key,
    validate_schema,
    validate_user_id,
    validate_value_size,
)
from permanent.services.common import audit_change_request, describe_value, transition

_MISSING = object()


def _proposer(*, tenant: Tenant, proposer_user, proposer_api_key: ApiKey | None, system_job: str | None):
    given = [x for x in (proposer_user, proposer_api_key, system_job) if x]
    if len(given) != 1:
        raise ValueError("exactly one of proposer_user, proposer_api_key, system_job")
    if proposer_user is not None:
        refusal = ChangeRequestPolicy(proposer_user).propose_refusal(tenant.id)
        if refusal is not None:
            raise Forbidden(str(refusal.message), code=refusal.code)
        return ChangeOrigin.STAFF, Actor.for_user(proposer_user), proposer_user.get_username()
    if proposer_api_key is not None:
        if proposer_api_key.tenant_id != tenant.id or not proposer_api_key.is_active \
                or not proposer_api_key.has_scope(Scope.PROPOSE):
            raise Forbidden(_("This API key may not propose permanent changes."), code="not_a_proposer")
        actor = Actor.for_api_key(proposer_api_key)
        return ChangeOrigin.AGENT, actor, actor.label
    return ChangeOrigin.EXTRACTION, Actor.system(system_job), system_job


@transaction.atomic
def change_request_propose(
    *, tenant: Tenant, key: str, action: str, user_id: str = "", value: Any = _MISSING,
    target_version: int | None = None, base_version: int | None = None, reason: str = "",
    effective_at: datetime | None = None, schema: dict | None = None, required_approvals: int | None = None,
    proposer_user=None, proposer_api_key: ApiKey | None = None, system_job: str | None = None,
) -> ChangeRequest:
    """Open a pending request to create, update, retire or roll back one key (global or one user's).

    The request records the version it was based on; it can only ever be applied on top of it.
    """
    origin, actor, label = _proposer(tenant=tenant, proposer_user=proposer_user,
                                     proposer_api_key=proposer_api_key, system_job=system_job)
    validate_key(key)
    validate_user_id(user_id)
    if action not in ChangeAction.values:
        raise InvalidInput(_("Unknown action."), code="invalid_action", details={"allowed": ChangeAction.values})
    if len(reason or "") > REASON_MAX_LENGTH:
        raise InvalidInput(_("The reason is too long."), code="reason_too_long")
    entry = PermanentEntry.objects.select_for_update().filter(tenant=tenant, key=key, user_id=user_id).first()
    current = entry.current_version if entry else 0
    if base_version is not None and base_version != current:
        raise Conflict(_("The entry has moved to version %(current)d since version %(base)d; re-propose on top of it.")
                       % {"current": current, "base": base_version},
                       code="base_version_moved", details={"current_version": current, "base_version": base_version})
    if action != ChangeAction.CREATE and entry is None:
        # A 400 that says what to send: a bare 404 reads as a wrong URL, while the client only
        # left out `action` (it defaults to update) when proposing a key that does not exist yet.
        raise InvalidInput(_("No permanent entry has the key %(key)s yet: to propose a new key, send "
                             "\"action\": \"create\" (with a value).") % {"key": key},
                           code="entry_not_found_use_create",
                           details={"key": key, "action": action, "expected_action": ChangeAction.CREATE})
    if action != ChangeAction.CREATE and (schema is not None or required_approvals is not None):
        raise InvalidInput(_("A schema and the required approvals are set when an entry is created."),
                           code="create_only_fields")

    proposed_value = None
    if action == ChangeAction.CREATE:
        if entry is not None:
            raise Conflict(_("This key already exists; propose an update instead."), code="entry_exists")
        if value is _MISSING:
            raise InvalidInput(_("A value is required."), code="value_required")
        validate_schema(schema)
        if required_approvals is not None and not 1 <= required_approvals <= MAX_REQUIRED_APPROVALS:
            raise InvalidInput(_("required_approvals must be between 1 and %(max)d.") % {"max": MAX_REQUIRED_APPROVALS},
                               code="invalid_required_approvals")
        proposed_value = value
    elif action == ChangeAction.UPDATE:
        if value is _MISSING:
            raise InvalidInput(_("A value is required."), code="value_required")
        if entry.status == EntryStatus.ACTIVE and entry.value == value:
            raise InvalidInput(_("The proposed value equals the current one."), code="no_change")
        proposed_value = value
    elif action == ChangeAction.RETIRE:
        if value is not _MISSING and value is not None:
            raise InvalidInput(_("Retiring takes no value."), code="unexpected_value")
        if entry.status == EntryStatus.RETIRED:
            raise Conflict(_("This entry is already retired."), code="already_retired")
    elif action == ChangeAction.ROLLBACK:
        version = PermanentVersion.objects.filter(entry=entry, number=target_version or 0).first()
        if version is None or version.number >= current:
            raise InvalidInput(_("Roll back to an earlier version of this entry."), code="invalid_target_version",
                               details={"current_version": current})
        if version.action == VersionAction.RETIRE:
            raise InvalidInput(_("That version retired the entry; propose a retire instead."),
                               code="invalid_target_version")
        if entry.status == EntryStatus.ACTIVE and version.value_hash == entry.value_hash:
            raise InvalidInput(_("Version %(number)d holds the current value; rolling back to it changes nothing.")
                               % {"number": version.number}, code="no_change")
        proposed_value = version.value
    if action != ChangeAction.ROLLBACK:
        target_version = None
    if action in (ChangeAction.CREATE, ChangeAction.UPDATE, ChangeAction.ROLLBACK):
        validate_value_size(proposed_value)
        validate_against_schema(proposed_value, schema if action == ChangeAction.CREATE else entry.schema)

    change_request = ChangeRequest(
        tenant=tenant, entry=entry, key=key, user_id=user_id, action=action, proposed_value=proposed_value,
        target_version=target_version, proposed_schema=schema if action == ChangeAction.CREATE else None,
        proposed_required_approvals=required_approvals if action == ChangeAction.CREATE else None,
        reason=reason or "", base_version=current, origin=origin, proposer_label=label[:200],
        proposer_user=proposer_user, proposer_api_key=proposer_api_key, proposer_system=system_job or "",
        effective_at=effective_at,
    )
    change_request.payload_hash = payload_hash(
        tenant_id=tenant.id, key=key, user_id=user_id, action=action, value=proposed_value,
        target_version=target_version, base_version=current, schema=change_request.proposed_schema,
        required_approvals=change_request.proposed_required_approvals,
    )
    if ChangeRequest.objects.filter(tenant=tenant, key=key, user_id=user_id, state=ChangeState.PENDING).exists():
        raise Conflict(_("A change request for this key is already pending."), code="pending_request_exists")
    try:
        with transaction.atomic():
            change_request.save()
    except IntegrityError:
        raise Conflict(_("A change request for this key is already pending."), code="pending_request_exists")
    after = {"origin": origin, "base_version": current, "target_version": target_version,
             "effective_at": effective_at.isoformat() if effective_at else None}
    if action != ChangeAction.RETIRE:
        after["value"] = describe_value(tenant_id=tenant.id, user_id=user_id, value=proposed_value)
    audit_change_request(change_request, actor=actor, event=CHANGE_PROPOSED, after=after)
    return change_request


def change_request_propose_rollback(*, entry: PermanentEntry, target_version: int, reason: str = "",
                                    proposer_user=None, proposer_api_key: ApiKey | None = None) -> ChangeRequest:
    """Roll back = a new request whose value is version N's; once applied it is a new version."""
    return change_request_propose(
        tenant=entry.tenant, key=entry.key, user_id=entry.user_id, action=ChangeAction.ROLLBACK,
        target_version=target_version, base_version=entry.current_version, reason=reason,
        proposer_user=proposer_user, proposer_api_key=proposer_api_key,
    )


def change_request_propose_retire(*, entry: PermanentEntry, reason: str = "", proposer_user=None,
                                  proposer_api_key: ApiKey | None = None) -> ChangeRequest:
    return change_request_propose(
        tenant=entry.tenant, key=entry.key, user_id=entry.user_id, action=ChangeAction.RETIRE,
        base_version=entry.current_version, reason=reason, proposer_user=proposer_user,
        proposer_api_key=proposer_api_key,
    )


def _lock(change_request_id: int) -> ChangeRequest:
    change_request = (ChangeRequest.objects.select_for_update(of=("self",))
                      .select_related("proposer_api_key", "entry").filter(pk=change_request_id).first())
    if change_request is None:
        raise NotFound(_("No such change request."), code="change_request_not_found")
    return change_request


@transaction.atomic
def change_request_withdraw(*, change_request: ChangeRequest, user=None, api_key: ApiKey | None = None,
                            comment: str = "") -> ChangeRequest:
    """The proposer takes back a request that has not been applied yet."""
    locked = _lock(change_request.pk)
    is_proposer = (user is not None and locked.proposer_user_id == user.pk) or \
                  (api_key is not None and locked.proposer_api_key_id == api_key.pk)
    if not is_proposer:
        raise Forbidden(_("Only the proposer can withdraw a change request."), code="not_the_proposer")
    before = {"state": locked.state}
    transition(locked, ChangeState.WITHDRAWN)
    locked.decided_at = timezone.now()
    locked.state_note = (comment or "")[:500]
    locked.save()
    actor = Actor.for_user(user) if user is not None else Actor.for_api_key(api_key)
    audit_change_request(locked, actor=actor, event=CHANGE_WITHDRAWN, before=before)
    return locked


def change_request_schedule(*, change_request: ChangeRequest, effective_at: datetime | None, user) -> ChangeRequest:
    """Set or clear when an open request takes effect (the proposer or a reviewer may). An approved
    request whose time has come is applied at once."""
    from permanent.services.applying import apply_locked, raise_if_superseded

    with transaction.atomic():
        locked = _lock(change_request.pk)
        refusal = ChangeRequestPolicy(user).schedule_refusal(locked)
        if refusal is not None:
            raise Forbidden(str(refusal.message), code=refusal.code)
        if locked.state not in (ChangeState.PENDING, ChangeState.APPROVED):
            raise Conflict(_("Only an open request can be scheduled."), code="illegal_transition")
        before = {"effective_at": locked.effective_at.isoformat() if locked.effective_at else None}
        locked.effective_at = effective_at
        locked.save()
        audit_change_request(locked, actor=Actor.for_user(user), event=CHANGE_SCHEDULED, before=before,
                             after={"effective_at": effective_at.isoformat() if effective_at else None})
        outcome = None
        if locked.state == ChangeState.APPROVED and (effective_at is None or effective_at <= timezone.now()):
            outcome = apply_locked(locked, actor=Actor.for_user(user))
    raise_if_superseded(locked, outcome)
    return locked
