"""Redis for the whole process: one client, one back-off, and the cache wrapped so that an unreachable
Redis is a cache miss, never an error.

Every direct Redis user (rate limits, permanent snapshots, access statistics, health, erasure's purge)
takes `redis_client()`; every one of them reports a failure to `backoff.failed(...)` and asks
`backoff.available()` first. After a failure Redis is skipped for `BACKOFF_SECONDS`, so requests do
not each wait for the socket timeout while Redis is down. The broker (Celery's connection to the same
Redis) shares the same back-off through the outbox.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches

logger = logging.getLogger(__name__)

BACKOFF_SECONDS = 5.0
# What a Redis call raises when the server is away or stalled (the socket timeouts end a stall).
REDIS_ERRORS = (redis.RedisError, OSError)


class Backoff:
    """A process-wide switch: after a failure, skip Redis for a few seconds."""

    def __init__(self, seconds: float = BACKOFF_SECONDS, service: str = "Redis"):
        self.seconds = seconds
        self.service = service
        self._down_until = 0.0
        self._lock = threading.Lock()

    def available(self) -> bool:
        return time.monotonic() >= self._down_until

    def failed(self, operation: str, exc: BaseException) -> None:
        with self._lock:
            self._down_until = time.monotonic() + self.seconds
        logger.warning("%s %s failed, skipping it for %ss: %s", self.service, operation, self.seconds, exc)

    def reset(self) -> None:
        """Forget a recorded failure (a sweeper that just reached Redis, or a test)."""
        with self._lock:
            self._down_until = 0.0


backoff = Backoff()

_client: redis.Redis | None = None
_client_lock = threading.Lock()


def redis_client() -> redis.Redis:
    """The process's client: one connection pool, with the short socket timeouts from settings so that
    an outage or a stalled server costs a call at most REDIS_SOCKET_TIMEOUT."""
    global _client
    if _client is None:
        with _client_lock:
            if _client is None:
                timeout = settings.REDIS_SOCKET_TIMEOUT
                _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=timeout,
                                               socket_connect_timeout=timeout)
    return _client


class ResilientCache:
    """Django's Redis cache behind the shared back-off: failures are misses."""

    def __init__(self, alias: str = "default"):
        self.alias = alias

    @property
    def backend(self):
        return caches[self.alias]

    @staticmethod
    def available() -> bool:
        return backoff.available()

    @staticmethod
    def mark_unavailable(operation: str, exc: Exception) -> None:
        backoff.failed(operation, exc)

    def _call(self, operation: str, default: Any, *args, **kwargs):
        if not backoff.available():
            return default
        try:
            return getattr(self.backend, operation)(*args, **kwargs)
        except Exception as exc:
            backoff.failed(operation, exc)
            return default

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", default, key, default)

    def set(self, key: str, value: Any, timeout: float | None = None) -> bool:
        return self._call("set", False, key, value, timeout) is not False

    def add(self, key: str, value: Any, timeout: float | None = None) -> bool:
        return bool(self._call("add", False, key, value, timeout))

    def delete(self, key: str) -> bool:
        return bool(self._call("delete", False, key))

    def delete_many(self, keys: list[str]) -> None:
        self._call("delete_many", None, keys)

    def get_many(self, keys: list[str]) -> dict:
        return self._call("get_many", {}, keys)

    def incr(self, key: str, delta: int = 1) -> int | None:
        return self._call("incr", None, key, delta)


cache = ResilientCache()


# --- keys of values that belong to one end user ----------------------------------------------------
# Every value cached for one end user lives under `user_key_prefix(tenant_id, user_id)`, so erasing
# the user deletes exactly that prefix (layers/erasure/redis_purge.py) and nothing of another user,
# another tenant, Celery or anyone else, whatever the id is. The id is hashed: no key carries it in
# clear, and no choice of id ("*", "_kombu.binding.celery", "mh:", another tenant's user id) can make
# the prefix match a foreign key. The database's OID keeps a recreated database (a new test run, which
# restarts tenant ids) from meeting values cached for the previous one on the same Redis.

USER_KEY_ROOT = "mh:user"
_database_token: str | None = None


def database_token() -> str:
    global _database_token
    if _database_token is None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
            _database_token = str(cursor.fetchone()[0])
    return _database_token


def user_token(user_id: str) -> str:
    import hashlib

    return hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:40]


def user_key_prefix(tenant_id: int, user_id: str) -> str:
    """`mh:user:<db>:<tenant>:<sha256(user id)>:`; the key of one of the user's values appends its name."""
    return f"{USER_KEY_ROOT}:{database_token()}:{int(tenant_id)}:{user_token(user_id)}:"
