"""Liveness with each component's state. 503 only when PostgreSQL is down."""
from __future__ import annotations

import threading
import time

from celery import current_app
from django.conf import settings
from django.db import connection, connections, transaction
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.core.db_router import REPLICA, replica_backoff, replica_configured
from memoryhub.core.redis import redis_client


# Each probe is time-boxed so that a stalled component costs a health call a bounded wait, never a
# hung thread: PostgreSQL by a statement timeout local to the probe's transaction (and the connection
# attempt by the connect_timeout in settings), Redis by the shared client's socket timeouts, the
# worker by HEALTH_WORKER_TIMEOUT (and asked at most once per WORKER_STATUS_TTL per process).
DATABASE_PROBE_TIMEOUT_MS = 1000


def database_status() -> dict:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [f"{DATABASE_PROBE_TIMEOUT_MS}ms"])
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
        return {"status": "up", "pgvector": row[0] if row else None}
    except Exception as exc:
        return {"status": "down", "error": exc.__class__.__name__}


# Seconds the replica is behind: 0 when it has replayed everything it received, else the age of the last
# transaction it replayed (a primary with no writes lately looks "behind" by that age; see docs/deploy.md).
_REPLICA_LAG_SQL = ("SELECT pg_is_in_recovery(), CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() "
                    "THEN 0 ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END")


def replica_status() -> dict:
    """The read replica's state and lag; never fails health (searches fall back to the primary)."""
    try:
        with transaction.atomic(using=REPLICA), connections[REPLICA].cursor() as cursor:
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [f"{DATABASE_PROBE_TIMEOUT_MS}ms"])
            cursor.execute(_REPLICA_LAG_SQL)
            in_recovery, lag = cursor.fetchone()
    except Exception as exc:
        connections[REPLICA].close()
        return {"status": "down", "error": exc.__class__.__name__, "reads_skip_it": not replica_backoff.available()}
    return {"status": "up" if in_recovery else "not_a_replica", "lag_seconds": round(float(lag or 0), 3),
            "reads_skip_it": not replica_backoff.available()}


def redis_status() -> dict:
    try:
        redis_client().ping()  # the shared pool, whose socket timeouts bound the call
        return {"status": "up"}
    except Exception as exc:
        return {"status": "down", "error": exc.__class__.__name__}


# The worker check is a broadcast over the broker that waits HEALTH_WORKER_TIMEOUT for replies: far
# too slow to repeat for every caller. One thread per process asks (on its own broker connection, so
# it never holds a pooled one while waiting for another); everyone else gets the last answer, which
# is kept for WORKER_STATUS_TTL seconds. A burst of health calls thus costs one ping.
WORKER_STATUS_TTL = 5.0
_worker_lock = threading.Lock()
_worker_cached: tuple[float, dict] | None = None


def _worker_ping() -> dict:
    try:
        with current_app.connection_for_write() as connection:
            # Celery's control mailbox publishes through the app's producer pool even when given a
            # connection: that is one pooled broker connection taken while holding another. A copy bound
            # to our own connection, without the pool, publishes and collects on that one connection.
            mailbox = current_app.control.mailbox(connection)
            mailbox._producer_pool = None
            replies = mailbox._broadcast("ping", reply=True, timeout=settings.HEALTH_WORKER_TIMEOUT) or []
    except Exception as exc:
        return {"status": "down", "workers": 0, "error": exc.__class__.__name__}
    return {"status": "up" if replies else "down", "workers": len(replies)}


def worker_status() -> dict:
    global _worker_cached
    cached = _worker_cached
    if cached is not None and time.monotonic() - cached[0] < WORKER_STATUS_TTL:
        return cached[1]
    if not _worker_lock.acquire(blocking=False):  # another thread is asking right now
        return cached[1] if cached is not None else {"status": "unknown", "workers": 0, "error": "checking"}
    try:
        status = _worker_ping()
        _worker_cached = (time.monotonic(), status)
        return status
    finally:
        _worker_lock.release()


class HealthView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes: list = []

    @extend_schema(summary="Liveness and component status", responses={200: dict, 503: dict})
    def get(self, request):
        database = database_status()
        cache = redis_status()
        worker = worker_status() if cache["status"] == "up" else {"status": "unknown", "workers": 0,
                                                                     "error": "broker unreachable"}
        body = {
            "status": "ok" if database["status"] == "up" else "down",
            "components": {"database": database, "redis": cache, "worker": worker},
        }
        if replica_configured():
            body["components"]["replica"] = replica_status()
        return Response(body, status=200 if database["status"] == "up" else 503)
