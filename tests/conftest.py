"""Shared fixtures: tenants, API clients, and a real Celery worker process against the test database."""
from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import uuid

import pytest
from django.contrib.auth.models import Group, Permission
from rest_framework.test import APIClient

from memoryhub.console.roles import staff_groups_grant
from memoryhub.core.actors import Actor
from memoryhub.core.redis import backoff
from memoryhub.tenancy.models import Membership
from memoryhub.tenancy.services import api_key_create, tenant_get_or_create
from tests.support import processes as process_support
from tests.support.processes import (
    kill_group,
    start_worker,
    stop_worker,
    wait_for,
    worker_idle,
)

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
        tenant, _ = tenant_get_or_create(slug=slug or f"t-{uuid.uuid4().hex[:8]}", actor=Actor.system("test"))
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


_session_worker_started = False


def pytest_collection_modifyitems(items):
    """Every test that uses the session's worker carries the `worker` marker, so `-m "not worker"` is
    the fast lane (docs/architecture.md). Tests that start their own worker mark themselves; starting
    one without the marker fails (tests/support/processes.py)."""
    for item in items:
        if "celery_worker" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.worker)


@pytest.fixture(autouse=True)
def _current_test(request):
    process_support.current_test = request.node
    yield
    process_support.current_test = None


@pytest.fixture(autouse=True)
def _redis_backoff_cleared():
    """A test that made Redis fail must not leave the next one skipping Redis for the back-off."""
    backoff.reset()
    yield
    backoff.reset()


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


@pytest.fixture
def processes():
    """Everything a test spawns here is killed at the end, by process group."""
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        kill_group(process, signal.SIGTERM if process.poll() is None else signal.SIGKILL)


# ---- staff ----------------------------------------------------------------------------------------

_counter = itertools.count(1)


@pytest.fixture
def staff_groups(db):
    staff_groups_grant(group_model=Group, permission_model=Permission)


@pytest.fixture
def make_staff(db, staff_groups, django_user_model):
    def make(tenant=None, role: str | None = None, *, superuser: bool = False, username: str | None = None,
             password: str = "pw-Staff-12345"):
        username = username or f"{role or 'super'}{next(_counter)}"
        if superuser:
            user = django_user_model.objects.create_superuser(username=username, password=password, email="")
        else:
            user = django_user_model.objects.create_user(username=username, password=password, is_staff=True)
        if role:
            roles = role.split("+")
            for name in roles:
                Membership.objects.create(user=user, tenant=tenant, role=name)
                user.groups.add(Group.objects.get(name=name))
        return user
    return make


@pytest.fixture
def editor(make_staff, tenant):
    return make_staff(tenant, "editor", username="editor")


@pytest.fixture
def reviewer(make_staff, tenant):
    return make_staff(tenant, "reviewer", username="reviewer")


@pytest.fixture
def reviewer2(make_staff, tenant):
    return make_staff(tenant, "reviewer", username="reviewer2")


@pytest.fixture
def auditor(make_staff, tenant):
    return make_staff(tenant, "auditor", username="auditor")
