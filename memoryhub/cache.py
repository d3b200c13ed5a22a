"""The shared Redis cache, wrapped so that an unreachable Redis is a cache miss, never an error.

After a failure the cache is skipped for a few seconds, so requests do not each wait for the
connection timeout while Redis is down.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache import caches

logger = logging.getLogger(__name__)

BACKOFF_SECONDS = 5.0


class ResilientCache:
    def __init__(self, alias: str = "default"):
        self.alias = alias
        self._down_until = 0.0
        self._lock = threading.Lock()

    @property
    def backend(self):
        return caches[self.alias]

    def available(self) -> bool:
        return time.monotonic() >= self._down_until

    def mark_unavailable(self, operation: str, exc: Exception) -> None:
        """Start the back-off (also for direct Redis users sharing it, such as the rate limiter)."""
        with self._lock:
            self._down_until = time.monotonic() + BACKOFF_SECONDS
        logger.warning("redis %s failed, skipping Redis for %ss: %s", operation, BACKOFF_SECONDS, exc)

    def _call(self, operation: str, default: Any, *args, **kwargs):
        if not self.available():
            return default
        try:
            return getattr(self.backend, operation)(*args, **kwargs)
        except Exception as exc:
            self.mark_unavailable(operation, exc)
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
