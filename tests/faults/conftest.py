"""Processes a fault test starts, stops and kills itself: a private Redis, a web server and workers."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from memoryhub.embedded import _free_port
from tests.conftest import BASE_DIR, wait_for
from tests.layers.formation_jobs.conftest import talk  # noqa: F401  (fixture shared with the formation tests)


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
    process = spawn([sys.executable, "-m", "celery", "-A", "memoryhub", "worker", "-Q", queue, "-c", "1", "-n",
                     f"{name}@%h", "-l", "info", "--without-gossip", "--without-mingle"], env, log)
    wait_for(lambda: b"ready." in log.read_bytes() or (process.poll() is not None and pytest.fail(f"see {log}")),
             timeout=60, message=f"worker {name}")
    return process


class Http:
    def __init__(self, base: str, key: str):
        self.base, self.key = base, key

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body or {}).encode(), method="POST",
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


@pytest.fixture
def processes():
    """Everything a test spawns here is killed at the end, by process group."""
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        kill_group(process, signal.SIGTERM if process.poll() is None else signal.SIGKILL)
