"""Per-key rate limits: counted per key in Redis, 429 in the error format past the rate, open when Redis is down."""
import pytest
from django.test import override_settings

from memoryhub.api import throttling

pytestmark = pytest.mark.django_db


def _rates(rate):
    from django.conf import settings

    return override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"api_key": rate}})


def test_past_the_rate_is_429_per_key(api, other_api):
    with _rates("3/hour"):
        assert [api.get("/api/v1/whoami").status_code for _ in range(3)] == [200, 200, 200]
        response = api.get("/api/v1/whoami")
        assert response.status_code == 429
        error = response.json()["error"]
        assert error["code"] == "rate_limited" and 0 < error["details"]["retry_after_seconds"] <= 3600
        assert other_api.get("/api/v1/whoami").status_code == 200, "another key has its own budget"


def test_unreachable_redis_fails_open(api, monkeypatch):
    import redis

    from memoryhub.core.redis import backoff

    unreachable = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    monkeypatch.setattr(throttling, "redis_client", lambda: unreachable)
    backoff.reset()
    with _rates("1/hour"):
        assert [api.get("/api/v1/whoami").status_code for _ in range(3)] == [200, 200, 200]
    assert not backoff.available(), "the failure started the shared back-off"
