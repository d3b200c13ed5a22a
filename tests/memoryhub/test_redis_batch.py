"""A request's Redis bookkeeping in one pipeline, and its repeated reads once (memoryhub/core/redis_batch.py):
round trips counted at the connection (memoryhub/core/profiling.py) on real Redis and PostgreSQL. The metrics
counters leave the request for a buffer of their own (memoryhub/api/metrics.py, `CounterBuffer`); here it is
one whose thread waits an hour once woken, so the round trips counted are the request's alone and the test
sends the counters itself."""
from __future__ import annotations

import pytest
from redis import Redis

from layers.long_term.services import access
from memoryhub.api import metrics
from memoryhub.api.metrics import RETRIEVALS_KEY, CounterBuffer
from memoryhub.core import redis_batch
from memoryhub.core.profiling import redis_round_trips_counted
from memoryhub.core.redis import redis_client
from memoryhub.core.redis_batch import redis_batched, redis_deferred
from permanent import cache as permanent_cache

pytestmark = pytest.mark.django_db


def _remember(api, user_id: str, content: str) -> int:
    response = api.post_json("/api/v1/memories", {"user_id": user_id, "content": content, "kind": "fact"})
    assert response.status_code == 201, response.content
    return response.json()["id"]


@pytest.fixture
def held_counters(monkeypatch) -> CounterBuffer:
    buffer = CounterBuffer(delay=3600)
    monkeypatch.setattr(metrics, "counters", buffer)
    return buffer


def test_a_search_request_sends_its_bookkeeping_in_one_round_trip(api, tenant, held_counters):
    _remember(api, "rb-u1", "I keep bees on the roof")
    field = f"long_term|{tenant.pk}|served"
    served_before = int(redis_client().hget(RETRIEVALS_KEY, field) or 0)
    log_before = redis_client().llen(access.LOG_KEY)
    with redis_round_trips_counted() as counted:
        response = api.post_json("/api/v1/memories/search", {"user_id": "rb-u1", "query": "bees on the roof"})
    assert response.status_code == 200 and response.json()["results"]
    # the rate limit, the permanent snapshots' generation (the tenant policy), and one pipeline with the
    # access buffer (five round trips before the batch); the hit counter and latency wait in the buffer
    assert counted["round_trips"] == 3
    assert redis_client().llen(access.LOG_KEY) == log_before + 1
    assert int(redis_client().hget(RETRIEVALS_KEY, field) or 0) == served_before
    assert held_counters.flush()
    assert int(redis_client().hget(RETRIEVALS_KEY, field) or 0) == served_before + 1


def test_a_context_reads_the_policy_generation_once(api, held_counters):
    _remember(api, "rb-u2", "I keep bees on the roof")
    with redis_round_trips_counted() as counted:
        response = api.post_json("/api/v1/context", {"user_id": "rb-u2", "query": "bees?", "token_budget": 2000})
    assert response.status_code == 200
    assert counted["round_trips"] == 3  # the rate limit, the generation (five policy reads), the pipeline


def test_outside_a_batch_a_write_is_sent_at_once_and_inside_one_at_its_end(tenant):
    key, field = "rb:deferred", f"t{tenant.pk}"
    start = int(redis_client().hget(key, field) or 0)

    def count(pipe):
        pipe.hincrby(key, field, 1)
    redis_deferred("a counter", count)
    assert int(redis_client().hget(key, field) or 0) == start + 1
    with redis_round_trips_counted() as counted, redis_batched():
        redis_deferred("a counter", count)
        redis_deferred("a counter", count)
        with redis_batched():  # a nested block joins the outer one
            redis_deferred("a counter", count)
        assert int(redis_client().hget(key, field) or 0) == start + 1
        assert counted["round_trips"] == 1  # the read just above
    assert counted["round_trips"] == 2
    assert int(redis_client().hget(key, field) or 0) == start + 4


def test_a_batch_that_cannot_reach_redis_writes_the_access_hits_to_postgres(api, tenant, monkeypatch):
    from layers.long_term.models import Memory

    memory_id = _remember(api, "rb-u3", "I keep bees on the roof")
    unreachable = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    monkeypatch.setattr(redis_batch, "redis_client", lambda: unreachable)
    failed_counter = []
    with redis_batched():
        access.memory_access_record([memory_id])
        redis_deferred("a counter", lambda pipe: pipe.incr("rb:never"), fallback=None)
        redis_deferred("another", lambda pipe: pipe.incr("rb:never"), fallback=lambda: failed_counter.append(1))
        assert Memory.objects.get(pk=memory_id).access_count == 0  # nothing sent before the block ends
    assert Memory.objects.get(pk=memory_id).access_count == 1
    assert failed_counter == [1]
    # the back-off is now closed: a write takes its fallback at once
    access.memory_access_record([memory_id])
    assert Memory.objects.get(pk=memory_id).access_count == 2


def test_in_a_request_the_generation_is_read_once_and_a_bump_reads_it_again(tenant):
    loads = []

    def load():
        loads.append(1)
        return {"k": {"value": len(loads)}}

    with redis_batched():
        with redis_round_trips_counted() as counted:
            first = permanent_cache.snapshot_cached(tenant.pk, "", load)
            again = permanent_cache.snapshot_cached(tenant.pk, "", load)
        # generation GET, snapshot GET (a miss), SET; the second read comes from this process's copy
        assert counted["round_trips"] == 3 and first == again and len(loads) == 1
        assert permanent_cache.generation_bump(tenant.pk)
        bumped = permanent_cache.snapshot_cached(tenant.pk, "", load)
    assert len(loads) == 2 and bumped == {"k": {"value": 2}}
