"""A live memoryhub server (runserver on the test database, its own process) for the client's tests,
started once per session, and a fault-injecting proxy in front of it."""
from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from tests.support.processes import BASE_DIR, wait_for
from tests.support.servers import _free_port, django_server


@pytest.fixture(scope="session")
def live_url(django_db_setup, tmp_path_factory):
    with django_server(log_path=tmp_path_factory.mktemp("clients") / "server.log") as url:
        yield url


@pytest.fixture
def live_key(transactional_db, make_client, tenant):
    """A key of tenant acme with every scope, committed so the server process sees it."""
    return make_client(tenant).plaintext


@pytest.fixture
def other_key(transactional_db, make_client, other_tenant):
    return make_client(other_tenant).plaintext


@pytest.fixture
def read_key(transactional_db, make_client, tenant):
    return make_client(tenant, scopes=["read"]).plaintext


class FaultProxy:
    def __init__(self, url: str):
        self.url = url

    def queue(self, *faults: str) -> None:
        httpx.post(f"{self.url}/_faults", json={"faults": list(faults)}, timeout=5).raise_for_status()

    def log(self) -> list[list[str]]:
        return httpx.get(f"{self.url}/_log", timeout=5).json()


@pytest.fixture
def fault_proxy(live_url):
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "tests.clients.fault_proxy", live_url, str(port)],
                               cwd=BASE_DIR, start_new_session=True)
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        try:
            return httpx.get(f"{url}/_log", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_for(lambda: process.poll() is not None or answers(), timeout=30, message="fault proxy")
        assert process.poll() is None, "the fault proxy exited at start"
        yield FaultProxy(url)
    finally:
        process.terminate()
        process.wait(10)
