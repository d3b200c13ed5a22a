"""Signals → outbox → worker, and the catch-up beat for sessions whose message was lost."""
from __future__ import annotations

import pytest

from layers.formation.models import FormationRun
from layers.formation.services import formation_catch_up
from layers.long_term.models import Memory
from layers.short_term.models import SessionSummary
from memoryhub.outbox.models import OutboxTask
from memoryhub.outbox.services import task_enqueue_on_commit
from tests.support.formation import formation_signals_muted
from tests.support.processes import wait_for

FILLER = [("user", "What's the weather like?"), ("assistant", "Sunny, around twenty degrees.")]


@pytest.mark.django_db
def test_receivers_record_work_in_the_outbox_with_dedupe_keys(talk):
    session = talk("wired", "alice", [("user", "I like tea.")] * 9)
    assert not OutboxTask.objects.filter(task_name="formation.extract_session").exists(), "9 turns: not due yet"
    session = talk("wired", "alice", [("user", "I like coffee.")])
    (row,) = OutboxTask.objects.filter(task_name="formation.extract_session")
    assert (row.args, row.dedupe_key) == ([session.pk], f"formation.extract:{session.pk}")
    session = talk("wired", "alice", FILLER * 5)  # 20 turns: a summary is due too
    assert OutboxTask.objects.filter(dedupe_key=f"formation.summarise:{session.pk}").count() == 1
    talk("wired", "alice", [], end=True)
    # While a request is pending, asking again adds nothing (the outbox collapses it).
    assert OutboxTask.objects.filter(dedupe_key=f"formation.extract:{session.pk}", sent_at__isnull=True).count() == 1


@pytest.mark.django_db
def test_catch_up_finds_sessions_left_behind(talk):
    with formation_signals_muted():
        ended = talk("ended", "alice", [("user", "I like tea.")], end=True)
        active_due = talk("busy", "alice", FILLER * 10)  # 20 turns: extraction and a summary due
        active_quiet = talk("quiet", "alice", [("user", "I like jazz.")])
    assert not OutboxTask.objects.exists()
    assert formation_catch_up() == {"summarise": 1, "extract": 2}
    keys = set(OutboxTask.objects.values_list("dedupe_key", flat=True))
    assert keys == {f"formation.extract:{ended.pk}", f"formation.extract:{active_due.pk}",
                    f"formation.summarise:{active_due.pk}"}
    assert f"formation.extract:{active_quiet.pk}" not in keys
    formation_catch_up()
    assert OutboxTask.objects.count() == 3, "pending requests are not duplicated"


@pytest.mark.django_db(transaction=True)
def test_worker_summarises_and_extracts_as_turns_arrive(talk, celery_worker):
    session = talk("flow", "alice", [("user", "I'm allergic to peanuts."), ("assistant", "Noted.")] + FILLER * 9)
    summary = wait_for(lambda: SessionSummary.objects.filter(session=session).first(), timeout=60,
                       message="the rolling summary")
    assert summary.covers_up_to == 5 and "peanut" in summary.content
    wait_for(lambda: Memory.objects.filter(kind="episode").exists() and FormationRun.objects.filter(
        session=session, job="extract").exists(), timeout=60, message="the episode and the extraction")
    assert Memory.objects.filter(memory_key="user.allergies").count() == 1


@pytest.mark.django_db(transaction=True)
def test_lost_message_is_recovered_by_the_catch_up_task(talk, celery_worker):
    session = talk("lost", "alice", [("user", "I live in Beijing.")], end=True)
    wait_for(lambda: FormationRun.objects.filter(session=session).exists(), timeout=60, message="first extraction")
    # Another session whose request never reached a worker (its outbox row and message are gone).
    with formation_signals_muted():
        orphan = talk("orphan", "alice", [("user", "I love jazz.")], end=True)

    task_enqueue_on_commit("formation.catch_up")
    wait_for(lambda: FormationRun.objects.filter(session=orphan).exists(), timeout=60,
             message="the catch-up to extract the orphaned session")
    assert Memory.objects.filter(memory_key="user.likes").count() == 1
    assert FormationRun.objects.filter(session=session).count() == 1, "the caught-up session is not redone"


def _retry_scheduled(session_pk: int) -> bool:
    from memoryhub.celery import app

    scheduled = app.control.inspect(timeout=1).scheduled() or {}
    return any(entry["request"]["name"] == "formation.extract_session" and entry["request"]["args"] == [session_pk]
               for entries in scheduled.values() for entry in entries)


@pytest.mark.django_db(transaction=True)
def test_a_busy_session_is_retried_by_the_task_itself(talk, celery_worker):
    from django.db import connection

    from layers.formation.services.runs import LOCK_CLASS

    with formation_signals_muted():
        session = talk("busy-retry", "alice", [("user", "I love jazz.")], end=True)
    with connection.cursor() as cursor:
        # Another run holds the session (this test's connection stands in for it).
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [LOCK_CLASS["extract"], session.pk])
        try:
            task_enqueue_on_commit("formation.extract_session", args=[session.pk])
            # The worker found the session busy and scheduled its own retry (visible as an ETA task).
            wait_for(lambda: _retry_scheduled(session.pk), timeout=30, message="the busy task to schedule a retry")
            assert not FormationRun.objects.filter(session=session).exists()
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS["extract"], session.pk])
    # No new message and no catch-up: the task that found the session busy comes back by itself.
    wait_for(lambda: FormationRun.objects.filter(session=session).exists(), timeout=60,
             message="the retried extraction")
    assert OutboxTask.objects.filter(task_name="formation.extract_session").count() == 1
