"""Every workflow rule, through the services."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from audit.models import AuditEvent
from audit.selectors import audit_chain_verify
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, Forbidden, InvalidInput
from memoryhub.tenancy.models import Membership
from memoryhub.tenancy.services import api_key_create
from permanent.models import (
    ChangeRequest,
    ChangeState,
    EntryStatus,
    PermanentEntry,
    PermanentVersion,
)
from permanent.selectors import (
    permanent_entry_read,
    permanent_global_values,
    permanent_system_rules,
)
from permanent.services import (
    change_request_apply,
    change_request_approve,
    change_request_propose,
    change_request_propose_retire,
    change_request_propose_rollback,
    change_request_reject,
    change_request_schedule,
    change_request_withdraw,
    change_requests_apply_due,
)
from tests.support.permanent import approve, propose

pytestmark = pytest.mark.django_db


def actions(tenant):
    return list(AuditEvent.objects.filter(tenant_id=tenant.id).values_list("action", flat=True))


def test_propose_and_approve_applies_version_one_with_audit(tenant, editor, reviewer):
    cr = propose(tenant, editor)
    assert cr.state == ChangeState.PENDING and cr.base_version == 0 and cr.origin == "staff"
    cr = approve(cr, reviewer, comment="ok")
    assert cr.state == ChangeState.APPLIED and cr.applied_version == 1
    entry = PermanentEntry.objects.get(tenant=tenant, key="safety.max_refunds")
    assert entry.current_version == 1 and entry.value == {"limit": 3} and entry.status == EntryStatus.ACTIVE
    version = entry.versions.get()
    assert version.proposed_by == "editor" and version.approved_by == ["reviewer"]
    assert ["permanent.change.proposed", "permanent.change.approval_recorded", "permanent.change.approved",
            "permanent.change.applied", "permanent.entry.create"] == [a for a in actions(tenant) if a.startswith("permanent")]
    assert permanent_global_values(tenant_id=tenant.id, prefix="safety.") == {"safety.max_refunds": {"limit": 3}}
    assert permanent_system_rules(tenant_id=tenant.id) == [{"key": "safety.max_refunds", "version": 1,
                                                            "value": {"limit": 3}}]
    assert audit_chain_verify(tenant_id=tenant.id).ok
    assert entry.history.count() == 1 and cr.history.count() >= 2


def test_proposer_can_never_approve_even_as_superuser(tenant, make_staff):
    boss = make_staff(superuser=True, username="boss")
    cr = propose(tenant, boss)
    with pytest.raises(Forbidden) as err:
        approve(cr, boss)
    assert err.value.code == "self_review"
    cr.refresh_from_db()
    assert cr.state == ChangeState.PENDING and not cr.approvals.exists()
    with pytest.raises(Forbidden):
        change_request_reject(change_request=cr, reviewer=boss, payload_hash=cr.payload_hash)


def test_reviewer_who_proposed_cannot_approve_but_another_can(tenant, reviewer, reviewer2):
    cr = propose(tenant, reviewer)
    with pytest.raises(Forbidden):
        approve(cr, reviewer)
    assert approve(cr, reviewer2).state == ChangeState.APPLIED


def test_creator_of_proposing_api_key_cannot_approve(tenant, reviewer, reviewer2):
    issued = api_key_create(tenant=tenant, name="agent", scopes=["propose"], actor=Actor.system("t"),
                            created_by=reviewer)
    cr = change_request_propose(tenant=tenant, key="rules.tone", action="create", value="friendly",
                                proposer_api_key=issued.api_key)
    assert cr.origin == "agent"
    with pytest.raises(Forbidden) as err:
        approve(cr, reviewer)
    assert err.value.code == "self_review"
    assert approve(cr, reviewer2).state == ChangeState.APPLIED


def test_only_reviewers_of_the_tenant_decide(tenant, other_tenant, editor, make_staff):
    cr = propose(tenant, editor)
    with pytest.raises(Forbidden):
        approve(cr, editor)
    outsider = make_staff(other_tenant, "reviewer", username="outsider")
    with pytest.raises(Forbidden) as err:
        approve(cr, outsider)
    assert err.value.code == "not_a_reviewer"
    with pytest.raises(Forbidden):
        propose(other_tenant, editor, key="rules.x")


def test_api_key_without_propose_scope_is_refused(tenant):
    issued = api_key_create(tenant=tenant, name="reader", scopes=["read", "write"], actor=Actor.system("t"))
    with pytest.raises(Forbidden):
        change_request_propose(tenant=tenant, key="rules.x", action="create", value=1, proposer_api_key=issued.api_key)


def test_approval_is_bound_to_the_payload_hash(tenant, editor, reviewer):
    cr = propose(tenant, editor)
    with pytest.raises(Conflict) as err:
        change_request_approve(change_request=cr, reviewer=reviewer, payload_hash="0" * 64)
    assert err.value.code == "payload_mismatch"
    # A payload altered behind the workflow's back no longer matches its hash: refused.
    ChangeRequest.objects.filter(pk=cr.pk).update(proposed_value={"limit": 999})
    with pytest.raises(Conflict) as err:
        approve(cr, reviewer)
    assert err.value.code == "payload_mismatch"
    assert not PermanentEntry.objects.filter(tenant=tenant).exists()


def test_stale_base_version_is_refused_at_proposal(tenant, editor, reviewer):
    approve(propose(tenant, editor), reviewer)
    with pytest.raises(Conflict) as err:
        propose(tenant, editor, action="update", value={"limit": 4}, base_version=0)
    assert err.value.code == "base_version_moved" and err.value.details["current_version"] == 1


def test_request_whose_base_moved_cannot_be_applied(tenant, editor, reviewer):
    approve(propose(tenant, editor), reviewer)
    later = timezone.now() + timedelta(hours=1)
    scheduled = approve(propose(tenant, editor, action="update", value={"limit": 5}, effective_at=later), reviewer)
    assert scheduled.state == ChangeState.APPROVED
    # Another change lands first; the scheduled one was approved against version 1.
    approve(propose(tenant, editor, action="update", value={"limit": 6}), reviewer)
    ChangeRequest.objects.filter(pk=scheduled.pk).update(effective_at=timezone.now() - timedelta(seconds=1))
    scheduled.refresh_from_db()
    with pytest.raises(Conflict) as err:
        change_request_apply(change_request=scheduled, actor=Actor.system("t"))
    assert err.value.code == "base_version_moved"
    scheduled.refresh_from_db()
    assert scheduled.state == ChangeState.SUPERSEDED
    entry = PermanentEntry.objects.get(tenant=tenant)
    assert entry.current_version == 2 and entry.value == {"limit": 6}


def test_two_approval_keys_need_two_different_reviewers(tenant, editor, reviewer, reviewer2):
    cr = propose(tenant, editor, required_approvals=2)
    cr = approve(cr, reviewer)
    assert cr.state == ChangeState.PENDING
    with pytest.raises(Conflict) as err:
        approve(cr, reviewer)
    assert err.value.code == "already_reviewed"
    assert approve(cr, reviewer2).state == ChangeState.APPLIED
    entry = PermanentEntry.objects.get(tenant=tenant)
    assert entry.required_approvals == 2 and entry.versions.get().approved_by == ["reviewer", "reviewer2"]
    # Later changes of that key need two approvals as well.
    update = approve(propose(tenant, editor, action="update", value={"limit": 9}), reviewer)
    assert update.state == ChangeState.PENDING


def test_values_must_match_the_entry_schema(tenant, editor, reviewer):
    schema = {"type": "object", "properties": {"limit": {"type": "integer", "maximum": 10}},
              "required": ["limit"], "additionalProperties": False}
    with pytest.raises(InvalidInput) as err:
        propose(tenant, editor, value={"limit": "three"}, schema=schema)
    assert err.value.code == "schema_violation" and err.value.details["path"] == "limit"
    approve(propose(tenant, editor, value={"limit": 3}, schema=schema), reviewer)
    with pytest.raises(InvalidInput):
        propose(tenant, editor, action="update", value={"limit": 11})
    with pytest.raises(InvalidInput) as err:
        propose(tenant, editor, key="rules.bad", value=1, schema={"type": "no-such-type"})
    assert err.value.code == "invalid_schema"
    assert ChangeRequest.objects.filter(tenant=tenant).count() == 1


def test_rollback_is_a_new_request_and_a_new_version(tenant, editor, reviewer, reviewer2):
    approve(propose(tenant, editor, value={"limit": 1}), reviewer)
    approve(propose(tenant, editor, action="update", value={"limit": 2}), reviewer)
    entry = PermanentEntry.objects.get(tenant=tenant)
    rollback = change_request_propose_rollback(entry=entry, target_version=1, proposer_user=reviewer)
    assert rollback.action == "rollback" and rollback.proposed_value == {"limit": 1}
    with pytest.raises(Forbidden):
        approve(rollback, reviewer)
    approve(rollback, reviewer2)
    entry.refresh_from_db()
    assert entry.current_version == 3 and entry.value == {"limit": 1}
    assert [(v.number, v.value, v.action) for v in entry.versions.order_by("number")] == [
        (1, {"limit": 1}, "create"), (2, {"limit": 2}, "update"), (3, {"limit": 1}, "rollback")]
    assert entry.versions.get(number=3).rolled_back_to == 1
    with pytest.raises(InvalidInput):
        change_request_propose_rollback(entry=entry, target_version=3, proposer_user=editor)


def test_one_pending_request_per_key(tenant, editor, reviewer):
    cr = propose(tenant, editor)
    with pytest.raises(Conflict) as err:
        propose(tenant, reviewer)
    assert err.value.code == "pending_request_exists"
    # The database holds the line even if the service check is skipped.
    duplicate = ChangeRequest(tenant=tenant, key=cr.key, user_id="", action="create", base_version=0,
                              payload_hash="x", origin="staff", proposer_label="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        duplicate.save()
    # A user-scoped request for the same key is a different scope.
    assert propose(tenant, editor, user_id="u-1").state == ChangeState.PENDING


def test_reject_withdraw_and_illegal_transitions(tenant, editor, reviewer, reviewer2):
    cr = propose(tenant, editor)
    with pytest.raises(Forbidden):
        change_request_withdraw(change_request=cr, user=reviewer)
    change_request_reject(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash, comment="no")
    cr.refresh_from_db()
    assert cr.state == ChangeState.REJECTED and cr.approvals.get().comment == "no"
    with pytest.raises(Conflict) as err:
        approve(cr, reviewer2)
    assert err.value.code == "illegal_transition"
    with pytest.raises(Conflict):
        change_request_withdraw(change_request=cr, user=editor)
    second = propose(tenant, editor)
    change_request_withdraw(change_request=second, user=editor)
    second.refresh_from_db()
    assert second.state == ChangeState.WITHDRAWN
    assert "permanent.change.withdrawn" in actions(tenant) and "permanent.change.rejected" in actions(tenant)


def test_retire_hides_the_entry_and_update_revives_it(tenant, editor, reviewer):
    approve(propose(tenant, editor), reviewer)
    entry = PermanentEntry.objects.get(tenant=tenant)
    approve(change_request_propose_retire(entry=entry, proposer_user=editor), reviewer)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.RETIRED and entry.current_version == 2
    assert permanent_entry_read(tenant_id=tenant.id, key=entry.key) is None
    with pytest.raises(Conflict):
        change_request_propose_retire(entry=entry, proposer_user=editor)
    approve(propose(tenant, editor, action="update", value={"limit": 7}), reviewer)
    assert permanent_entry_read(tenant_id=tenant.id, key=entry.key)["value"] == {"limit": 7}


def test_schedule_then_beat_applies_due(tenant, editor, reviewer):
    cr = propose(tenant, editor, effective_at=timezone.now() + timedelta(days=1))
    cr = approve(cr, reviewer)
    assert cr.state == ChangeState.APPROVED
    assert change_requests_apply_due() == {"applied": 0, "superseded": 0}
    change_request_schedule(change_request=cr, effective_at=timezone.now() - timedelta(seconds=1), user=reviewer)
    cr.refresh_from_db()
    assert cr.state == ChangeState.APPLIED
    assert change_requests_apply_due() == {"applied": 0, "superseded": 0}


def test_versions_are_immutable_in_the_database(tenant, editor, reviewer):
    approve(propose(tenant, editor), reviewer)
    version = PermanentVersion.objects.get()
    with pytest.raises(ValueError):
        version.save()
    with pytest.raises(Exception) as err, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE permanent_permanentversion SET value = '1'::jsonb WHERE id = %s", [version.pk])
    assert "immutable" in str(err.value)


def test_unknown_entry_and_bad_keys(tenant, editor):
    with pytest.raises(InvalidInput) as unknown:  # a 400 that says to send action create (issue 13, item 11)
        propose(tenant, editor, key="rules.none", action="update", value=1)
    assert unknown.value.code == "entry_not_found_use_create"
    with pytest.raises(InvalidInput):
        propose(tenant, editor, key="bad key!")
    with pytest.raises(InvalidInput):
        propose(tenant, editor, key="rules.x", action="create", value=None, required_approvals=7)
    assert Membership.objects.filter(user=editor).count() == 1


def test_extraction_origin_proposals_go_through_review(tenant, reviewer):
    cr = change_request_propose(tenant=tenant, key="profile.language", action="create", user_id="u-7", value="zh",
                                system_job="formation.extract")
    assert cr.origin == "extraction" and cr.proposer_label == "formation.extract"
    assert permanent_entry_read(tenant_id=tenant.id, key="profile.language", user_id="u-7") is None
    approve(cr, reviewer)
    assert permanent_entry_read(tenant_id=tenant.id, key="profile.language", user_id="u-7")["value"] == "zh"
    events = AuditEvent.objects.filter(tenant_id=tenant.id, object_type="permanent_change_request")
    assert events.first().actor_kind == "system" and all("u-7" not in str(e.after) for e in events)
