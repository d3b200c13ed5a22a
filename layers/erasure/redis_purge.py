"""Removing a user's cached values from Redis: exactly the keys under the user's own prefix.

Every writer of per-user Redis data keys it under `memoryhub.core.redis.user_key_prefix(tenant_id,
user_id)` (today: the permanent snapshots of the user's scope, `permanent/cache.py`). The prefix holds
the database OID, the tenant id and a hash of the user id, so whatever id a client erases ("*",
"_kombu.binding.celery", "mh:", another tenant's user id) the purge can only reach that tenant's
user: never Celery's keys, another tenant's entries or another user's. (It used to scan every key for
the id as a substring, which let an id named like a shared key delete it.)

What Redis holds that is not keyed per user carries no user text: the access-statistics buffer holds
memory ids only (an erased memory's id then updates no row), throttles count per API key, formation
jobs in the broker carry session ids, and the permanent generation counters are per tenant.
"""
from __future__ import annotations

from itertools import islice

from memoryhub.core.redis import redis_client, user_key_prefix

DELETE_BATCH = 500


def user_keys_pattern(tenant_id: int, user_id: str) -> str:
    """The SCAN pattern of the user's keys. The prefix is digits, hex and colons only, so it needs no
    glob escaping. A leading `*` also finds the keys Django's cache stores under its own KEY_PREFIX
    (`mh:1:<our key>`)."""
    return f"*{user_key_prefix(tenant_id, user_id)}*"


def user_redis_purge(tenant_id: int, user_id: str) -> int:
    """Delete every key under the user's prefix; returns how many. Raises redis errors: erasure must not
    claim success while Redis cannot be reached. Uses the shared client (its socket timeouts bound each
    call)."""
    client = redis_client()
    keys = client.scan_iter(match=user_keys_pattern(tenant_id, user_id), count=1000)
    deleted = 0
    while batch := list(islice(keys, DELETE_BATCH)):
        deleted += client.delete(*batch)
    return deleted
