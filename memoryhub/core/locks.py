"""PostgreSQL advisory locks, transaction-scoped: the one helper every layer takes them through.

A lock is named by a class (which kind of thing is locked) and a key (which one). Every class is
listed here, in the one order in which a transaction may take several of them (docs/architecture.md,
"Locks"): a formation job's session locks, then the user's memory lock, then the tenant's audit chain
(`audit_record` takes it last, when the change is written). Taking them in this order everywhere is
what keeps turn appends, formation jobs and erasure from deadlocking one another.
"""
from __future__ import annotations

import zlib

from django.db import connection

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
