"""The metrics counters leave the request thread (memoryhub/api/metrics.py, `CounterBuffer`): increments are
added up in-process and sent by one daemon thread, kept while Redis is away and sent when it is back, sent
at a normal exit, and never a failure of the request. Real Redis (the test's REDIS_URL), and an unreachable
one: a port nothing listens on."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid

import pytest
from django.conf import settings
from redis import Redis
from redis.connection import AbstractConnection

from memoryhub.api import metrics
from memoryhub.api.metrics import LATENCY_KEY, RETRIEVALS_KEY, CounterBuffer, record_search
from memoryhub.core.redis import Backoff, redis_client
from tests.support.processes import wait_for

UNREACHABLE = "redis://127.0.0.1:1/0"


@pytest.fixture
def key():
    name = f"memoryhub:test:counters:{uuid.uuid4().hex}"
    yield name
    redis_client().delete(name)


@pytest.fixture
def round_trips(monkeypatch) -> list[tuple[str, bool]]:
    """Each Redis round trip from here on: the thread that made it, and whether it carried an increment."""
    made: list[tuple[str, bool]] = []
    original = AbstractConnection.send_packed_command

    def counted(connection, command, *args, **kwargs):
        packed = command if isinstance(command, bytes) else b"".join(command)
        made.append((threading.current_thread().name, b"HINCRBY" in packed.upper()))
        return original(connection, command, *args, **kwargs)
    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    return made


def _unreachable() -> Redis:
    return Redis.from_url(UNREACHABLE, socket_connect_timeout=0.2, socket_timeout=0.2)


def test_the_daemon_thread_sends_the_increments_and_the_caller_makes_no_round_trip(key, round_trips):
    buffer = CounterBuffer(backoff=Backoff(), delay=0.001)
    for _ in range(5):
        buffer.add(key, "hits")
    buffer.add(key, "seconds", 0.25)
    buffer.add(key, "seconds", 0.5)
    wait_for(lambda: redis_client().hget(key, "seconds") == b"0.75", timeout=10, message="the buffer's send")
    assert int(redis_client().hget(key, "hits")) == 5
    sends = [thread for thread, increments in round_trips if increments]
    assert sends and set(sends) == {"memoryhub-metrics"}  # this thread only read


def test_many_increments_go_in_one_round_trip_added_up(key, round_trips):
    buffer = CounterBuffer(backoff=Backoff(), delay=3600)  # its thread, once woken, waits: only this test sends
    for index in range(300):
        buffer.add(key, f"field{index % 3}")
    assert round_trips == [] and buffer.pending() == 3
    assert buffer.flush()
    assert round_trips == [("MainThread", True)]
    assert {field: int(n) for field, n in redis_client().hgetall(key).items()} == \
        {b"field0": 100, b"field1": 100, b"field2": 100}
    assert buffer.pending() == 0 and buffer.flush()
    assert [trip for trip in round_trips if trip[1]] == [("MainThread", True)]  # nothing left, nothing sent


def test_redis_away_keeps_the_increments_and_sends_them_when_it_is_back(key):
    backoff = Backoff(seconds=60)
    buffer = CounterBuffer(client=_unreachable, backoff=backoff, delay=3600)
    buffer.add(key, "hits")
    buffer.add(key, "hits", 2)
    assert not buffer.flush()  # refused: kept, and the back-off closed
    assert not backoff.available() and buffer.pending() == 1
    buffer.add(key, "hits")  # while closed, an increment is only added up
    assert not buffer.flush() and buffer.pending() == 1
    buffer._client = redis_client  # Redis is back
    backoff.reset()
    assert buffer.flush()
    assert int(redis_client().hget(key, "hits")) == 4


def test_while_redis_is_away_at_most_max_fields_are_kept(key):
    buffer = CounterBuffer(client=_unreachable, backoff=Backoff(seconds=60), delay=3600, max_fields=3)
    for index in range(5):
        buffer.add(key, f"f{index}")
    buffer.add(key, "f0", 4)
    assert buffer.pending() == 3 and buffer.dropped == 2
    buffer._client = redis_client
    buffer._backoff.reset()
    assert buffer.flush()
    assert {field: int(n) for field, n in redis_client().hgetall(key).items()} == {b"f0": 5, b"f1": 1, b"f2": 1}


@pytest.mark.django_db
def test_a_search_request_with_redis_unreachable_answers_and_its_counts_wait(api, tenant, monkeypatch):
    buffer = CounterBuffer(client=_unreachable, backoff=Backoff(seconds=60), delay=0.001)
    monkeypatch.setattr(metrics, "counters", buffer)
    response = api.post_json("/api/v1/memories", {"user_id": "q-u1", "content": "I keep bees", "kind": "fact"})
    assert response.status_code == 201
    response = api.post_json("/api/v1/memories/search", {"user_id": "q-u1", "query": "bees"})
    assert response.status_code == 200 and response.json()["results"]
    field = f"long_term|{tenant.pk}|served"
    # a send now (after the thread's, if it is under way) fails too: the hit and both requests' latencies stay
    assert not buffer.flush() and not buffer._backoff.available()
    assert buffer._pending[(RETRIEVALS_KEY, field)] == 1
    assert sum(n for (name, slot), n in buffer._pending.items() if name == LATENCY_KEY and slot.endswith("|count")) == 2


def test_the_increments_left_at_a_normal_exit_are_sent(key):
    script = (
        "import django; django.setup()\n"
        "from memoryhub.api import metrics\n"
        "metrics.counters.delay = 3600\n"  # the thread waits: only the exit can send them
        f"for _ in range(7): metrics.counters.add({key!r}, 'hits')\n"
        f"metrics.counters.add({key!r}, 'seconds', 1.5)\n"
        "assert metrics.counters.pending() == 2\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "memoryhub.settings", "REDIS_URL": settings.REDIS_URL}
    done = subprocess.run([sys.executable, "-c", script], cwd=settings.BASE_DIR, env=env, capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert int(redis_client().hget(key, "hits")) == 7
    assert float(redis_client().hget(key, "seconds")) == 1.5


@pytest.mark.django_db
def test_the_shared_buffer_counts_a_search_and_a_scrape_reads_it_back(tenant):
    field = f"long_term|{tenant.pk}|missed"
    before = int(redis_client().hget(RETRIEVALS_KEY, field) or 0)
    record_search(tenant.pk, served=False)
    record_search(tenant.pk, served=False)
    health = metrics.layer_health([tenant.pk])  # sends this process's pending counts first
    assert health.redis_up and health.tenants[0].retrievals["long_term"].total == before + 2
    assert int(redis_client().hget(RETRIEVALS_KEY, field)) == before + 2


def test_a_worker_child_sends_its_pending_counts_when_it_shuts_down(key, monkeypatch):
    # A Celery prefork child exits without atexit (memoryhub/celery.py): its shutdown signal sends what its
    # buffer holds. The buffer here would wait an hour on its own, so only the signal can have sent it.
    from celery.signals import worker_process_shutdown

    import memoryhub.celery  # noqa: F401 — connects the receiver

    idle = CounterBuffer(backoff=Backoff(), delay=3600)
    monkeypatch.setattr(metrics, "counters", idle)
    idle.add(key, "hits", 3)
    assert redis_client().hget(key, "hits") is None
    worker_process_shutdown.send(sender=None, pid=os.getpid(), exitcode=0)
    assert int(redis_client().hget(key, "hits")) == 3
    assert idle.pending() == 0
