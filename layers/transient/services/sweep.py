"""Forgetting expired task states: the beat job behind transient memory's TTL."""
from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from layers.short_term.models import Session
from layers.transient.models import LIVE_STATUSES, TaskState, TaskStatus
from layers.transient.services.task_states import resume_suspended

logger = logging.getLogger(__name__)

SWEEP_BATCH = 1000
SWEEP_MAX_PER_RUN = 50_000


def task_states_sweep_expired(*, now: datetime | None = None, dry_run: bool = False) -> dict:
    """Forget expired task states (deepest first), in batches, up to SWEEP_MAX_PER_RUN a run. A
    suspended parent whose sub-task expired is resumed in the state it left. With `dry_run`, only
    count. Safe to run concurrently: rows another run or request holds are left for the next run."""
    now = now or timezone.now()
    expired_rows = TaskState.objects.filter(expires_at__lte=now)
    if dry_run:
        return {"dry_run": True, "expired": 0, "resumed_parents": 0, "would_expire": expired_rows.count()}
    seen = expired = resumed = 0
    skipped: set[int] = set()
    while seen < SWEEP_MAX_PER_RUN:
        batch = list(expired_rows.exclude(pk__in=skipped).order_by("-depth", "expires_at")
                     .values_list("pk", flat=True)[:SWEEP_BATCH])
        if not batch:
            break
        seen += len(batch)
        for pk in batch:
            outcome = _sweep_one(pk, now=now)
            if outcome is None:
                skipped.add(pk)
                continue
            expired += 1
            resumed += outcome
    if expired:
        logger.info("swept %d expired task states, resumed %d parents", expired, resumed)
    return {"dry_run": False, "expired": expired, "resumed_parents": resumed, "would_expire": seen}


@transaction.atomic
def _sweep_one(pk: int, *, now: datetime) -> int | None:
    """Delete one expired task; 1 if that resumed its parent, 0 if not, None if skipped for now."""
    session_pk = TaskState.objects.filter(pk=pk).values_list("session_id", flat=True).first()
    # The one lock order (memoryhub/core/locks.py): the session's row before its tasks, as every task
    # write takes them. Deleting a task also clears its children's `parent` (SET NULL), which waits
    # for their rows; holding the session first means no task write is half-way through them.
    # Never waiting: a session a request holds is left for the next run.
    if session_pk is None or (Session.objects.select_for_update(no_key=True, skip_locked=True, of=("self",))
                              .filter(pk=session_pk).values_list("pk", flat=True).first()) is None:
        return None
    task = TaskState.objects.select_for_update(skip_locked=True).filter(pk=pk, expires_at__lte=now).first()
    if task is None:
        return None
    parent = None
    if task.parent_id is not None and task.status in LIVE_STATUSES:
        waiting = TaskState.objects.filter(pk=task.parent_id, status=TaskStatus.SUSPENDED, expires_at__gt=now)
        if waiting.exists():
            # Never wait on a parent a request holds (that request locks parent, then child):
            # skip this child now, the next run takes it.
            parent = waiting.select_for_update(skip_locked=True).select_related("task_type").first()
            if parent is None:
                return None
    task.delete()
    if parent is not None:
        resume_suspended(parent, now=now)
        return 1
    return 0
