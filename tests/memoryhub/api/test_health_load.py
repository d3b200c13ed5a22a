"""Health under load and with stalled components, against a real web server (gunicorn, 4 threads).

A burst of unauthenticated health calls must never take the server's threads hostage (it used to:
about 48 concurrent calls left every thread waiting in kombu's connection pool, for good), and each
probe is time-boxed: a stalled PostgreSQL or Redis costs a health call a bounded wait.
"""
from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
import redis
from django.db import connection

from memoryhub.embedded import embedded_redis
from tests.support.processes import private_env, start_celery_worker, start_web, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 100


def _get(url: str, *, key: str | None = None, timeout: float = 30.0) -> tuple[int, dict, float]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"} if key else {})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, body = response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        status, body = error.code, json.loads(error.read())
    return status, body, time.monotonic() - started


def _burst(base: str) -> list[tuple[int, dict, float]]:
    with ThreadPoolExecutor(max_workers=BURST) as pool:
        return list(pool.map(lambda _: _get(f"{base}/api/v1/health"), range(BURST)))


def _assert_server_still_answers(base: str, key: str) -> None:
    status, body, took = _get(f"{base}/api/v1/whoami", key=key, timeout=10)
    assert status == 200 and body["tenant"] == "acme", body
    assert took < 3, f"an authenticated request took {took:.1f}s after the burst"


def _server(tmp_path, processes, redis_url: str, queue: str, **extra) -> str:
    env = private_env(redis_url, queue, HEALTH_WORKER_TIMEOUT="1.0", **extra)
    web, base = start_web(env, tmp_path / "web.log")
    processes.append(web)
    return base


def test_a_burst_of_health_calls_without_a_worker_leaves_the_server_answering(make_client, tenant, tmp_path,
                                                                              processes):
    """No worker: every uncached ping waits its whole timeout, the worst case for the burst."""
    key = make_client(tenant).plaintext
    with embedded_redis(tmp_path / "redis") as redis_url:
        base = _server(tmp_path, processes, redis_url, f"health-{os.getpid()}")
        started = time.monotonic()
        results = _burst(base)
        took = time.monotonic() - started
        assert [status for status, _, _ in results] == [200] * BURST
        workers = {body["components"]["worker"]["status"] for _, body, _ in results}
        assert workers <= {"down", "unknown"}, workers
        # One ping per process per WORKER_STATUS_TTL: a hundred calls cost about one ping timeout, not
        # a hundred of them queued behind four threads.
        assert took < 20, f"the burst took {took:.1f}s"
        _assert_server_still_answers(base, key)
        # and again, now that the cached answer is there
        assert {status for status, _, _ in _burst(base)} == {200}
        _assert_server_still_answers(base, key)


@pytest.mark.worker
def test_a_burst_of_health_calls_with_a_worker_reports_it_and_leaves_the_server_answering(make_client, tenant,
                                                                                          tmp_path, processes):
    key = make_client(tenant).plaintext
    queue = f"health-up-{os.getpid()}"
    with embedded_redis(tmp_path / "redis") as redis_url:
        env = private_env(redis_url, queue)
        processes.append(start_celery_worker(env, queue, "health-burst", tmp_path / "worker.log"))
        base = _server(tmp_path, processes, redis_url, queue)
        # A worker that just started may miss its first ping on a loaded machine; once health has seen it,
        # the burst must keep seeing it (cached, or one fresh ping).
        wait_for(lambda: _get(f"{base}/api/v1/health")[1]["components"]["worker"]["status"] == "up", timeout=60,
                 interval=0.5, message="health to see the worker")
        results = _burst(base)
        assert [status for status, _, _ in results] == [200] * BURST
        workers = [body["components"]["worker"] for _, body, _ in results]
        assert any(worker["status"] == "up" and worker["workers"] >= 1 for worker in workers), workers[:3]
        assert all(worker["status"] in ("up", "unknown") for worker in workers), workers
        _assert_server_still_answers(base, key)


def test_a_stalled_redis_costs_health_a_bounded_wait(make_client, tenant, tmp_path, processes):
    """Redis stopped mid-flight (SIGSTOP, so connections hang rather than fail): the shared client's
    socket timeouts end the probe, health still answers 200 (only PostgreSQL makes it 503), and the
    worker check is not attempted over a broker that cannot answer."""
    key = make_client(tenant).plaintext
    with embedded_redis(tmp_path / "redis") as redis_url:
        base = _server(tmp_path, processes, redis_url, f"health-stall-{os.getpid()}")
        assert _get(f"{base}/api/v1/health")[0] == 200
        pid = redis.Redis.from_url(redis_url).info()["process_id"]
        os.kill(pid, signal.SIGSTOP)
        try:
            with ThreadPoolExecutor(max_workers=8) as pool:
                results = list(pool.map(lambda _: _get(f"{base}/api/v1/health", timeout=15), range(8)))
            for status, body, took in results:
                assert status == 200, body
                assert body["components"]["redis"]["status"] == "down"
                assert body["components"]["worker"]["status"] != "up"
                assert took < 6, f"health took {took:.1f}s with Redis stalled"
        finally:
            os.kill(pid, signal.SIGCONT)
        _assert_server_still_answers(base, key)


def test_a_blocked_database_probe_is_cut_off_by_its_statement_timeout(make_client, tenant, tmp_path, processes):
    """The probe's catalog read waits behind a lock another session holds: its statement timeout ends
    the wait and health answers 503 with the database down, instead of hanging the thread."""
    key = make_client(tenant).plaintext
    with embedded_redis(tmp_path / "redis") as redis_url:
        base = _server(tmp_path, processes, redis_url, f"health-db-{os.getpid()}")
        assert _get(f"{base}/api/v1/health")[0] == 200
        _assert_server_still_answers(base, key)  # the web process has its catalog caches warm
        params = connection.get_connection_params()
        with psycopg.connect(**{k: v for k, v in params.items() if k in (
                "dbname", "user", "password", "host", "port")}) as blocker:
            blocker.execute("LOCK TABLE pg_extension IN ACCESS EXCLUSIVE MODE")
            status, body, took = _get(f"{base}/api/v1/health", timeout=15)
            blocker.rollback()
        assert status == 503, body
        assert body["components"]["database"]["status"] == "down", body
        assert took < 6, f"health took {took:.1f}s with the database probe blocked"
        assert _get(f"{base}/api/v1/health")[0] == 200
