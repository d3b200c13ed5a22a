"""Small stdlib HTTP client shared by the benchmark scripts (no third-party dependency, thread-safe).

Every call opens its own connection (urllib): the service's gunicorn sync workers close connections
after each response anyway, so keep-alive would not change what is measured.
"""
from __future__ import annotations

import json
import math
import os
import time
import urllib.error
import urllib.request

DEFAULT_BASE_URL = os.environ.get("MEMORYHUB_BASE_URL", "http://127.0.0.1:8000")


class ApiError(Exception):
    def __init__(self, status: int, body: object, method: str, path: str):
        self.status, self.body, self.method, self.path = status, body, method, path
        shown = json.dumps(body, ensure_ascii=False) if isinstance(body, (dict, list)) else "(not JSON)"
        super().__init__(f"{method} {path} -> HTTP {status}: {shown[:500]}")

    @property
    def route_missing(self) -> bool:
        """A 404 from the URL router (no such endpoint), not the API's own 404 for a missing record."""
        return self.status in (404, 405) and not (isinstance(self.body, dict) and "error" in self.body)


class Client:
    def __init__(self, base_url: str, api_key: str | None, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def request(self, method: str, path: str, body: object | None = None) -> tuple[object, float]:
        """(decoded JSON or None, elapsed milliseconds). Raises ApiError on any non-2xx answer."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.api_key:
            req.add_header("Authorization", f"Bearer {self.api_key}")
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read()
                elapsed = (time.perf_counter() - started) * 1000
                return (json.loads(raw) if raw else None), elapsed
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                payload = json.loads(raw) if raw else None
            except ValueError:
                payload = raw[:500].decode("utf-8", "replace")
            raise ApiError(exc.code, payload, method, path) from None

    def post(self, path: str, body: object) -> tuple[object, float]:
        return self.request("POST", path, body)

    def wait_healthy(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                self.request("GET", "/api/v1/health")
                return
            except ApiError as exc:
                if exc.status == 503:  # up, but PostgreSQL is not: keep waiting
                    last = exc
                else:
                    return
            except OSError as exc:
                last = exc
            time.sleep(0.2)
        raise SystemExit(f"service at {self.base_url} did not answer /api/v1/health within {timeout:.0f}s: {last}")


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of a non-empty list; None for an empty one."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def resolve_api_key(value: str | None) -> str | None:
    return value or os.environ.get("MEMORYHUB_API_KEY") or None
