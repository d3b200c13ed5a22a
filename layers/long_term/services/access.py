"""Access statistics (count, last time) of memories returned by searches, written in batches.

A search returns up to 100 memories; one UPDATE per hit on the request path would make every search
a write. Each search appends one entry (its time and the ids it served) to a Redis list instead, a
single command sent with the request's other counters in one pipeline (memoryhub/core/redis_batch.py),
and `memory_access_flush` (a periodic task) reads the list in
chunks and folds it into the rows with one UPDATE. When Redis is down the hits are written straight to
PostgreSQL, still as a single statement per search. These columns are not history-tracked, so the raw
UPDATE skips nothing.
"""
from __future__ import annotations

import logging
import time
import uuid
from collections import Counter

from django.db import connection
from redis.exceptions import RedisError

from memoryhub.core.redis import redis_client
from memoryhub.core.redis_batch import redis_deferred

logger = logging.getLogger(__name__)

LOG_KEY = "mh:long_term:access:log"
FLUSH_CHUNK = 5000  # list entries read at a time while flushing


def _apply(counts: dict[int, int], last_seen: dict[int, float]) -> int:
    if not counts:
        return 0
    rows = [(int(pk), int(count), float(last_seen.get(pk, time.time()))) for pk, count in counts.items()]
    placeholders = ", ".join(["(%s::bigint, %s::int, %s::float8)"] * len(rows))
    params = [value for row in rows for value in row]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE long_term_memory AS m SET access_count = m.access_count + v.hits, "
            f"last_accessed_at = GREATEST(COALESCE(m.last_accessed_at, to_timestamp(0)), to_timestamp(v.seen)) "
            f"FROM (VALUES {placeholders}) AS v(id, hits, seen) WHERE m.id = v.id",
            params,
        )
        return cursor.rowcount


def memory_access_record(memory_ids: list[int]) -> None:
    """Note that these memories were just served. Never raises: statistics must not fail a search."""
    if not memory_ids:
        return
    now = time.time()
    entry = f"{now:.3f} " + " ".join(str(int(pk)) for pk in memory_ids)

    def straight_to_postgres() -> None:
        try:
            _apply({pk: 1 for pk in memory_ids}, {pk: now for pk in memory_ids})
        except Exception:
            logger.exception("could not record memory access")

    # in a request, sent with its other counters in one pipeline (memoryhub/core/redis_batch.py)
    redis_deferred("access buffer", lambda pipe: pipe.rpush(LOG_KEY, entry), fallback=straight_to_postgres)


def memory_access_flush() -> dict:
    """Fold the buffered hits into the rows. Safe to run from several processes: each takes the buffer
    with an atomic RENAME, so a hit is counted once."""
    client = redis_client()
    taken = f"{LOG_KEY}:flush:{uuid.uuid4().hex}"
    try:
        client.rename(LOG_KEY, taken)
    except RedisError as exc:
        if "no such key" in str(exc).lower():
            return {"memories": 0}
        raise
    counts: Counter[int] = Counter()
    last_seen: dict[int, float] = {}
    start = 0
    while entries := client.lrange(taken, start, start + FLUSH_CHUNK - 1):
        for entry in entries:
            stamp, *ids = entry.decode("ascii").split()
            seen = float(stamp)
            for pk in map(int, ids):
                counts[pk] += 1
                last_seen[pk] = max(seen, last_seen.get(pk, seen))
        start += len(entries)
    updated = _apply(counts, last_seen)
    client.delete(taken)
    return {"memories": updated}
