"""memoryhub/api/views.py, memoryhub/api/errors.py: a request PostgreSQL aborts as a deadlock victim is
run again whole and answers as if nothing had happened; one that keeps losing answers 503 in the error
format with Retry-After, never 500.

Each deadlock here is real: a second connection takes a lock the request is about to wait for, waits
until PostgreSQL shows the request blocked behind it, then asks for a lock the request already holds.
That connection runs with a long `deadlock_timeout`, so PostgreSQL's detector fires in the request's
backend (which waited first) and the request is the victim every time.
"""
from __future__ import annotations

import logging
import threading

import pytest
from django.db import connection, transaction

from audit.models import AuditEvent
from audit.selectors import audit_chain_verify
from layers.long_term.models import Memory
from layers.long_term.services.create import lock_user_memories
from layers.short_term.models import Session
from layers.transient.models import TaskState
from layers.transient.services import task_type_create
from memoryhub.core.actors import Actor
from memoryhub.core.locks import AUDIT_CHAIN, DEADLOCK_ATTEMPTS, advisory_lock
from tests.support.processes import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _blocked_behind(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # the view is otherwise frozen for the transaction
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [pid])
        return cursor.fetchone()[0] > 0


def _deadlock_with(send, *, first, second):
    """Run `send()` (an HTTP request) in a thread while another connection takes `first()` (a lock the
    request will wait for) and, once the request is blocked behind it, `second()` (one it holds)."""
    result, failures = {}, []
    opposite_ready = threading.Event()
    opposite_pid: list[int] = []

    def opposite():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL deadlock_timeout = '60s'")
                    cursor.execute("SELECT pg_backend_pid()")
                    opposite_pid.append(cursor.fetchone()[0])
                first()
                opposite_ready.set()
                wait_for(lambda: _blocked_behind(opposite_pid[0]), timeout=60, message="the request to block")
                second()  # granted only once PostgreSQL has aborted the request's transaction
                result["opposite_got_both"] = True
                transaction.set_rollback(True)
        except BaseException as exc:  # surfaced by the test
            failures.append(exc)
            opposite_ready.set()
        finally:
            connection.close()

    def request():
        try:
            opposite_ready.wait(60)
            result["response"] = send()
        except BaseException as exc:  # the test client re-raises a view's exception: a 500 over HTTP
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=opposite), threading.Thread(target=request)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    assert [repr(exc)[:300] for exc in failures] == []
    assert result.get("opposite_got_both"), "the deadlock was not provoked"
    return result["response"]


def _retries_logged(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records
            if record.name == "memoryhub.core.locks" and "40P01" in record.getMessage()]


@pytest.fixture
def memory(api):
    response = api.post_json("/api/v1/memories", {"user_id": "alice", "kind": "preference",
                                                  "content": "Alice likes green tea."})
    assert response.status_code == 201
    return Memory.objects.get(pk=response.json()["id"])


def _lock_chain(tenant):
    return lambda: advisory_lock(AUDIT_CHAIN, tenant.id)


def _lock_row(model, pk):
    return lambda: list(model.objects.select_for_update().filter(pk=pk).values_list("pk", flat=True))


def test_a_memory_patch_that_loses_a_deadlock_is_retried(api, tenant, memory, caplog):
    caplog.set_level(logging.WARNING, logger="memoryhub.core.locks")
    events_before = AuditEvent.objects.filter(tenant_id=tenant.id).count()
    response = _deadlock_with(lambda: api.patch_json(f"/api/v1/memories/{memory.pk}", {"content": "Alice likes oolong."}),
                              first=_lock_chain(tenant), second=_lock_row(Memory, memory.pk))
    assert response.status_code == 200, response.content
    assert response.json()["content"] == "Alice likes oolong."
    assert len(_retries_logged(caplog)) == 1, "exactly one attempt was a victim"
    assert AuditEvent.objects.filter(tenant_id=tenant.id).count() == events_before + 1, "the change audited once"
    assert audit_chain_verify(tenant_id=tenant.id).ok


@pytest.mark.parametrize("method, path, status", [
    ("delete", "/api/v1/memories/{pk}", 200),
    ("post", "/api/v1/memories/{pk}/restore", 200),
])
def test_memory_delete_and_restore_survive_a_deadlock(api, tenant, memory, caplog, method, path, status):
    caplog.set_level(logging.WARNING, logger="memoryhub.core.locks")
    if "restore" in path:
        assert api.delete(f"/api/v1/memories/{memory.pk}").status_code == 200
    response = _deadlock_with(lambda: getattr(api, method)(path.format(pk=memory.pk)),
                              first=_lock_chain(tenant), second=_lock_row(Memory, memory.pk))
    assert response.status_code == status, response.content
    assert response.json()["status"] == ("active" if "restore" in path else "deleted")
    assert len(_retries_logged(caplog)) == 1


def test_a_memory_create_that_loses_a_deadlock_is_stored_once(api, tenant, memory, caplog):
    caplog.set_level(logging.WARNING, logger="memoryhub.core.locks")
    response = _deadlock_with(
        lambda: api.post_json("/api/v1/memories", {"user_id": "alice", "kind": "fact", "content": "Alice lives in Lyon."}),
        first=_lock_chain(tenant), second=lambda: lock_user_memories(tenant.id, "alice"))
    assert response.status_code == 201, response.content
    assert Memory.objects.filter(tenant=tenant, content="Alice lives in Lyon.").count() == 1
    assert len(_retries_logged(caplog)) == 1


def test_a_session_end_that_loses_a_deadlock_is_retried(api, tenant, caplog):
    caplog.set_level(logging.WARNING, logger="memoryhub.core.locks")
    assert api.post_json("/api/v1/sessions", {"session_id": "s-1", "user_id": "alice"}).status_code == 201
    session = Session.objects.get(tenant=tenant, session_id="s-1")
    response = _deadlock_with(lambda: api.post("/api/v1/sessions/s-1/end"),
                              first=_lock_chain(tenant), second=_lock_row(Session, session.pk))
    assert response.status_code == 200, response.content
    session.refresh_from_db()
    assert session.status == "ended"
    assert len(_retries_logged(caplog)) == 1


def test_a_task_write_that_loses_a_deadlock_is_retried(api, tenant, caplog):
    caplog.set_level(logging.WARNING, logger="memoryhub.core.locks")
    task_type_create(tenant=tenant, name="check_weather", required_slots=["city"], actor=Actor.system("tests"))
    assert api.post_json("/api/v1/sessions", {"session_id": "s-2", "user_id": "alice"}).status_code == 201
    created = api.post_json("/api/v1/sessions/s-2/tasks", {"task_type": "check_weather"})
    assert created.status_code == 201, created.content
    task_pk = created.json()["id"]
    session_pk = Session.objects.get(tenant=tenant, session_id="s-2").pk
    # The task write holds the session row and waits for the task's; the other side the reverse.
    response = _deadlock_with(lambda: api.patch_json(f"/api/v1/tasks/{task_pk}", {"slots": {"city": "Lyon"}}),
                              first=_lock_row(TaskState, task_pk), second=_lock_row(Session, session_pk))
    assert response.status_code == 200, response.content
    assert TaskState.objects.get(pk=task_pk).slots == {"city": "Lyon"}
    assert len(_retries_logged(caplog)) == 1


def test_an_erasure_that_loses_a_deadlock_is_retried(api, tenant, memory, caplog):
    caplog.set_level(logging.WARNING, logger="memoryhub.core.locks")
    response = _deadlock_with(lambda: api.delete("/api/v1/users/alice"),
                              first=_lock_chain(tenant), second=lambda: lock_user_memories(tenant.id, "alice"))
    assert response.status_code == 200, response.content
    assert not Memory.objects.filter(tenant=tenant, user_id="alice").exists()
    assert len(_retries_logged(caplog)) == 1
    assert audit_chain_verify(tenant_id=tenant.id).ok


@pytest.fixture
def serialisation_failures():
    """A trigger that makes PostgreSQL fail every update of a memory with 40001, counting the attempts
    in a sequence (which a rollback does not undo)."""
    table = Memory._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("CREATE SEQUENCE test_update_attempts")
        cursor.execute("""CREATE FUNCTION test_fail_serialisation() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM nextval('test_update_attempts');
            RAISE EXCEPTION 'could not serialize access' USING ERRCODE = '40001'; END $$""")
        cursor.execute(f"CREATE TRIGGER test_fail_serialisation BEFORE UPDATE ON {table} "
                       "FOR EACH ROW EXECUTE FUNCTION test_fail_serialisation()")

    def attempts() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT last_value, is_called FROM test_update_attempts")
            value, called = cursor.fetchone()
            return value if called else 0

    def stop():
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER IF EXISTS test_fail_serialisation ON {table}")
            cursor.execute("DROP FUNCTION IF EXISTS test_fail_serialisation()")
            cursor.execute("DROP SEQUENCE IF EXISTS test_update_attempts")

    yield attempts, stop
    stop()


def test_a_request_that_keeps_losing_answers_503_with_retry_after(api, tenant, memory, serialisation_failures):
    attempts, stop = serialisation_failures
    events_before = AuditEvent.objects.filter(tenant_id=tenant.id).count()
    response = api.patch_json(f"/api/v1/memories/{memory.pk}", {"content": "Alice likes oolong."})
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "1"
    body = response.json()["error"]
    assert body["code"] == "contended" and body["details"] == {"retry_after_seconds": 1}
    # One boundary retries (the view's); the service's own retry, nested in it, passes through.
    assert attempts() == DEADLOCK_ATTEMPTS
    memory.refresh_from_db()
    assert memory.content == "Alice likes green tea."
    assert AuditEvent.objects.filter(tenant_id=tenant.id).count() == events_before
    stop()
    again = api.patch_json(f"/api/v1/memories/{memory.pk}", {"content": "Alice likes oolong."})
    assert again.status_code == 200 and again.json()["content"] == "Alice likes oolong."


def test_every_api_handler_runs_under_the_retry():
    """The boundary is the base view, so an endpoint added later is covered without a decorator."""
    from django.urls import get_resolver

    from memoryhub.api.views import RETRIED_HANDLERS, TenantAPIView

    def views(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                yield from views(pattern.url_patterns)
            elif getattr(pattern.callback, "view_class", None) is not None:
                yield pattern.callback.view_class

    checked = 0
    for view_class in set(views(get_resolver().url_patterns)):
        if not issubclass(view_class, TenantAPIView):
            continue
        for name in RETRIED_HANDLERS:
            handler = getattr(view_class, name, None)
            if handler is None:
                continue
            checked += 1
            assert handler.__code__.co_filename.endswith("memoryhub/core/locks.py"), (view_class, name)
            assert not hasattr(handler.__wrapped__, "__wrapped__") or not handler.__wrapped__.__code__.co_filename \
                .endswith("memoryhub/core/locks.py"), f"{view_class.__name__}.{name} is wrapped twice"
    assert checked > 20
