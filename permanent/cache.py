"""Redis read cache for permanent entries, invalidated across processes at once.

Each tenant has a generation counter; cached snapshots are stored under the generation they were
read at, and applying a change bumps the counter after commit, so every process's next read misses
and goes to PostgreSQL. Redis being down never fails a read: we go straight to PostgreSQL and skip
Redis for a short while. If the bump itself fails, snapshots expire after `SNAPSHOT_TTL` and an
outbox task bumps the counter once the broker is back.
"""
from __future__ import annotations

import hashlib
import json
import logging
import time
from typing import Any, Callable

import redis

from memoryhub.core.redis import backoff, database_token, redis_client, user_key_prefix
from memoryhub.core.redis_batch import request_memo

logger = logging.getLogger(__name__)

KEY_PREFIX = "mh:perm"
SNAPSHOT_TTL = 300


def _redis() -> redis.Redis | None:
    """The shared client, or None while the shared back-off says Redis is down (read PostgreSQL)."""
    return redis_client() if backoff.available() else None


def _failed(exc: Exception) -> None:
    backoff.failed("permanent cache", exc)


def _prefix() -> str:
    """Keys carry the database's OID: a recreated database (a new test run) restarts tenant ids, and
    must not meet snapshots cached for the previous one."""
    return f"{KEY_PREFIX}:{database_token()}"


def generation_key(tenant_id: int) -> str:
    return f"{_prefix()}:{tenant_id}:gen"


def scope_token(user_id: str) -> str:
    # User ids are hashed so no cache key carries one in clear.
    return "global" if not user_id else "u:" + hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:40]


def _user_snapshots_prefix(tenant_id: int, user_id: str) -> str:
    return user_key_prefix(tenant_id, user_id) + "perm:"


def snapshot_key(tenant_id: int, generation: int, user_id: str) -> str:
    """Where a scope's snapshot of one generation is cached. A user's own snapshots live under the
    user's prefix (memoryhub.core.redis.user_key_prefix), which erasure deletes whole; the global
    scope's belong to the tenant."""
    if user_id:
        return f"{_user_snapshots_prefix(tenant_id, user_id)}g{generation}"
    return f"{_prefix()}:{tenant_id}:g{generation}:{scope_token(user_id)}"


# This process's copies of snapshots it has read, by Redis key. A key names one generation, and what is
# stored under it is never rewritten, so a copy stays right until the generation moves: a read then costs
# one GET (the generation) instead of two. Copies live LOCAL_TTL at most, so a lost bump is still healed
# by expiry (after SNAPSHOT_TTL + LOCAL_TTL at worst). Raw JSON is kept: every caller gets its own dicts.
LOCAL_TTL = 60.0
LOCAL_MAX_ENTRIES = 4096
_local: dict[str, tuple[float, bytes]] = {}


def _local_get(key: str) -> bytes | None:
    entry = _local.get(key)
    if entry is None or entry[0] < time.monotonic():
        return None
    return entry[1]


def _local_put(key: str, raw: bytes) -> None:
    if len(_local) >= LOCAL_MAX_ENTRIES:
        _local.clear()  # old generations pile up here; starting over costs one GET per scope
    _local[key] = (time.monotonic() + LOCAL_TTL, raw)


def _generation(client, tenant_id: int) -> int:
    """The tenant's generation, read once per request (memoryhub/core/redis_batch.py): a context reads several
    policies, each through a snapshot. A bump in this process forgets it, so a request sees its own change."""
    memo = request_memo()
    if memo is not None and ("permanent generation", tenant_id) in memo:
        return memo[("permanent generation", tenant_id)]
    generation = int(client.get(generation_key(tenant_id)) or 0)
    if memo is not None:
        memo[("permanent generation", tenant_id)] = generation
    return generation


def _generation_forget(tenant_id: int) -> None:
    memo = request_memo()
    if memo is not None:
        memo.pop(("permanent generation", tenant_id), None)


def snapshot_cached(tenant_id: int, user_id: str, load: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The scope's snapshot from Redis, or `load()` (PostgreSQL) stored for the next reader."""
    client = _redis()
    if client is None:
        return load()
    try:
        generation = _generation(client, tenant_id)
        key = snapshot_key(tenant_id, generation, user_id)
        raw = _local_get(key)
        if raw is None:
            raw = client.get(key)
            if raw is not None:
                _local_put(key, raw)
        if raw is not None:
            return json.loads(raw)
    except (redis.RedisError, OSError) as exc:
        _failed(exc)
        return load()
    snapshot = load()
    raw = json.dumps(snapshot, ensure_ascii=False).encode("utf-8")
    try:
        client.set(key, raw, ex=SNAPSHOT_TTL)
    except (redis.RedisError, OSError) as exc:
        _failed(exc)
    else:
        _local_put(key, raw)
    return snapshot


def generation_bump(tenant_id: int) -> bool:
    """Make every cached snapshot of the tenant stale. False when Redis could not be reached."""
    _generation_forget(tenant_id)
    try:
        client = _redis() or redis_client()
        client.incr(generation_key(tenant_id))
    except (redis.RedisError, OSError) as exc:
        _failed(exc)
        return False
    return True


def user_snapshots_delete(tenant_id: int, user_id: str) -> int:
    """Erasure: drop every cached snapshot of one user's scope, whatever generation it was read at."""
    client = redis_client()
    prefix = _user_snapshots_prefix(tenant_id, user_id)  # hex, digits and colons: no glob characters
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    for key in list(_local):  # a copy of the keys: other threads may add entries meanwhile
        if key.startswith(prefix):
            _local.pop(key, None)  # other processes' copies are unreachable after the bump below, and expire
    _generation_forget(tenant_id)
    client.incr(generation_key(tenant_id))
    return len(keys)


def invalidate_on_commit(tenant_id: int) -> None:
    """Bump the generation now and again once the caller's transaction commits. The second bump is the
    one that matters (readers in between re-cache the old committed value); the first keeps code
    running inside one long transaction (tests, batch jobs) from reading its own stale snapshot. If
    Redis is down after commit, the outbox bumps once Redis is back."""
    from django.db import transaction

    generation_bump(tenant_id)

    def bump():
        if not generation_bump(tenant_id):
            from memoryhub.outbox.services import task_enqueue_on_commit

            task_enqueue_on_commit("permanent.tasks.cache_invalidate", args=[tenant_id],
                                   dedupe_key=f"permanent-cache-{tenant_id}")

    transaction.on_commit(bump)
