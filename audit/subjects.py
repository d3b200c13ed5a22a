"""Keyed pseudonyms and digests for end users, so the audit chain never holds linkable user data.

A plain SHA-256 of "Shanghai" can be guessed; an HMAC under a per-user secret cannot, and once
erasure destroys the secret nothing in the chain can be tied back to the user.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import secrets

from django.db import DatabaseError, connection, connections

from audit.models import SubjectKey


_SELECT = "SELECT secret FROM audit_subjectkey WHERE tenant_id = %s AND user_id = %s"
_INSERT = ("INSERT INTO audit_subjectkey (tenant_id, user_id, secret, created_at) VALUES (%s, %s, %s, now()) "
           "ON CONFLICT (tenant_id, user_id) DO NOTHING")
# How long the key's own connection waits for a row lock: only an erasure deleting the same user's key
# holds one for longer than an instant, and then the insert is made in the caller's transaction instead.
_SIDE_LOCK_TIMEOUT = "500ms"

logger = logging.getLogger(__name__)


def _subject_secret(tenant_id: int, user_id: str) -> bytes:
    # Read first: the key exists for every user after their first event, so this is one query.
    with connection.cursor() as cursor:
        cursor.execute(_SELECT, [tenant_id, user_id])
        row = cursor.fetchone()
        if row is None:
            _subject_key_create(tenant_id, user_id)
            cursor.execute(_SELECT, [tenant_id, user_id])
            row = cursor.fetchone()
        return bytes(row[0])


def _subject_key_create(tenant_id: int, user_id: str) -> None:
    """Create the user's key, committed at once on a connection of its own when the caller is inside a
    transaction.

    An insert into a unique index holds the key's index entry until the inserting transaction ends,
    and another inserter of the same key waits for it: a lock taken wherever a user's first event
    happens to be written, in no order with the session row, the formation and memory locks and the
    tenant's audit chain (memoryhub/core/locks.py), so appends and formation jobs deadlocked on it.
    Committed on its own, the key is never held; a key left behind by a transaction that rolled back
    is harmless (it pseudonymises nothing, and erasure deletes it with the rest).
    """
    secret = secrets.token_bytes(32)
    if not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(_INSERT, [tenant_id, user_id, secret])
        return
    side = connections.create_connection(connection.alias)
    try:
        # In a transaction of its own with SET LOCAL: behind a transaction-mode pooler (docs/deploy.md) a
        # session-level SET stays on the server connection, and the next client given it had its lock
        # waits cut at 500 ms (memory writes queued on a user's lock answered 500; tests/scaleout/).
        side.set_autocommit(False)
        with side.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{_SIDE_LOCK_TIMEOUT}'")
            cursor.execute(_INSERT, [tenant_id, user_id, secret])
        side.commit()
        return
    except DatabaseError as exc:
        # The key's row is being deleted (an erasure of this user, possibly by the caller itself):
        # insert in the caller's transaction, which then waits for that deletion as it always did.
        logger.info("subject key for tenant %s created in the caller's transaction: %s", tenant_id, exc)
    finally:
        side.close()
    with connection.cursor() as cursor:
        cursor.execute(_INSERT, [tenant_id, user_id, secret])


def subject_pseudonym(tenant_id: int, user_id: str) -> str:
    return hmac.new(_subject_secret(tenant_id, user_id), b"pseudonym", hashlib.sha256).hexdigest()[:32]


def subject_digest(tenant_id: int, user_id: str, content: str) -> str:
    """A digest of user content that only the holder of the user's secret can reproduce."""
    return hmac.new(_subject_secret(tenant_id, user_id), content.encode("utf-8"), hashlib.sha256).hexdigest()


def subject_key_destroy(*, tenant_id: int, user_id: str) -> int:
    deleted, _ = SubjectKey.objects.filter(tenant_id=tenant_id, user_id=user_id).delete()
    return deleted
