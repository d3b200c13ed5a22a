"""Health reports each component; the worker shows up and goes down with a real worker process."""
import json
import os
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest

from memoryhub.embedded import embedded_redis
from tests.support.processes import BASE_DIR, stop_worker, wait_for

pytestmark = pytest.mark.django_db

PROBE = """
import django, json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
django.setup()
from django.test import Client
response = Client().get("/api/v1/health")
print(json.dumps({"status": response.status_code, "body": response.json()}))
"""


def _health_with(redis_url: str) -> dict:
    env = {**os.environ, "REDIS_URL": redis_url, "HEALTH_WORKER_TIMEOUT": "0.5"}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=BASE_DIR, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_health_is_public_and_reports_components(anon):
    response = anon.get("/api/v1/health")
    assert response.status_code == 200
    components = response.json()["components"]
    assert components["database"]["status"] == "up" and components["database"]["pgvector"]
    assert components["redis"]["status"] == "up"
    assert components["worker"]["status"] in ("up", "down")


def test_health_with_redis_down_still_answers_200():
    result = _health_with("redis://127.0.0.1:1/0")
    assert result["status"] == 200
    components = result["body"]["components"]
    assert components["redis"]["status"] == "down" and components["worker"]["status"] != "up"


@pytest.mark.worker
def test_worker_up_then_down(tmp_path: Path):
    """A private Redis, so no other worker can answer: none, then one started, then stopped."""
    with ExitStack() as stack:
        redis_url = stack.enter_context(embedded_redis(tmp_path / "redis"))
        assert _health_with(redis_url)["body"]["components"]["worker"]["status"] == "down"
        env = {**os.environ, "REDIS_URL": redis_url}
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "memoryhub", "worker", "-Q", "health-q", "-c", "1",
             "-n", "healthcheck@%h", "--without-gossip", "--without-mingle"],
            cwd=BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        stack.callback(stop_worker, worker)
        up = wait_for(lambda: _health_with(redis_url)["body"]["components"]["worker"]["status"] == "up",
                      timeout=60, message="worker to be reported up")
        assert up
        stop_worker(worker)
        wait_for(lambda: _health_with(redis_url)["body"]["components"]["worker"]["status"] == "down",
                 timeout=30, message="worker to be reported down")
