"""Redis stops while a conversation goes on: every turn is stored, the pending work waits in
PostgreSQL, and once Redis is back the sweeper enqueues it and extraction catches up."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from layers.formation.models import FormationRun, FormationState
from layers.long_term.models import Memory
from layers.short_term.models import Session, Turn
from memoryhub.embedded import _free_port, embedded_redis
from memoryhub.outbox.models import OutboxTask
from tests.support.processes import (
    BASE_DIR,
    Http,
    private_env,
    start_celery_worker,
    start_web,
    wait_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_turns_survive_a_redis_outage_and_extraction_catches_up(make_client, tenant, tmp_path, processes):
    key = make_client(tenant).plaintext
    port = _free_port()
    redis_url, queue = f"redis://127.0.0.1:{port}/0", f"outage-{os.getpid()}"
    env = private_env(redis_url, queue)
    redis_dir = tmp_path / "redis"

    with embedded_redis(redis_dir, port=port):
        web, base = start_web(env, tmp_path / "web.log")
        processes.append(web)
        processes.append(start_celery_worker(env, queue, "outage", tmp_path / "worker.log"))
        http = Http(base, key)
        assert http.post("/api/v1/sessions", {"session_id": "trip", "user_id": "alice"})[0] == 201
        status, _ = http.post("/api/v1/sessions/trip/turns", {"turns": [
            {"role": "user", "content": "Hello!"}, {"role": "assistant", "content": "Hi, how can I help?"}]})
        assert status == 201

    # Redis is down now: the conversation goes on.
    said = [
        "I'm allergic to peanuts.", "I live in Beijing.", "I love jazz.", "My name is Alice Chen.",
        "I work as a nurse.", "I hate olives.", "Actually I moved to Shanghai.", "I have a cat named Mimi.",
    ]
    for index, text in enumerate(said):
        status, body = http.post("/api/v1/sessions/trip/turns", {"turns": [
            {"role": "user", "content": text, "client_id": f"u{index}"}, {"role": "assistant", "content": "Noted."}]})
        assert status == 201, body
    assert http.post("/api/v1/sessions/trip/end")[0] == 200
    session = Session.objects.get(session_id="trip")
    assert session.turn_count == 18 and Turn.objects.filter(session=session).count() == 18, "every turn stored"
    pending = OutboxTask.objects.filter(sent_at__isnull=True, dedupe_key=f"formation.extract:{session.pk}")
    assert pending.count() == 1, "the extraction request waits in PostgreSQL, once"
    # Beside it, only the habit mining that a session's end asks for (layers/formation/services/habits.py).
    waiting = sorted(OutboxTask.objects.filter(sent_at__isnull=True).values_list("dedupe_key", flat=True))
    assert waiting == [f"formation.extract:{session.pk}", f"formation.habits:{tenant.id}:alice"], waiting
    assert not Memory.objects.exists() and not FormationRun.objects.exists()

    with embedded_redis(redis_dir, port=port):
        flushed = subprocess.run([sys.executable, "manage.py", "outbox_flush"], cwd=BASE_DIR, env=env,
                                 capture_output=True, text=True, check=True)
        assert flushed.stdout.startswith(f"sent {len(waiting)}, failed 0"), flushed.stdout
        run = wait_for(lambda: FormationRun.objects.filter(session=session, job="extract").first(), timeout=120,
                       message="extraction to catch up after the outage")
    assert (run.turn_from, run.turn_to) == (1, 18)
    assert FormationState.objects.get(session=session).last_extracted_seq == 18
    active = dict(Memory.objects.filter(user_id="alice", status="active").values_list("memory_key", "content"))
    assert active["user.allergies"] == "User is allergic to peanuts."
    assert active["user.home_city"] == "User lives in Shanghai."
    assert Memory.objects.filter(memory_key="user.home_city", status="superseded").count() == 1
    assert Memory.objects.values("content").distinct().count() == Memory.objects.count(), "nothing doubled"
