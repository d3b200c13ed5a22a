"""A worker killed with SIGKILL in the middle of an extraction leaves nothing half-written; the
message is redelivered (late acks, short visibility timeout) and a new worker completes it once."""
from __future__ import annotations

import os

import pytest
from django.db import connection

from layers.formation.models import FormationRun, FormationState
from layers.formation.services.runs import LOCK_CLASS, TEST_PAUSE_ENV
from layers.long_term.models import Memory
from tests.conftest import start_worker, stop_worker, wait_for
from tests.faults.conftest import kill_group

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = [
    ("user", "I'm allergic to peanuts."),
    ("user", "I live in Beijing."),
    ("user", "I love jazz and I hate olives."),
    ("user", "My name is Alice Chen."),
    ("user", "Actually I moved to Shanghai."),
]


def _lock_holders(session_pk: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s "
                       "AND objsubid = 2 AND granted", [LOCK_CLASS["extract"], session_pk])
        return cursor.fetchone()[0]


@pytest.fixture
def own_queue():
    from memoryhub.celery import app as celery_app

    previous = celery_app.conf.task_default_queue
    yield f"mh-kill-{os.getpid()}"
    celery_app.conf.task_default_queue = previous


def test_sigkill_mid_extraction_then_a_new_worker_completes_it_once(talk, own_queue, tmp_path):
    pause = tmp_path / "pause"
    pause.write_text("hold")
    doomed = start_worker(own_queue, name="doomed", log_path=tmp_path / "doomed.log",
                          extra_env={TEST_PAUSE_ENV: str(pause)})
    try:
        session = talk("kill", "alice", TURNS, end=True)  # session end enqueues the extraction
        # Mid-work, provably: the run wrote its memories and holds the session's lock, not yet committed.
        wait_for(lambda: (tmp_path / "pause.reached").exists() and _lock_holders(session.pk) == 1, timeout=60,
                 message="the worker to hold the session lock mid-extraction")
        assert not Memory.objects.exists(), "uncommitted work is invisible"
        kill_group(doomed)
    finally:
        stop_worker(doomed)
    wait_for(lambda: _lock_holders(session.pk) == 0, timeout=30, message="PostgreSQL to roll the killed run back")
    assert not Memory.objects.exists() and not FormationRun.objects.exists(), "nothing half-written"
    assert FormationState.objects.get(session=session).last_extracted_seq == 0

    pause.unlink()
    rescuer = start_worker(own_queue, name="rescuer", log_path=tmp_path / "rescuer.log")
    try:
        run = wait_for(lambda: FormationRun.objects.filter(session=session).first(), timeout=90,
                       message="the redelivered task to complete")
    finally:
        stop_worker(rescuer)
    assert (run.turn_from, run.turn_to) == (1, 5) and FormationRun.objects.count() == 1
    assert FormationState.objects.get(session=session).last_extracted_seq == 5
    keys = sorted(Memory.objects.values_list("memory_key", flat=True))
    assert keys == ["user.allergies", "user.dislikes", "user.home_city", "user.home_city", "user.likes", "user.name"]
    assert all(memory.mention_count == 1 for memory in Memory.objects.all()), "exactly one copy of each"
    assert Memory.objects.get(memory_key="user.home_city", status="active").content == "User lives in Shanghai."
