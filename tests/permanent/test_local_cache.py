"""Each process keeps its own copy of a snapshot per generation: one Redis GET a read, still fresh."""
from __future__ import annotations

import pytest
import redis
from django.conf import settings

from memoryhub.core.redis import backoff
from permanent import cache
from permanent.selectors import permanent_global_values, permanent_snapshot
from tests.support.permanent import approve, propose

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _redis_reachable(monkeypatch):
    # an earlier test's outage must not leave this process skipping Redis during its back-off
    backoff.reset()


def _snapshot_key(tenant_id: int, user_id: str = "") -> str:
    client = redis.Redis.from_url(settings.REDIS_URL)
    generation = int(client.get(cache.generation_key(tenant_id)) or 0)
    return cache.snapshot_key(tenant_id, generation, user_id)


def test_a_process_reads_its_own_copy_until_the_generation_moves(tenant, editor, reviewer,
                                                                  django_assert_num_queries):
    client = redis.Redis.from_url(settings.REDIS_URL)
    approve(propose(tenant, editor, key="rules.tone", value="warm"), reviewer)
    assert permanent_global_values(tenant_id=tenant.id, prefix="rules.") == {"rules.tone": "warm"}
    key = _snapshot_key(tenant.id)
    # Redis loses its copy (an eviction): this process still answers from its own, without PostgreSQL
    # and without storing the snapshot again
    assert client.delete(key) == 1
    with django_assert_num_queries(0):
        assert permanent_global_values(tenant_id=tenant.id, prefix="rules.") == {"rules.tone": "warm"}
    assert not client.exists(key)
    # callers get their own dicts: changing one answer does not change the next
    permanent_snapshot(tenant_id=tenant.id)["rules.tone"]["value"] = "tampered"
    assert permanent_global_values(tenant_id=tenant.id, prefix="rules.") == {"rules.tone": "warm"}
    # an approved change moves the generation, and the next read sees it
    approve(propose(tenant, editor, key="rules.tone", action="update", value="formal", base_version=1), reviewer)
    assert permanent_global_values(tenant_id=tenant.id, prefix="rules.") == {"rules.tone": "formal"}


def test_copies_expire_and_erasure_drops_this_process_copies(tenant, editor, reviewer):
    approve(propose(tenant, editor, key="rules.tone", value="warm", user_id="alice"), reviewer)
    assert "rules.tone" in permanent_snapshot(tenant_id=tenant.id, user_id="alice")
    alice = _snapshot_key(tenant.id, "alice")
    assert alice in cache._local
    # an expired copy is not used (the Redis copy, deleted here, is not either: PostgreSQL answers)
    cache._local[alice] = (0.0, b'{"rules.tone": {"value": "stale"}}')
    redis.Redis.from_url(settings.REDIS_URL).delete(alice)
    assert permanent_snapshot(tenant_id=tenant.id, user_id="alice")["rules.tone"]["value"] == "warm"
    cache.user_snapshots_delete(tenant.id, "alice")
    mine = cache.snapshot_key(tenant.id, 0, "alice").rsplit(":", 1)[0]
    assert not [key for key in cache._local if key.startswith(mine)]
