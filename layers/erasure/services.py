"""Erasing one end user: every layer, every history row, cached copies, and the audit subject key.

The audit chain is untouched: it only ever held the user under a keyed pseudonym and their content
as keyed digests. Destroying the user's `SubjectKey` makes those unlinkable; the erasure itself is
recorded as an event, and the chain still verifies.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import redis
from django.db import connection, transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from audit.subjects import subject_key_destroy
from layers.erasure.events import USER_ERASED, USER_EXPORTED
from layers.erasure.redis_purge import user_redis_purge
from layers.erasure.selectors import (
    history_rows_find,
    model_for,
    user_export,
    user_rows_find,
)
from layers.long_term.services.large_owners import owner_indexes_drop_on_commit
from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.core.locks import (
    FORMATION_EXTRACT,
    FORMATION_SUMMARISE,
    advisory_lock,
    deadlock_retry,
)
from memoryhub.outbox.models import OutboxTask
from memoryhub.tenancy.models import Tenant
from permanent.cache import invalidate_on_commit, user_snapshots_delete


class RedisUnavailable(DomainError):
    status_code = 503
    code = "redis_unavailable"


@dataclass(frozen=True)
class ErasureReport:
    deleted: dict[str, int]
    redis_keys: int

    def as_dict(self) -> dict:
        return {"deleted": self.deleted, "redis_keys": self.redis_keys}


def _outbox_rows_mentioning(user_id: str) -> list[int]:
    quoted = json.dumps(user_id)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM {OutboxTask._meta.db_table} WHERE strpos(args::text, %s) > 0 OR strpos(kwargs::text, %s) > 0",
            [quoted, quoted],
        )
        return [row[0] for row in cursor.fetchall()]


def _hold_off_writers(tenant_id: int, user_id: str) -> None:
    """Wait for running formation jobs on the user's sessions and for memory writes of the user, and
    keep new ones out until commit, in the one lock order of memoryhub/core/locks.py (the sessions'
    formation locks, then the sessions' rows, then the user's memory lock)."""
    from layers.long_term.services.create import lock_user_memories
    from layers.short_term.models import Session

    session_pks = Session.objects.filter(tenant_id=tenant_id, user_id=user_id).order_by("pk").values_list("pk", flat=True)
    for session_pk in session_pks:
        for lock_class in (FORMATION_EXTRACT, FORMATION_SUMMARISE):
            advisory_lock(lock_class, session_pk)
    # Then the sessions' rows, before any of their turns, tasks or entities is deleted: deleting those
    # children first would hold their rows while the session's DELETE waits for an append or a task
    # write that holds the session and wants the same child rows (the order's step 1 before the rest).
    list(Session.objects.select_for_update(of=("self",)).filter(pk__in=list(session_pks))
         .order_by("pk").values_list("pk", flat=True))
    lock_user_memories(tenant_id, user_id)


@deadlock_retry
def user_erase(*, tenant: Tenant, user_id: str, actor: Actor) -> ErasureReport:
    """Remove everything stored about `user_id` in `tenant`. Idempotent: erasing again finds nothing.

    Redis is purged before and after the database transaction (a reader may re-cache a copy in
    between), only under the user's own key prefix (layers/erasure/redis_purge.py); if Redis cannot be
    reached the erasure stops with 503 before deleting anything.
    """
    try:
        redis_keys = user_redis_purge(tenant.id, user_id)
        user_snapshots_delete(tenant.id, user_id)  # and this process's own copies
    except (redis.RedisError, OSError):
        raise RedisUnavailable(_("Redis is unreachable, so cached copies cannot be removed; nothing was erased. "
                                 "Try again."))

    deleted: dict[str, int] = {}
    with transaction.atomic():
        _hold_off_writers(tenant.id, user_id)
        rows = user_rows_find(tenant_id=tenant.id, user_id=user_id)
        # Children first, so nothing PROTECTed blocks and cascades add no surprises.
        for label in reversed(rows.order):
            model = model_for(label)
            count, _per_model = model.objects.filter(pk__in=rows.ids[label]).delete()
            if count:
                deleted[label] = deleted.get(label, 0) + len(rows.ids[label])
        # Deleting made one more history row per record (simple-history's "-" version): find all now.
        history = history_rows_find(rows=rows, tenant_id=tenant.id, user_id=user_id)
        for label in history.order:
            model = model_for(label)
            count, _per_model = model.objects.filter(history_id__in=history.ids[label]).delete()
            deleted[label] = count
        outbox_ids = _outbox_rows_mentioning(user_id)
        if outbox_ids:
            deleted[OutboxTask._meta.label_lower] = OutboxTask.objects.filter(id__in=outbox_ids).delete()[0]
        # the user's own large-owner indexes name them in their predicate: the job drops them after commit
        owner_indexes_drop_on_commit(tenant_id=tenant.id, user_id=user_id)
        audit_record(tenant_id=tenant.id, actor=actor, event=USER_ERASED,
                     object_id="-", after={"deleted": deleted}, subject_user_id=user_id)
        # Last: any audit write above needed the key; after this nothing can link the chain to the user.
        subject_key_destroy(tenant_id=tenant.id, user_id=user_id)
        invalidate_on_commit(tenant.id)

    try:
        redis_keys += user_redis_purge(tenant.id, user_id)
    except (redis.RedisError, OSError):
        pass  # the copies removed before the transaction were the ones that existed; snapshots expire
    return ErasureReport(deleted=deleted, redis_keys=redis_keys)


def user_export_deliver(*, tenant_id: int, user_id: str, actor: Actor) -> dict:
    """Everything stored about the user (see `user_export`), handed out with an audit event: giving
    someone's data away is itself worth a trace."""
    data = user_export(tenant_id=tenant_id, user_id=user_id)
    audit_record(tenant_id=tenant_id, actor=actor, event=USER_EXPORTED, object_id="-",
                 after={"rows": {label: len(items) for label, items in data.items()}}, subject_user_id=user_id)
    return data
