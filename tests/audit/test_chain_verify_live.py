"""Verification while appends go on: an event committed between the verifier's read of the heads and
its read of the events is not a break (audit/selectors.py reads both from one snapshot).

The interleaving is made, not hoped for: a writer appends an event (moving the head, uncommitted) and
then holds an ACCESS EXCLUSIVE lock on the event table, so the verifier has read the heads and waits
at the events; the test sees that wait in pg_locks, then lets the writer commit.
"""
from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from audit.models import AuditEvent
from audit.selectors import audit_chain_verify
from audit.services import audit_record
from memoryhub.core.actors import Actor
from tests.support.audit_events import TEST_HAPPENED
from tests.support.processes import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _record(tenant_id, object_id):
    audit_record(tenant_id=tenant_id, actor=Actor.system("test"), event=TEST_HAPPENED, object_id=object_id,
                 after={"i": object_id})


def _waiting_for_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", [pid])
        return cursor.fetchone()[0] > 0


def test_an_append_committed_mid_verification_is_not_a_break(tenant):
    for index in range(3):
        _record(tenant.id, index)
    verifier_pid: list[int] = []
    reports = []
    failures: list[BaseException] = []
    writer_ready, writer_release = threading.Event(), threading.Event()

    def writer():
        try:
            with transaction.atomic():
                _record(tenant.id, "late")
                with connection.cursor() as cursor:
                    cursor.execute(f"LOCK TABLE {AuditEvent._meta.db_table} IN ACCESS EXCLUSIVE MODE")
                writer_ready.set()
                writer_release.wait(60)
        except BaseException as exc:  # surfaced by the test
            failures.append(exc)
        finally:
            writer_ready.set()
            connection.close()

    def verifier():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                verifier_pid.append(cursor.fetchone()[0])
            reports.append(audit_chain_verify(tenant_id=tenant.id))
        except BaseException as exc:  # surfaced by the test
            failures.append(exc)
        finally:
            connection.close()

    writing = threading.Thread(target=writer)
    writing.start()
    assert writer_ready.wait(60)
    verifying = threading.Thread(target=verifier)
    verifying.start()
    try:
        wait_for(lambda: bool(verifier_pid) and _waiting_for_a_lock(verifier_pid[0]), timeout=60, interval=0.05,
                 message="the verifier to wait for the event table")
    finally:
        writer_release.set()
        writing.join(60)
        verifying.join(60)
    assert failures == []
    assert reports[0].ok, reports[0].first_break
    # What it saw is the chain before the late event: one snapshot for heads and events alike.
    assert reports[0].events_checked == 3
    after = audit_chain_verify(tenant_id=tenant.id)
    assert after.ok and after.events_checked == 4
