"""PostgreSQL advisory locks, transaction-scoped: the one helper every layer takes them through, the
one order they are taken in, and the one retry for a transaction PostgreSQL aborts as a deadlock victim.

A lock is named by a class (which kind of thing is locked) and a key (which one). A transaction that
waits for several locks waits for them in this one order (docs/architecture.md, "Locks"):

1. row locks on a session (`select_for_update`: a turn append, a session end, a summary, a task
   write), and only then rows under it: its tasks (outward from the one changed), turns, entities. The
   task sweep takes the session's row before a task's (never waiting, `skip_locked`); erasure takes
   the user's sessions' rows before it deletes anything under them;
2. a formation job's session locks (extract, then summarise) -- taken by the jobs with
   `advisory_lock_try`, which never waits, so a job may hold one before it locks the session's row;
   erasure waits for them, and holds no session row when it does (it takes the rows right after);
3. the user's memory lock (`USER_MEMORIES`);
4. the tenant's audit chain (`AUDIT_CHAIN`, taken by `audit_record` when the change is written).

`LOCK_ORDER` lists the advisory classes in that order. Nothing waits for a lock earlier in the list
while it holds a later one: a summarisation run, which writes a summary (audited) and then an episode
memory, takes the session row and the user's memory lock before its first audit event. The per-user
audit `SubjectKey` is created committed on its own connection (audit/subjects.py), so its unique
index entry is never held inside these transactions. `deadlock_retry` is the net under this order, not a
substitute for it: every API handler runs under it (memoryhub/api/views.py, `TenantAPIView`), and so
do the service entry points that take several locks (turn appends, formation runs, memory writes,
session end and expiry, task writes, erasure) for the callers that are not requests (console, jobs).
The outermost boundary retries; the ones nested in it pass through.
"""
from __future__ import annotations

import contextvars
import functools
import logging
import random
import time
import zlib
from typing import Callable, TypeVar

from django.db import OperationalError, connection

logger = logging.getLogger(__name__)
T = TypeVar("T")

# Classes are the first int of the two-int lock form; the values are kept from the first floor so
# that processes of either version exclude each other during a rolling deploy.
FORMATION_EXTRACT = 0x4658     # "FX": one extraction run per session
FORMATION_SUMMARISE = 0x4653   # "FS": one summarisation run per session
USER_MEMORIES = 0x4C54         # "LT": writes to one user's long-term memories (dedupe, supersession)
AUDIT_CHAIN = 0x4D48           # "MH": appends to one tenant's audit chain

LOCK_ORDER = (FORMATION_EXTRACT, FORMATION_SUMMARISE, USER_MEMORIES, AUDIT_CHAIN)


def lock_key(key: int | str) -> int:
    """The second int of the lock: an id folded into int4, or a stable hash of a composite name."""
    if isinstance(key, int):
        return key % 2**31
    return zlib.crc32(key.encode("utf-8")) - 2**31


def advisory_lock(lock_class: int, key: int | str) -> None:
    """Wait for the lock and hold it until the current transaction ends."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [lock_class, lock_key(key)])


def advisory_lock_try(lock_class: int, key: int | str) -> bool:
    """Take the lock until the current transaction ends if it is free; False when another holds it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [lock_class, lock_key(key)])
        return bool(cursor.fetchone()[0])


# PostgreSQL's deadlock victim (40P01) and serialisation failure (40001): the transaction was rolled
# back whole and running it again is correct.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})
DEADLOCK_ATTEMPTS = 4
# Set while a `deadlock_retry` boundary runs its function, so the boundaries nested in it pass through.
_retrying: contextvars.ContextVar[bool] = contextvars.ContextVar("deadlock_retrying", default=False)


def is_deadlock(exc: BaseException) -> bool:
    cause = exc.__cause__ if isinstance(exc, OperationalError) else None
    return getattr(cause, "sqlstate", None) in RETRYABLE_SQLSTATES


def deadlock_retry(fn: Callable[..., T]) -> Callable[..., T]:
    """Run `fn` (which opens its own `transaction.atomic`) again when PostgreSQL aborts it as a deadlock
    victim, a few times with a short random pause, so a client never sees the abort as a 500.

    Only at the outermost transaction: inside a caller's transaction the abort has already rolled back
    the caller's work too, so it propagates for the caller's own boundary to retry.
    """
    @functools.wraps(fn)
    def run(*args, **kwargs) -> T:
        if connection.in_atomic_block or _retrying.get():
            # An outer boundary (a caller's transaction, or an outer retry such as the API view's) runs
            # the whole again: retrying here too would multiply the attempts.
            return fn(*args, **kwargs)
        token = _retrying.set(True)
        try:
            for attempt in range(1, DEADLOCK_ATTEMPTS + 1):
                try:
                    return fn(*args, **kwargs)
                except OperationalError as exc:
                    if attempt == DEADLOCK_ATTEMPTS or not is_deadlock(exc):
                        raise
                    logger.warning("%s: transaction aborted by PostgreSQL (%s), attempt %d of %d",
                                   fn.__qualname__, exc.__cause__.sqlstate, attempt, DEADLOCK_ATTEMPTS)
                    # The other transaction finishes meanwhile; the jitter keeps two victims from colliding again.
                    time.sleep(random.uniform(0.005, 0.05) * attempt)
        finally:
            _retrying.reset(token)
        raise AssertionError("unreachable")
    return run
