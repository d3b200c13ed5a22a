"""A request's bookkeeping writes to Redis in one round trip, and its repeated reads in one.

A search request made four Redis round trips: the rate limit, the layer-health hit counter (one HINCRBY,
memoryhub/api/metrics.py), the access buffer (one RPUSH, layers/long_term/services/access.py) and the
latency histogram. The counters have since left the request for a per-process buffer sent by its own
thread (`CounterBuffer` in memoryhub/api/metrics.py); the access buffer is a count nothing in the request
reads back, so it need not be sent the moment it happens: inside `redis_batched()` (LatencyMiddleware
opens it around every request) `redis_deferred` queues it and the block's end sends what was queued in one
pipeline. Outside a batch (a Celery task, a shell, a test calling a selector) it is sent at once, as before.

The same block keeps a per-request memo (`request_memo`): a value read from Redis once per request
rather than once per use (a context read the permanent snapshots' generation five times).

Failure semantics are each writer's own, as before: the pipeline runs without a transaction; if Redis
fails, the back-off is told and each queued write's `fallback` runs (the access buffer writes its hits to
PostgreSQL; a counter loses its increment). A write queued while the back-off is closed takes its fallback
at once.
"""
from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from memoryhub.core.redis import REDIS_ERRORS, backoff, redis_client

logger = logging.getLogger(__name__)


@dataclass
class _Write:
    operation: str
    queue: Callable  # queue(pipeline): issues the write's command(s) on a pipeline
    fallback: Callable[[], None] | None


_batch: contextvars.ContextVar[list[_Write] | None] = contextvars.ContextVar("redis_batch", default=None)
_memo: contextvars.ContextVar[dict | None] = contextvars.ContextVar("redis_request_memo", default=None)


def request_memo() -> dict | None:
    """A dict that lives as long as the open batch (one request), for values a request may read from Redis
    once and reuse (the permanent snapshots' generation, permanent/cache.py); None outside a batch. A writer
    that changes such a value removes its entry, so the request reads it again."""
    return _memo.get()


def _fall_back(writes: list[_Write]) -> None:
    for write in writes:
        if write.fallback is None:
            continue
        try:
            write.fallback()
        except Exception:
            logger.exception("the fallback of %s failed", write.operation)


def redis_deferred(operation: str, queue: Callable, fallback: Callable[[], None] | None = None) -> None:
    """Send the command(s) `queue(pipeline)` issues with the batch when one is open, else now (a pipeline of
    their own). Never raises."""
    write = _Write(operation, queue, fallback)
    if not backoff.available():
        _fall_back([write])
        return
    pending = _batch.get()
    if pending is not None:
        pending.append(write)
        return
    _send([write])


def _send(writes: list[_Write]) -> None:
    if not writes:
        return
    if not backoff.available():
        _fall_back(writes)
        return
    try:
        pipe = redis_client().pipeline(transaction=False)
        for write in writes:
            write.queue(pipe)
        pipe.execute()
    except REDIS_ERRORS as exc:
        backoff.failed(", ".join(sorted({write.operation for write in writes})), exc)
        _fall_back(writes)


@contextmanager
def redis_batched() -> Iterator[None]:
    """Queue `redis_deferred` writes made in this block (this thread) and send them in one pipeline at its
    end. Nested blocks join the outer one."""
    if _batch.get() is not None:
        yield
        return
    token, memo_token = _batch.set([]), _memo.set({})
    try:
        yield
    finally:
        writes = _batch.get() or []
        _batch.reset(token)
        _memo.reset(memo_token)
        _send(writes)
