"""The sealed chain head: a deleted tail, a forged or deleted head is found by verification, even when
the deletion bypassed the append-only trigger as a database superuser would."""
from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.core.management import CommandError, call_command
from django.db import connection

from audit.models import AuditEvent, AuditHead
from audit.selectors import audit_chain_status, audit_chain_verify
from audit.services import audit_record, head_seal
from memoryhub.core.actors import Actor
from tests.support.audit_events import TEST_HAPPENED

pytestmark = pytest.mark.django_db


def _record(tenant_id, n=1):
    return [audit_record(tenant_id=tenant_id, actor=Actor.system("test"), event=TEST_HAPPENED, object_id=i,
                         after={"i": i}) for i in range(n)]


def _as_superuser(sql, params=(), *, how="replica"):
    """What someone with the database's superuser can do: skip the trigger, then write."""
    with connection.cursor() as cursor:
        if how == "replica":
            cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute(sql, params)
            cursor.execute("SET LOCAL session_replication_role = origin")
        else:
            cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only")
            cursor.execute(sql, params)
            cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only")


def test_every_append_moves_the_sealed_head(tenant, other_tenant):
    events = _record(tenant.id, 3)
    _record(other_tenant.id, 1)
    head = AuditHead.objects.get(tenant_id=tenant.id)
    assert (head.event_count, head.last_hash) == (3, events[-1].hash)
    assert head.mac == head_seal(tenant.id, 3, events[-1].hash)
    assert AuditHead.objects.get(tenant_id=other_tenant.id).event_count == 1
    report = audit_chain_verify()
    assert report.ok and report.events_checked == 4


def test_a_head_rolls_back_with_its_event(tenant):
    from django.db import transaction

    _record(tenant.id, 2)
    with pytest.raises(RuntimeError), transaction.atomic():
        _record(tenant.id)
        raise RuntimeError("the change failed")
    assert AuditHead.objects.get(tenant_id=tenant.id).event_count == 2
    assert audit_chain_verify(tenant_id=tenant.id).ok


@pytest.mark.parametrize("how", ["replica", "disable_trigger"])
@pytest.mark.parametrize("deleted", [1, 2])
def test_a_deleted_tail_is_found(tenant, other_tenant, how, deleted):
    events = _record(tenant.id, 4)
    _record(other_tenant.id, 2)
    _as_superuser("DELETE FROM audit_auditevent WHERE tenant_id = %s AND seq > %s", [tenant.id, 4 - deleted], how=how)
    assert AuditEvent.objects.filter(tenant_id=tenant.id).count() == 4 - deleted, "the tail is gone"

    report = audit_chain_verify(tenant_id=tenant.id)
    assert not report.ok
    assert report.first_break.tenant_id == tenant.id and report.first_break.seq == 4 - deleted
    assert "newest events were deleted" in report.first_break.reason and "4 events" in report.first_break.reason
    assert not audit_chain_verify().ok
    assert audit_chain_verify(tenant_id=other_tenant.id).ok, "the other tenant's chain is sound"
    with pytest.raises(CommandError, match="newest events were deleted"):
        call_command("verify_audit", "--tenant", tenant.slug)
    assert events  # (the events existed)


def test_a_deleted_tail_stays_found_after_the_next_append(tenant):
    _record(tenant.id, 3)
    _as_superuser("DELETE FROM audit_auditevent WHERE tenant_id = %s AND seq = 3", [tenant.id])
    later = _record(tenant.id)[0]
    # The next event continues after the sealed head, not after what the table still holds.
    assert later.seq == 4
    report = audit_chain_verify(tenant_id=tenant.id)
    assert not report.ok and report.first_break.seq == 4 and "expected sequence 3" in report.first_break.reason


def test_every_event_deleted_is_found(tenant):
    _record(tenant.id, 2)
    _as_superuser("DELETE FROM audit_auditevent WHERE tenant_id = %s", [tenant.id])
    report = audit_chain_verify()
    assert not report.ok and report.first_break.tenant_id == tenant.id
    assert "newest events were deleted" in report.first_break.reason
    assert not audit_chain_verify(tenant_id=tenant.id).ok


def test_a_forged_head_is_found_and_never_resealed(tenant):
    events = _record(tenant.id, 3)
    _as_superuser("DELETE FROM audit_auditevent WHERE tenant_id = %s AND seq = 3", [tenant.id])
    # The head rewritten to agree with the shortened chain, without the key: the seal cannot follow.
    for mac in ("0" * 64, AuditHead.objects.get(tenant_id=tenant.id).mac):
        AuditHead.objects.filter(tenant_id=tenant.id).update(event_count=2, last_hash=events[1].hash, mac=mac)
        report = audit_chain_verify(tenant_id=tenant.id)
        assert not report.ok and "head record does not verify" in report.first_break.reason
    # Appends go on (chained to the table) but do not seal the forged head: the evidence stays.
    _record(tenant.id, 2)
    assert AuditHead.objects.get(tenant_id=tenant.id).event_count == 2
    report = audit_chain_verify(tenant_id=tenant.id)
    assert not report.ok and "head record does not verify" in report.first_break.reason


def test_a_head_sealed_with_another_key_is_found(tenant, settings):
    _record(tenant.id, 2)
    settings.AUDIT_HEAD_KEY = "a-different-deployment-key"
    report = audit_chain_verify(tenant_id=tenant.id)
    assert not report.ok and "does not verify" in report.first_break.reason


def test_a_rotated_key_verifies_while_the_old_one_is_listed(tenant, settings):
    old_key = settings.AUDIT_HEAD_KEY
    _record(tenant.id, 2)
    settings.AUDIT_HEAD_KEY, settings.AUDIT_HEAD_PREVIOUS_KEYS = "the-new-key-after-rotation", [old_key]
    assert audit_chain_verify(tenant_id=tenant.id).ok
    last = _record(tenant.id)[0]
    head = AuditHead.objects.get(tenant_id=tenant.id)
    assert head.mac == head_seal(tenant.id, 3, last.hash, "the-new-key-after-rotation"), "resealed with the new key"
    settings.AUDIT_HEAD_PREVIOUS_KEYS = []
    assert audit_chain_verify(tenant_id=tenant.id).ok


def test_a_deleted_head_is_found_and_not_recreated(tenant):
    _record(tenant.id, 2)
    AuditHead.objects.filter(tenant_id=tenant.id).delete()
    report = audit_chain_verify(tenant_id=tenant.id)
    assert not report.ok and "no head record" in report.first_break.reason
    _record(tenant.id)
    assert not AuditHead.objects.filter(tenant_id=tenant.id).exists()
    assert not audit_chain_verify(tenant_id=tenant.id).ok


def test_events_added_past_the_head_are_found(tenant):
    events = _record(tenant.id, 2)
    AuditHead.objects.filter(tenant_id=tenant.id).update(
        event_count=1, last_hash=events[0].hash, mac=head_seal(tenant.id, 1, events[0].hash))
    report = audit_chain_verify(tenant_id=tenant.id)
    assert not report.ok and "past the head" in report.first_break.reason
    later = _record(tenant.id)[0]
    assert later.seq == 3, "the append follows the table, so nothing collides"
    assert not audit_chain_verify(tenant_id=tenant.id).ok


def test_the_console_status_sees_a_deleted_head_at_once(tenant):
    _record(tenant.id, 2)
    assert audit_chain_status(tenant_id=tenant.id).ok
    AuditHead.objects.filter(tenant_id=tenant.id).delete()
    assert not audit_chain_status(tenant_id=tenant.id).ok, "the cached status is keyed on the head too"
    assert not audit_chain_status().ok


def test_the_console_status_sees_a_deleted_tail_at_once(tenant):
    _record(tenant.id, 3)
    assert audit_chain_status(tenant_id=tenant.id).ok
    _as_superuser("DELETE FROM audit_auditevent WHERE tenant_id = %s AND seq = 3", [tenant.id])
    report = audit_chain_status(tenant_id=tenant.id)
    assert not report.ok and "newest events were deleted" in report.first_break.reason


def test_the_migration_seals_chains_that_existed_before_it(tenant, other_tenant):
    events = _record(tenant.id, 3)
    _record(other_tenant.id, 1)
    AuditHead.objects.all().delete()
    migration = importlib.import_module("audit.migrations.0003_audit_head")
    migration.seal_existing_heads(django_apps, None)
    head = AuditHead.objects.get(tenant_id=tenant.id)
    assert (head.event_count, head.last_hash) == (3, events[-1].hash)
    assert audit_chain_verify().ok
