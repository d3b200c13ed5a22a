"""Shared fixtures: tenants, API clients, and a real Celery worker process against the test database."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection
from rest_framework.test import APIClient

from audit.actors import Actor
from memoryhub.tenancy.services import api_key_create, tenant_get_or_create

BASE_DIR = Path(__file__).resolve().parent.parent
ALL_SCOPES = ["read", "write", "propose", "admin"]


class KeyedClient(APIClient):
    """An APIClient that speaks JSON and carries one API key."""

    def __init__(self, *args, api_key=None, plaintext=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.api_key = api_key
        self.plaintext = plaintext
        if plaintext:
            self.credentials(HTTP_AUTHORIZATION=f"Bearer {plaintext}")

    def post_json(self, path, body=None, **extra):
        return self.post(path, data=json.dumps(body), content_type="application/json", **extra)

    def patch_json(self, path, body=None, **extra):
        return self.patch(path, data=json.dumps(body), content_type="application/json", **extra)


@pytest.fixture
def make_tenant(db):
    def make(slug: str | None = None):
        tenant, _ = tenant_get_or_create(slug=slug or f"t-{uuid.uuid4().hex[:8]}")
        return tenant
    return make


@pytest.fixture
def tenant(make_tenant):
    return make_tenant("acme")


@pytest.fixture
def other_tenant(make_tenant):
    return make_tenant("globex")


@pytest.fixture
def make_client(db):
    def make(tenant, scopes=None, name="test key", created_by=None) -> KeyedClient:
        issued = api_key_create(tenant=tenant, name=name, scopes=scopes or ALL_SCOPES,
                                actor=Actor.system("tests"), created_by=created_by)
        return KeyedClient(api_key=issued.api_key, plaintext=issued.plaintext)
    return make


@pytest.fixture
def api(make_client, tenant) -> KeyedClient:
    return make_client(tenant)


@pytest.fixture
def other_api(make_client, other_tenant) -> KeyedClient:
    return make_client(other_tenant)


@pytest.fixture
def anon() -> KeyedClient:
    return KeyedClient()


def wait_for(predicate, *, timeout: float = 30.0, interval: float = 0.05, message: str = "condition"):
    """Poll until `predicate()` is truthy; fail with `message` at the deadline. Returns its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(interval)


def worker_env(queue: str) -> dict:
    env = dict(os.environ)
    env["DATABASE_NAME"] = connection.settings_dict["NAME"]
    env["CELERY_QUEUE"] = queue
    env["CELERY_VISIBILITY_TIMEOUT"] = "5"
    return env


def start_worker(queue: str, *, name: str, extra_env: dict | None = None, concurrency: int = 1,
                 log_path: Path | None = None) -> subprocess.Popen:
    from memoryhub.celery import app as celery_app

    celery_app.conf.task_default_queue = queue
    env = {**worker_env(queue), **(extra_env or {})}
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "memoryhub", "worker", "-Q", queue, "-c", str(concurrency),
         "-n", f"{name}@%h", "-l", "info", "--without-gossip", "--without-mingle"],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    wait_for(lambda: _worker_answers(f"{name}@"), timeout=60, message=f"worker {name} to start")
    return process


def _worker_answers(name_prefix: str) -> bool:
    from memoryhub.celery import app as celery_app

    replies = celery_app.control.ping(timeout=0.5)
    return any(name.startswith(name_prefix) for reply in replies for name in reply)


def stop_worker(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


_session_worker_started = False


def worker_idle() -> bool:
    """No task queued, reserved or running on the test queue (true when no worker answers)."""
    from memoryhub.celery import app

    if not app.control.ping(timeout=0.3):
        return True
    with app.connection_for_write() as conn:
        queued = conn.default_channel.client.llen(app.conf.task_default_queue)
    inspect = app.control.inspect(timeout=0.5)
    busy = [tasks for reply in (inspect.active() or {}, inspect.reserved() or {}) for tasks in reply.values()]
    return queued == 0 and not any(busy)


@pytest.fixture(autouse=True)
def settle_worker(request):
    """Writes enqueue formation work (through the outbox). Once the session's real worker runs, let
    it finish before a transactional test's database is flushed, so the flush never races a job
    holding row locks or writing rows the next test would see."""
    yield
    marker = request.node.get_closest_marker("django_db")
    if _session_worker_started and marker and marker.kwargs.get("transaction"):
        wait_for(worker_idle, timeout=60, interval=0.2, message="the worker to finish queued work")


@pytest.fixture(scope="session")
def celery_queue() -> str:
    return f"mh-test-{os.getpid()}"


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker, celery_queue, tmp_path_factory):
    """One real worker process for the session, consuming a queue of its own on the test database."""
    with django_db_blocker.unblock():
        log_path = tmp_path_factory.mktemp("worker") / "worker.log"
        process = start_worker(celery_queue, name=f"session-{os.getpid()}", log_path=log_path)
    global _session_worker_started
    _session_worker_started = True
    yield process
    stop_worker(process)
