"""The same extraction run twice, and from two processes at once: each memory exists exactly once."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from layers.formation.models import FormationRun, FormationState
from layers.formation.services.runs import LOCK_CLASS
from layers.long_term.models import Memory
from layers.short_term.models import SessionSummary
from tests.support.fault_pause import PAUSE_ENV
from tests.support.formation import extracted_memories
from tests.support.processes import BASE_DIR, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT = """
import json, os, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
django.setup()
from tests.support.fault_pause import install_pause
install_pause()
from layers.formation.services import session_extract, session_summarise
run = session_summarise if sys.argv[2:] == ["summarise"] else session_extract
print(json.dumps(run(session_pk=int(sys.argv[1])).as_dict()))
"""

TURNS = [
    ("user", "I'm allergic to peanuts."),
    ("user", "I live in Beijing."),
    ("user", "I love jazz and I hate olives."),
    ("user", "My name is Alice Chen."),
]
EXPECTED = {"user.allergies", "user.home_city", "user.likes", "user.dislikes", "user.name"}


def _spawn(session_pk: int, job: str = "extract", **env) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(session_pk), job], cwd=BASE_DIR, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env={**os.environ, "DATABASE_NAME": connection.settings_dict["NAME"], **env})


def _result(process: subprocess.Popen) -> dict:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def _lock_held(session_pk: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s "
                       "AND objsubid = 2 AND granted", [LOCK_CLASS["extract"], session_pk])
        return cursor.fetchone()[0] == 1


def _assert_one_copy_each(session):
    keys = list(extracted_memories().filter(user_id="alice").values_list("memory_key", flat=True))
    assert sorted(keys) == sorted(EXPECTED), "each memory exactly once"
    assert all(m.mention_count == 1 for m in Memory.objects.all())
    assert FormationRun.objects.filter(session=session, job="extract").count() == 1
    assert FormationState.objects.get(session=session).last_extracted_seq == len(TURNS)


def test_second_process_waits_out_the_first_and_writes_nothing(quiet_signals, talk, tmp_path):
    session = talk("twice", "alice", TURNS, end=True)
    pause = tmp_path / "pause"
    pause.write_text("hold")
    first = _spawn(session.pk, **{PAUSE_ENV: str(pause)})
    wait_for(lambda: (tmp_path / "pause.reached").exists() and _lock_held(session.pk), timeout=60,
             message="the first run to hold the lock with its memories written")
    assert Memory.objects.count() == 0, "nothing is visible before the run commits"

    second = _result(_spawn(session.pk))
    assert second["status"] == "busy"
    pause.unlink()
    first_result = _result(first)
    assert first_result["status"] == "completed"
    assert _result(_spawn(session.pk))["status"] == "nothing_new"
    _assert_one_copy_each(session)


def test_two_processes_racing(quiet_signals, talk):
    session = talk("race", "alice", TURNS, end=True)
    processes = [_spawn(session.pk) for _ in range(2)]
    statuses = sorted(_result(process)["status"] for process in processes)
    assert statuses in (["busy", "completed"], ["completed", "nothing_new"])
    _assert_one_copy_each(session)


def test_two_processes_summarising_at_once(quiet_signals, talk):
    filler = [("user", "What's the weather like?"), ("assistant", "Sunny, around twenty degrees.")]
    session = talk("race-sum", "alice", [("user", "I'm allergic to peanuts."), ("assistant", "Noted.")] + filler * 9)
    processes = [_spawn(session.pk, "summarise") for _ in range(2)]
    statuses = sorted(_result(process)["status"] for process in processes)
    assert statuses in (["busy", "completed"], ["completed", "nothing_new"])
    assert list(SessionSummary.objects.filter(session=session).values_list("version", "covers_up_to")) == [(1, 5)]
    assert Memory.objects.filter(kind="episode").count() == 1
    assert FormationRun.objects.filter(session=session, job="summarise").count() == 1
