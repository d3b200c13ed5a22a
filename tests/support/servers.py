"""Separate Django server processes on the test database, to prove cross-process behaviour."""
from __future__ import annotations

import socket
import subprocess
import sys
from contextlib import contextmanager

import httpx2 as httpx
from django.db import connection

from tests.support.processes import BASE_DIR, wait_for, worker_env


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(base_url: str) -> bool:
    try:
        return httpx.get(f"{base_url}/api/v1/whoami", timeout=1).status_code == 401
    except httpx.HTTPError:
        return False


@contextmanager
def django_server(*, extra_env: dict | None = None, log_path=None):
    """`manage.py runserver --noreload` on a free port; yields its base URL."""
    port = _free_port()
    env = {**worker_env("unused"), "DATABASE_NAME": connection.settings_dict["NAME"], **(extra_env or {})}
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", "--nothreading", f"127.0.0.1:{port}"],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: process.poll() is not None or _answers(base_url), timeout=60,
                 message=f"server on port {port}")
        assert process.poll() is None, "the server exited at start"
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def admin_login(base_url: str, username: str, password: str) -> httpx.Client:
    client = httpx.Client(base_url=base_url, timeout=20, follow_redirects=False)
    client.get("/admin/login/")
    token = client.cookies["csrftoken"]
    response = client.post("/admin/login/?next=/admin/", data={"username": username, "password": password,
                                                               "csrfmiddlewaretoken": token})
    assert response.status_code == 302, response.text[:500]
    return client


def admin_post(client: httpx.Client, path: str, data: dict) -> httpx.Response:
    return client.post(path, data={**data, "csrfmiddlewaretoken": client.cookies["csrftoken"]})
