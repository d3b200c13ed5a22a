"""Keyed pseudonyms and digests for end users, so the audit chain never holds linkable user data.

A plain SHA-256 of "Shanghai" can be guessed; an HMAC under a per-user secret cannot, and once
erasure destroys the secret nothing in the chain can be tied back to the user.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from django.db import connection

from audit.models import SubjectKey


def _subject_secret(tenant_id: int, user_id: str) -> bytes:
    # Read first: the key exists for every user after their first event, so this is one query.
    select = "SELECT secret FROM audit_subjectkey WHERE tenant_id = %s AND user_id = %s"
    with connection.cursor() as cursor:
        cursor.execute(select, [tenant_id, user_id])
        row = cursor.fetchone()
        if row is None:
            cursor.execute(
                "INSERT INTO audit_subjectkey (tenant_id, user_id, secret, created_at) VALUES (%s, %s, %s, now()) "
                "ON CONFLICT (tenant_id, user_id) DO NOTHING",
                [tenant_id, user_id, secrets.token_bytes(32)],
            )
            cursor.execute(select, [tenant_id, user_id])
            row = cursor.fetchone()
        return bytes(row[0])


def subject_pseudonym(tenant_id: int, user_id: str) -> str:
    return hmac.new(_subject_secret(tenant_id, user_id), b"pseudonym", hashlib.sha256).hexdigest()[:32]


def subject_digest(tenant_id: int, user_id: str, content: str) -> str:
    """A digest of user content that only the holder of the user's secret can reproduce."""
    return hmac.new(_subject_secret(tenant_id, user_id), content.encode("utf-8"), hashlib.sha256).hexdigest()


def subject_key_destroy(*, tenant_id: int, user_id: str) -> int:
    deleted, _ = SubjectKey.objects.filter(tenant_id=tenant_id, user_id=user_id).delete()
    return deleted
