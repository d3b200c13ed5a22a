"""The process's Redis client for code that talks to Redis directly (rate limits, permanent snapshots,
access statistics): one connection pool, with the short socket timeouts from settings so that a Redis
outage costs a request at most REDIS_SOCKET_TIMEOUT."""
from __future__ import annotations

import threading

import redis
from django.conf import settings

_client: redis.Redis | None = None
_lock = threading.Lock()


def redis_client() -> redis.Redis:
    global _client
    if _client is None:
        with _lock:
            if _client is None:
                timeout = settings.REDIS_SOCKET_TIMEOUT
                _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=timeout,
                                               socket_connect_timeout=timeout)
    return _client
