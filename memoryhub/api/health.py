"""Liveness with each component's state. 503 only when PostgreSQL is down."""
from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.celery import app as celery_app


def database_status() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
        return {"status": "up", "pgvector": row[0] if row else None}
    except Exception as exc:
        return {"status": "down", "error": exc.__class__.__name__}


def redis_status() -> dict:
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=settings.REDIS_SOCKET_TIMEOUT,
                                      socket_timeout=settings.REDIS_SOCKET_TIMEOUT)
        client.ping()
        return {"status": "up"}
    except Exception as exc:
        return {"status": "down", "error": exc.__class__.__name__}


def worker_status() -> dict:
    try:
        replies = celery_app.control.ping(timeout=settings.HEALTH_WORKER_TIMEOUT)
    except Exception as exc:
        return {"status": "down", "workers": 0, "error": exc.__class__.__name__}
    return {"status": "up" if replies else "down", "workers": len(replies)}


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
        return Response(body, status=200 if database["status"] == "up" else 503)
