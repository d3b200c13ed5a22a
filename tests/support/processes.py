"""Processes the tests start (Celery workers, web servers) and how they wait for them."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from memoryhub.embedded import _free_port

BASE_DIR = Path(__file__).resolve().parents[2]
# The test being run (set by tests/conftest.py), so that starting a worker can insist on its marker.
current_test = None


def _require_worker_marker() -> None:
    if current_test is not None and current_test.get_closest_marker("worker") is None:
        raise AssertionError(f"{current_test.nodeid} starts a Celery worker: mark it @pytest.mark.worker")


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
                 log_path: Path | None = None, app: str = "memoryhub") -> subprocess.Popen:
    """A real worker process on `queue`; `app="tests.support.pausing_worker"` for one that pauses mid-run."""
    _require_worker_marker()
    from memoryhub.celery import app as celery_app

    celery_app.conf.task_default_queue = queue
    env = {**worker_env(queue), **(extra_env or {})}
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", app, "worker", "-Q", queue, "-c", str(concurrency),
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


def private_env(redis_url: str, queue: str, **extra) -> dict:
    return {**os.environ, "REDIS_URL": redis_url, "CELERY_QUEUE": queue, "CELERY_VISIBILITY_TIMEOUT": "5",
            "DATABASE_NAME": connection.settings_dict["NAME"], "DEBUG": "true", **extra}


def spawn(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(args, cwd=BASE_DIR, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def kill_group(process: subprocess.Popen, sig=signal.SIGKILL) -> None:
    """Signal the process and everything it forked (workers run their tasks in child processes)."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        process.wait(30)


def start_web(env: dict, log: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    bin_dir = Path(sys.executable).parent
    process = spawn([str(bin_dir / "gunicorn"), "memoryhub.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                     "--threads", "4", "--timeout", "60"], env, log)
    base = f"http://127.0.0.1:{port}"

    def answers():
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=5):
                return True
        except urllib.error.HTTPError:
            return True
        except OSError:
            return process.poll() is not None and pytest.fail(f"web server exited; see {log}")
    wait_for(answers, timeout=60, message="the web server")
    return process, base


def start_celery_worker(env: dict, queue: str, name: str, log: Path) -> subprocess.Popen:
    _require_worker_marker()
    process = spawn([sys.executable, "-m", "celery", "-A", "memoryhub", "worker", "-Q", queue, "-c", "1", "-n",
                     f"{name}@%h", "-l", "info", "--without-gossip", "--without-mingle"], env, log)
    wait_for(lambda: b"ready." in log.read_bytes() or (process.poll() is not None and pytest.fail(f"see {log}")),
             timeout=60, message=f"worker {name}")
    return process


class Http:
    def __init__(self, base: str, key: str):
        self.base, self.key = base, key

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        return self._send(urllib.request.Request(
            self.base + path, data=json.dumps(body or {}).encode(), method="POST",
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}))

    def get(self, path: str) -> tuple[int, dict]:
        return self._send(urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {self.key}"}))

    @staticmethod
    def _send(request: urllib.request.Request) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


