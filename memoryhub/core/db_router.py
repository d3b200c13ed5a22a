"""Reads that may go to a streaming replica, with read-your-writes for the caller that just wrote.

Only reads that ask for it (`read_tolerating_lag`, or `router.db_for_read(Model, replica_ok=True)`) go to the replica: today the
long-term search (layers/long_term/selectors/search.py), which is most of the read traffic and whose
result may lag by the replica's replay delay. Everything else stays on the primary: authentication,
permanent entries (their cache is invalidated at once on an approved change, and refilling it from a
lagging replica would serve the old version again), and any read inside a transaction on the primary.

Read-your-writes: the first write of long-term rows by an API caller (the key the request came with,
memoryhub/tenancy/auth.py) leaves a marker in Redis when its transaction commits, before the response
goes out, for `DB_READ_YOUR_WRITES_SECONDS`. While the marker lives, that caller's searches read the
primary on every web process, so what it just wrote is found whichever process serves it next. Other
callers read the replica meanwhile and see the write once it is replayed (usually milliseconds). When
Redis is down or backing off (memoryhub/core/redis.py), nothing can be known about recent writes, so
every search reads the primary.

A replica that fails a read hands it to the primary, and is skipped for `replica_backoff`'s seconds
(`read_tolerating_lag`).

Writes through raw SQL do not pass the router: those made for a caller must call `long_term_written()`;
the ones without a caller (access statistics, bulk import's COPY from a command) pin nobody, and their
rows reach the replica like any other.
"""
from __future__ import annotations

from typing import Callable, TypeVar

import psycopg
from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    OperationalError,
    connections,
    router,
    transaction,
)

from memoryhub.core.redis import REDIS_ERRORS, Backoff, backoff, redis_client
from memoryhub.core.request_context import Caller, current_caller

T = TypeVar("T")
REPLICA = "replica"
# A replica that failed a read (down, unreachable through the pooler, or cancelling the query for a
# recovery conflict) is skipped for this long: one failed read per process, not one per search.
replica_backoff = Backoff(seconds=10.0, service="replica")
# Apps whose rows replica-routed reads serve: a caller writing them is pinned to the primary.
PINNING_APPS = frozenset({"long_term"})
MARKER_PREFIX = "mh:ryw"


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def marker_key(caller: Caller) -> str:
    return f"{MARKER_PREFIX}:{caller.tenant_id}:{caller.api_key_id}"


def _mark_written(caller: Caller) -> None:
    if not backoff.available():
        return
    try:
        redis_client().set(marker_key(caller), 1, ex=max(1, round(settings.DB_READ_YOUR_WRITES_SECONDS)))
    except REDIS_ERRORS as exc:
        backoff.failed("read-your-writes mark", exc)


def read_tolerating_lag(model, run: Callable[..., T], **hints) -> T:
    """`run(connection)` on the connection the router picks for a read that accepts the replica; when the
    replica fails it (the replica is down, PgBouncer cannot reach it, a recovery conflict cancelled the
    query) the same read runs on the primary, and the replica is skipped for a while."""
    alias = router.db_for_read(model, replica_ok=True, **hints)
    if alias != REPLICA:
        return run(connections[alias])
    try:
        return run(connections[REPLICA])
    except (OperationalError, psycopg.OperationalError) as exc:
        replica_backoff.failed("read", exc)
        connections[REPLICA].close()
        return run(connections[DEFAULT_DB_ALIAS])


def long_term_written() -> None:
    """Pin the current caller's searches to the primary: the router calls it for every ORM write of
    long-term rows; a request-path write in raw SQL (a COPY) must call it itself."""
    caller = current_caller.get()
    if caller is None or caller.wrote:
        return
    caller.wrote = True
    if replica_configured():
        # After commit (at once outside a transaction), so a rolled-back write pins nothing.
        transaction.on_commit(lambda: _mark_written(caller), using=DEFAULT_DB_ALIAS)


def caller_wrote_recently(caller: Caller) -> bool:
    """True when the caller's reads must see the primary: it wrote in this request, its marker is in
    Redis, or Redis cannot tell."""
    if caller.wrote:
        return True
    if not backoff.available():
        return True
    try:
        return bool(redis_client().exists(marker_key(caller)))
    except REDIS_ERRORS as exc:
        backoff.failed("read-your-writes check", exc)
        return True


class PrimaryReplicaRouter:
    """settings.DATABASE_ROUTERS: the primary for everything, the replica only for reads that accept it."""

    def db_for_read(self, model, **hints):
        if not hints.get("replica_ok") or not replica_configured() or not replica_backoff.available():
            return DEFAULT_DB_ALIAS
        if connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS
        caller = current_caller.get()
        if caller is not None and caller_wrote_recently(caller):
            return DEFAULT_DB_ALIAS
        return REPLICA

    def db_for_write(self, model, **hints):
        if model._meta.app_label in PINNING_APPS:
            long_term_written()
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        # The replica replays the primary's WAL: it is never migrated (and refuses writes anyway).
        return db == DEFAULT_DB_ALIAS
