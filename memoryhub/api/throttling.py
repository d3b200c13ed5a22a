"""Per-key rate limits: one Redis round trip a request, failing open when Redis is unreachable.

A fixed window counter (INCR + EXPIRE in one pipeline) instead of DRF's history list, which costs a
read and a write of a growing list per request on the hot path.
"""
from __future__ import annotations

import time

import redis
from django.conf import settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from memoryhub.core.redis import backoff, redis_client


class ApiKeyRateThrottle(BaseThrottle):
    scope = "api_key"

    def __init__(self):
        rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][self.scope]
        self.num_requests, self.period = SimpleRateThrottle.parse_rate(None, rate)
        self.wait_seconds: float | None = None

    def allow_request(self, request, view):
        api_key = request.auth
        if api_key is None or not hasattr(api_key, "prefix"):
            return True
        # The shared back-off: Redis known down means allow.
        if not backoff.available():
            return True
        now = time.time()
        window = int(now // self.period)
        key = f"mh:throttle:{api_key.prefix}:{window}"
        try:
            pipe = redis_client().pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, self.period + 1)
            count, _ = pipe.execute()
        except redis.RedisError as exc:
            # The next requests skip Redis instead of each waiting on it.
            backoff.failed("rate limit", exc)
            return True
        if count <= self.num_requests:
            return True
        self.wait_seconds = (window + 1) * self.period - now
        return False

    def wait(self):
        return self.wait_seconds
