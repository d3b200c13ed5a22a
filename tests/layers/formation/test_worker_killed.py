"""A worker killed with SIGKILL in the middle of an extraction or a summarisation leaves nothing
half-written; the message is redelivered (late acks, short visibility timeout) and a new worker
completes it exactly once."""
from __future__ import annotations

import os

import pytest
from django.db import connection

from layers.formation.models import FormationRun, FormationState
from layers.formation.services.runs import LOCK_CLASS
from layers.long_term.models import Memory
from layers.short_term.models import SessionSummary
from tests.support.fault_pause import PAUSE_ENV
from tests.support.processes import kill_group, start_worker, stop_worker, wait_for
from tests.support.formation import extracted_memories

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

TURNS = [
    ("user", "I'm allergic to peanuts."),
    ("user", "I live in Beijing."),
    ("user", "I love jazz and I hate olives."),
    ("user", "My name is Alice Chen."),
    ("user", "Actually I moved to Shanghai."),
]
FILLER = [("user", "What's the weather like?"), ("assistant", "Sunny, around twenty degrees.")]


def _lock_holders(job: str, session_pk: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s "
                       "AND objsubid = 2 AND granted", [LOCK_CLASS[job], session_pk])
        return cursor.fetchone()[0]


@pytest.fixture
def own_queue():
    from memoryhub.celery import app as celery_app

    previous = celery_app.conf.task_default_queue
    yield f"mh-kill-{os.getpid()}"
    celery_app.conf.task_default_queue = previous


def _kill_mid(job: str, queue: str, tmp_path, converse):
    """Start a worker that pauses `job` before commit, converse, wait until the job holds the session
    lock with its writes done, SIGKILL the worker and everything it forked; returns the session."""
    pause = tmp_path / "pause"
    pause.write_text(job)
    doomed = start_worker(queue, name=f"doomed-{job}", log_path=tmp_path / "doomed.log",
                          extra_env={PAUSE_ENV: str(pause)}, app="tests.support.pausing_worker")
    try:
        session = converse()
        wait_for(lambda: (tmp_path / "pause.reached").exists() and _lock_holders(job, session.pk) == 1,
                 timeout=60, message=f"the worker to hold the session's {job} lock mid-run")
        kill_group(doomed)
    finally:
        stop_worker(doomed)
    wait_for(lambda: _lock_holders(job, session.pk) == 0, timeout=30, message="PostgreSQL to roll the run back")
    pause.unlink()
    return session


def _rescue(queue: str, tmp_path, predicate, message: str):
    rescuer = start_worker(queue, name="rescuer", log_path=tmp_path / "rescuer.log")
    try:
        return wait_for(predicate, timeout=90, message=message)
    finally:
        stop_worker(rescuer)


def test_sigkill_mid_extraction_then_a_new_worker_completes_it_once(talk, own_queue, tmp_path):
    session = _kill_mid("extract", own_queue, tmp_path, lambda: talk("kill", "alice", TURNS, end=True))
    assert not Memory.objects.exists() and not FormationRun.objects.exists(), "nothing half-written"
    assert FormationState.objects.get(session=session).last_extracted_seq == 0

    run = _rescue(own_queue, tmp_path, lambda: FormationRun.objects.filter(session=session).first(),
                  "the redelivered extraction to complete")
    assert (run.turn_from, run.turn_to) == (1, 5) and FormationRun.objects.count() == 1
    assert FormationState.objects.get(session=session).last_extracted_seq == 5
    keys = sorted(extracted_memories().values_list("memory_key", flat=True))
    assert keys == ["user.allergies", "user.dislikes", "user.home_city", "user.home_city", "user.likes", "user.name"]
    assert all(memory.mention_count == 1 for memory in Memory.objects.all()), "exactly one copy of each"
    assert Memory.objects.get(memory_key="user.home_city", status="active").content == "User lives in Shanghai."


def test_sigkill_mid_summarisation_then_a_new_worker_completes_it_once(talk, own_queue, tmp_path):
    # 20 turns: a summary is due (and an extraction, which may run before or after; it is not paused).
    turns = [("user", "I'm allergic to peanuts."), ("assistant", "Noted.")] + FILLER * 9
    session = _kill_mid("summarise", own_queue, tmp_path, lambda: talk("kill-sum", "alice", turns))
    assert not SessionSummary.objects.exists() and not extracted_memories().filter(kind="episode").exists()
    assert not FormationRun.objects.filter(job="summarise").exists()
    assert FormationState.objects.get(session=session).last_summarised_seq == 0

    _rescue(own_queue, tmp_path, lambda: FormationRun.objects.filter(session=session, job="summarise").exists()
            and FormationRun.objects.filter(session=session, job="extract").exists(),
            "the redelivered summarisation (and the extraction) to complete")
    (summary,) = SessionSummary.objects.filter(session=session)
    assert (summary.version, summary.covers_up_to) == (1, 5)
    (episode,) = extracted_memories().filter(kind="episode")
    assert (episode.source_turn_from, episode.source_turn_to, episode.mention_count) == (1, 5, 1)
    assert FormationRun.objects.filter(session=session, job="summarise").count() == 1
    assert Memory.objects.filter(memory_key="user.allergies").count() == 1
