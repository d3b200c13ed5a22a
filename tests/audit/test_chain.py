"""The audit trail: append-only at the database, hash-chained per tenant, verification finds breaks."""
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from audit.models import AuditEvent, SubjectKey
from audit.selectors import audit_chain_verify
from audit.services import GENESIS_HASH, audit_record
from audit.subjects import subject_digest, subject_key_destroy, subject_pseudonym
from memoryhub.core.actors import Actor
from tests.support.audit_events import TEST_HAPPENED

pytestmark = pytest.mark.django_db


def _record(tenant_id, n=1, **extra):
    return [audit_record(tenant_id=tenant_id, actor=Actor.system("test"), event=TEST_HAPPENED, object_id=i, after={"i": i}, **extra) for i in range(n)]


def test_chain_links_per_tenant(tenant, other_tenant):
    first, second = _record(tenant.id, 2)
    other = _record(other_tenant.id)[0]
    assert first.prev_hash == GENESIS_HASH and second.prev_hash == first.hash
    assert other.prev_hash == GENESIS_HASH and other.seq == 1
    assert audit_chain_verify().ok


def test_update_and_delete_are_refused_by_the_database(tenant):
    event = _record(tenant.id)[0]
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            AuditEvent.objects.filter(pk=event.pk).update(action="tampered")
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            AuditEvent.objects.filter(pk=event.pk).delete()
    assert AuditEvent.objects.get(pk=event.pk).action == "test.happened"


def _tamper(sql, params):
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only")
        cursor.execute(sql, params)
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only")


def test_verification_names_the_altered_event(tenant):
    events = _record(tenant.id, 4)
    _tamper("UPDATE audit_auditevent SET after = %s WHERE id = %s", ['{"i": 99}', events[2].pk])
    report = audit_chain_verify(tenant_id=tenant.id)
    assert not report.ok
    assert report.first_break.seq == events[2].seq and "altered" in report.first_break.reason
    with pytest.raises(CommandError, match=f"event #{events[2].seq}"):
        call_command("verify_audit", "--tenant", tenant.slug)


def test_verification_finds_a_deleted_event(tenant):
    events = _record(tenant.id, 3)
    _tamper("DELETE FROM audit_auditevent WHERE id = %s", [events[1].pk])
    report = audit_chain_verify(tenant_id=tenant.id)
    assert report.first_break.seq == events[2].seq


def test_verify_command_ok(tenant, capsys):
    _record(tenant.id, 3)
    call_command("verify_audit")
    assert capsys.readouterr().out.startswith("OK:")


def test_user_appears_only_as_keyed_pseudonym(tenant):
    digest = subject_digest(tenant.id, "alice", "I live in Shanghai")
    event = _record(tenant.id, subject_user_id="alice")[0]
    assert event.subject == subject_pseudonym(tenant.id, "alice")
    assert "alice" not in event.subject
    import hashlib
    assert digest != hashlib.sha256(b"I live in Shanghai").hexdigest()
    # Destroying the key makes the pseudonym unreproducible; the chain still verifies.
    subject_key_destroy(tenant_id=tenant.id, user_id="alice")
    assert not SubjectKey.objects.filter(tenant_id=tenant.id, user_id="alice").exists()
    assert subject_pseudonym(tenant.id, "alice") != event.subject
    assert audit_chain_verify().ok


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_keep_one_gapless_chain(tenant):
    errors = []

    def writer():
        try:
            for _ in range(10):
                with transaction.atomic():
                    _record(tenant.id)
        except Exception as exc:  # surfaced below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    seqs = list(AuditEvent.objects.filter(tenant_id=tenant.id).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 40
    assert audit_chain_verify(tenant_id=tenant.id).ok


def test_audit_rolls_back_with_the_change(tenant):
    before = AuditEvent.objects.count()
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            _record(tenant.id)
            raise RuntimeError("the change failed")
    assert AuditEvent.objects.count() == before


def test_chain_status_is_reused_until_an_event_is_appended(tenant):
    from audit.selectors import audit_chain_status

    events = _record(tenant.id, 2)
    assert audit_chain_status(tenant_id=tenant.id).ok
    _tamper("UPDATE audit_auditevent SET after = %s WHERE id = %s", ['{"i": 7}', events[0].pk])
    # The head did not move: the console's cached status stands (the hourly task verifies in full).
    assert audit_chain_status(tenant_id=tenant.id).ok
    assert not audit_chain_verify(tenant_id=tenant.id).ok
    _record(tenant.id)
    report = audit_chain_status(tenant_id=tenant.id)
    assert not report.ok and report.first_break.seq == events[0].seq


def test_chain_status_of_all_tenants_reports_the_first_broken_tenant(tenant, other_tenant):
    from audit.selectors import audit_chain_status

    first, second = sorted([tenant, other_tenant], key=lambda t: t.id)
    _record(first.id, 2)
    events = _record(second.id, 2)
    before = audit_chain_status()
    assert before.ok and before.tenants_checked >= 2
    _tamper("UPDATE audit_auditevent SET after = %s WHERE id = %s", ['{"i": 7}', events[0].pk])
    _record(second.id)  # moves that tenant's head, so its chain is verified again
    report = audit_chain_status()
    assert not report.ok and report.first_break.tenant_id == second.id
    assert audit_chain_status(tenant_id=first.id).ok
