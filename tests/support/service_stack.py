"""The whole service as separate processes for an end-to-end test: a gunicorn, a Celery worker and
Celery beat on the test database, each of which the test can kill (SIGKILL, its whole process group) and
start again; an HTTP client that speaks the API's JSON; /metrics scraped through HTTP."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from tests.support.processes import (
    kill_group,
    private_env,
    spawn,
    start_celery_worker,
    start_web,
    wait_for,
)

METRICS_TOKEN = "e2e-scrape-token-0123456789"


class Api:
    """JSON over HTTP with one API key; every answer is (status, body)."""

    def __init__(self, base: str, key: str):
        self.base, self.key = base, key

    def get(self, path: str) -> tuple[int, dict]:
        return self._send("GET", path)

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        return self._send("POST", path, body or {})

    def put(self, path: str, body: dict) -> tuple[int, dict]:
        return self._send("PUT", path, body)

    def _send(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.key}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


class ServiceStack:
    """gunicorn + worker (+ beat once asked for) on `queue`; logs under `logs`, one file per start."""

    def __init__(self, *, queue: str, logs: Path, redis_url: str | None = None):
        self.queue, self.logs = queue, logs
        env = private_env(redis_url or os.environ["REDIS_URL"], queue, METRICS_TOKEN=METRICS_TOKEN,
                          EMBEDDING_PROVIDER="local")
        self.env = {name: value for name, value in env.items() if not name.startswith("OPENAI_")}
        self.web = self.worker = self.beat = None
        self.base = ""
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        self.web, self.base = start_web(self.env, self.logs / f"web-{self.starts}.log")
        self.worker = start_celery_worker(self.env, self.queue, f"e2e-{self.queue}-{self.starts}",
                                          self.logs / f"worker-{self.starts}.log")

    def kill(self) -> None:
        """SIGKILL: no graceful shutdown, as a crash or an OOM kill would do."""
        for process in (self.web, self.worker):
            if process is not None:
                kill_group(process, signal.SIGKILL)

    def start_beat(self) -> None:
        log = self.logs / "beat.log"
        self.beat = spawn([sys.executable, "-m", "celery", "-A", "memoryhub", "beat", "-l", "info",
                           "-s", str(self.logs / "beat-schedule"), "--pidfile="], self.env, log)
        wait_for(lambda: b"beat: Starting" in log.read_bytes() or (self.beat.poll() is not None
                                                                   and _fail(f"beat exited; see {log}")),
                 timeout=60, message="celery beat")

    def beat_sent(self, task: str) -> int:
        """How many times beat has sent `task` so far (its log says so at each send)."""
        log = self.logs / "beat.log"
        return log.read_text(errors="replace").count(f"Sending due task {task}") if log.exists() else 0

    def worker_done(self, task: str) -> int:
        """How many runs of `task` the current worker finished (succeeded) so far."""
        log = self.logs / f"worker-{self.starts}.log"
        text = log.read_text(errors="replace")
        return sum(1 for line in text.splitlines() if f"Task {task}[" in line and " succeeded in " in line)

    def stop(self) -> None:
        for process in (self.beat, self.web, self.worker):
            if process is None:
                continue
            try:
                kill_group(process, signal.SIGTERM)
            except subprocess.TimeoutExpired:  # a warm shutdown that hangs ends by SIGKILL
                pass
            kill_group(process, signal.SIGKILL)

    def api(self, key: str) -> Api:
        return Api(self.base, key)

    def scrape(self) -> dict:
        """GET /metrics with the scrape token: {(sample name, sorted labels): value}."""
        request = urllib.request.Request(self.base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200
            text = response.read().decode()
        samples = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
        return samples


def _fail(message: str):
    raise AssertionError(message)


def forget_queue(queue: str) -> None:
    """The broker's keys for a queue of the test's own (kombu keeps its bindings after the workers are gone)."""
    from memoryhub.core.redis import redis_client

    client = redis_client()
    client.delete(queue, *client.keys(f"_kombu.binding*.{queue}"))

