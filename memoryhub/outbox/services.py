"""Enqueue Celery work after commit, with PostgreSQL as the fallback when the broker is down."""
from __future__ import annotations

import logging
import os
import threading
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from psycopg.types.json import Jsonb

from memoryhub.core.redis import backoff
from memoryhub.outbox.models import OutboxTask

logger = logging.getLogger(__name__)


# After a failed publish, skip the broker (Redis) for a while through the process's one back-off:
# every request would otherwise wait for the connection timeout while Redis is down. The outbox
# sweeper sends what piles up meanwhile.


class BrokerUnavailable(Exception):
    pass


# Publishes go through connections of their own, bounded by OUTBOX_PUBLISH_TIMEOUT at every step (a
# free connection from the pool, connecting, the channel's ping, the LPUSH) and never retried: the
# publish after commit runs on the request's thread, and a stalled Redis answers nothing, so without
# these bounds the request waited for kombu's retries and the broker's socket timeout, one after the
# other (10-35 s). A publish that fails or times out leaves the row for the sweeper. The worker's own
# connections keep the broker settings (memoryhub/settings.py), which suit a long-lived consumer.
_pools: dict[int, object] = {}
_pools_lock = threading.Lock()


def _publish_pool():
    """The process's pool of publishing connections (one per process: a forked child builds its own)."""
    pid = os.getpid()
    pool = _pools.get(pid)
    if pool is None:
        with _pools_lock:
            pool = _pools.get(pid)
            if pool is None:
                timeout = settings.OUTBOX_PUBLISH_TIMEOUT
                options = {**current_app.conf.broker_transport_options, "socket_timeout": timeout,
                           "socket_connect_timeout": timeout, "retry_on_timeout": False, "max_retries": 0}
                connection = current_app.connection_for_write(transport_options=options, connect_timeout=timeout)
                pool = _pools[pid] = connection.Pool(limit=current_app.conf.broker_pool_limit or 10)
    return pool


def _send(task_name: str, args: list, kwargs: dict) -> None:
    if not backoff.available():
        raise BrokerUnavailable("broker marked unavailable after a recent failure")
    try:
        with _publish_pool().acquire(block=True, timeout=settings.OUTBOX_PUBLISH_TIMEOUT) as connection:
            # No result subscription: nothing waits for these results, and subscribing needs Redis too.
            current_app.send_task(task_name, args=args, kwargs=kwargs, ignore_result=True, connection=connection,
                                  retry=False)
    except Exception as exc:
        backoff.failed("publish", exc)
        raise


def broker_backoff_reset() -> None:
    """Forget a recorded broker failure (the sweeper calls this: it runs only when the broker works)."""
    backoff.reset()


def task_enqueue_on_commit(task_name: str, *, args: list | None = None, kwargs: dict | None = None,
                           dedupe_key: str = "") -> OutboxTask | None:
    """Record the task in the caller's transaction; send it to the broker once that commits.

    A failed send after commit is logged, never raised: the row stays pending for the sweeper.
    Returns None when an identical pending request (same `dedupe_key`) already exists.
    """
    args, kwargs = list(args or []), dict(kwargs or {})
    row = _pending_row_insert(task_name, args, kwargs, dedupe_key)
    if row is None:
        return None

    def send_after_commit():
        try:
            _send(task_name, args, kwargs)
        except Exception as exc:
            logger.warning("broker unavailable, %s stays in the outbox: %s", task_name, exc)
            OutboxTask.objects.filter(pk=row.pk).update(attempts=1, last_error=str(exc)[:500])
            return
        OutboxTask.objects.filter(pk=row.pk, sent_at__isnull=True).update(sent_at=timezone.now())

    transaction.on_commit(send_after_commit)
    return row


# One statement, no savepoint: a pending request for the same work (the partial unique index
# outbox_one_pending_per_key) makes the INSERT do nothing, where an INSERT that raised had to be wrapped in a
# savepoint of its own (SAVEPOINT, INSERT, RELEASE or ROLLBACK TO: three round trips) to keep the caller's
# transaction usable. A turn append records one of these every few turns (docs/benchmarks.md, issue 16).
_INSERT_PENDING = (
    f"INSERT INTO {OutboxTask._meta.db_table} (task_name, args, kwargs, dedupe_key, created_at, attempts, last_error) "
    "VALUES (%s, %s, %s, %s, %s, 0, '') ON CONFLICT DO NOTHING RETURNING id"
)


def _pending_row_insert(task_name: str, args: list, kwargs: dict, dedupe_key: str) -> OutboxTask | None:
    """The new pending row, or None when one with this dedupe key is pending already."""
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(_INSERT_PENDING, [task_name, Jsonb(args), Jsonb(kwargs), dedupe_key, now])
        inserted = cursor.fetchone()
    if inserted is None:
        return None
    return OutboxTask(pk=inserted[0], task_name=task_name, args=args, kwargs=kwargs, dedupe_key=dedupe_key,
                      created_at=now)


def outbox_flush(*, older_than: timedelta = timedelta(seconds=5), limit: int = 500) -> dict:
    """Send pending rows the after-commit hook could not send. Safe to run from many processes."""
    cutoff = timezone.now() - older_than
    broker_backoff_reset()
    sent = failed = 0
    with transaction.atomic():
        rows = list(
            OutboxTask.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, created_at__lte=cutoff).order_by("id")[:limit]
        )
        for row in rows:
            try:
                _send(row.task_name, row.args, row.kwargs)
            except Exception as exc:
                failed += 1
                row.attempts += 1
                row.last_error = str(exc)[:500]
                row.save(update_fields=["attempts", "last_error"])
                break  # the broker is down; the rest would fail the same way
            row.sent_at = timezone.now()
            row.attempts += 1
            row.save(update_fields=["sent_at", "attempts"])
            sent += 1
    # Sent rows are only bookkeeping; keep a day of them for inspection.
    OutboxTask.objects.filter(sent_at__lt=timezone.now() - timedelta(days=1)).delete()
    return {"sent": sent, "failed": failed}
