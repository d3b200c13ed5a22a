"""Small stdlib HTTP client shared by the benchmark scripts (no third-party dependency, thread-safe).

Each thread keeps one persistent HTTP/1.1 connection, as an agent's HTTP client with a connection pool
would: the service's gunicorn (threaded workers) keeps connections alive, and a new TCP connection per
call would measure the load generator's connect/teardown cost rather than the service. A connection
the server closed while idle is reopened once.
"""
from __future__ import annotations

import http.client
import json
import math
import os
import threading
import time
import urllib.parse

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
        parts = urllib.parse.urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base URL must be http(s)://host[:port], not {base_url!r}")
        self._connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        self._netloc, self._path_prefix = parts.netloc, parts.path.rstrip("/")
        self._local = threading.local()

    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is not None and fresh:
            connection.close()
            connection = None
        if connection is None:
            connection = self._connection_class(self._netloc, timeout=self.timeout)
            self._local.connection = connection
        return connection

    def request(self, method: str, path: str, body: object | None = None) -> tuple[object, float]:
        """(decoded JSON or None, elapsed milliseconds). Raises ApiError on any non-2xx answer."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        for attempt in range(2):
            connection = self._connection(fresh=attempt > 0)
            reused = connection.sock is not None
            started = time.perf_counter()
            try:
                connection.request(method, self._path_prefix + path, body=data, headers=headers)
                resp = connection.getresponse()
                raw = resp.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # On a reused connection this is the server's keep-alive timeout closing it while idle;
                # retry once on a new one (the scripts' writes carry client ids, so none can double).
                if reused and attempt == 0:
                    continue
                connection.close()
                raise
            except OSError:
                connection.close()
                raise
            except http.client.HTTPException as exc:  # a garbled answer: report it as a connection fault
                connection.close()
                raise ConnectionError(f"{method} {path}: {exc!r}") from exc
            elapsed = (time.perf_counter() - started) * 1000
            break
        if 200 <= resp.status < 300:
            return (json.loads(raw) if raw else None), elapsed
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = raw[:500].decode("utf-8", "replace")
        raise ApiError(resp.status, payload, method, path)

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


def latency_summary(values: list[float]) -> dict:
    """n, p50 and p95 in milliseconds, as the overhead benches report each path."""
    return {"n": len(values), "p50_ms": round(percentile(values, 50), 2), "p95_ms": round(percentile(values, 95), 2)}


# The searches the overhead benches (bench/client_overhead.py, bench/mcp_overhead.py) time on both paths.
OVERHEAD_QUERIES = ["what is the user allergic to?", "where does the user live?", "what are the user's hobbies?",
                    "which job does the user have?", "用户喜欢吃什么？"]


def resolve_api_key(value: str | None) -> str | None:
    return value or os.environ.get("MEMORYHUB_API_KEY") or None
