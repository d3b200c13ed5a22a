"""A worker killed with SIGKILL in the middle of habit mining (its habit written, not committed) leaves
nothing; the redelivered message (late acks) makes a new worker write the one habit, and only once."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from audit.models import AuditEvent
from layers.formation.services.habits import habits_enqueue, habits_mine
from layers.long_term.models import Memory
from tests.support.fault_pause import PAUSE_ENV
from tests.support.habits import evenings, say_at
from tests.support.processes import kill_group, start_worker, stop_worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.fixture
def own_queue():
    from memoryhub.celery import app as celery_app

    previous = celery_app.conf.task_default_queue
    queue = f"mh-habits-kill-{os.getpid()}"
    # From the first turn on: the turns below ask for mining themselves (layers/formation/receivers.py),
    # and on the session's queue the suite's own worker would mine before this test's doomed one.
    celery_app.conf.task_default_queue = queue
    yield queue
    celery_app.conf.task_default_queue = previous


def test_sigkill_mid_mining_then_a_new_worker_writes_the_habit_once(tenant, own_queue, tmp_path):
    # five evenings up to yesterday: the worker mines with the real clock
    say_at(tenant, "alice", evenings(timezone.now().date() - timedelta(days=1)))
    pause = tmp_path / "pause"
    pause.write_text("habits")
    doomed = start_worker(own_queue, name="doomed-habits", log_path=tmp_path / "doomed.log",
                          extra_env={PAUSE_ENV: str(pause)}, app="tests.support.pausing_worker")
    try:
        with transaction.atomic():
            habits_enqueue(tenant.pk, "alice")
        wait_for(lambda: (tmp_path / "pause.reached").exists(), timeout=60,
                 message="the worker to pause with the habit written")
        assert (tmp_path / "pause.reached").read_text() == "habits"
        kill_group(doomed)
    finally:
        stop_worker(doomed)
    assert not Memory.objects.filter(kind="habit").exists(), "nothing half-written"
    pause.unlink()

    rescuer = start_worker(own_queue, name="rescuer-habits", log_path=tmp_path / "rescuer.log")
    try:
        habit = wait_for(lambda: Memory.objects.filter(kind="habit").first(), timeout=90,
                         message="the redelivered mining to write the habit")
    finally:
        stop_worker(rescuer)
    assert Memory.objects.filter(kind="habit").count() == 1
    assert habit.memory_key == "habit.play.white_noise" and habit.attributes["support"] == 5
    assert AuditEvent.objects.filter(action="memory.created", object_id=str(habit.pk)).count() == 1
    assert habits_mine(tenant_id=tenant.pk, user_id="alice")["unchanged"] == 1
