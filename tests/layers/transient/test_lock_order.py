"""memoryhub/core/locks.py, step 1: a session's row before the rows under it, for the task sweep and for
erasure as for every task write. Proven against a real holder of the session row (as a task write
holds it): neither takes a task row while it waits, and both finish once the session is free; and
under real contention: task writes from several clients while sweeps run over the same session."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from layers.erasure.services import user_erase
from layers.short_term.models import Session
from layers.transient.models import TaskState
from layers.transient.services import task_start, task_states_sweep_expired
from memoryhub.core.actors import Actor
from tests.support.actors import TEST_ACTOR
from tests.support.processes import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _session_held(session_pk: int):
    """A thread that holds the session's row FOR UPDATE (as task_start / task_update do) until released."""
    holding, release, failures = threading.Event(), threading.Event(), []
    pid: list[int] = []

    def hold():
        try:
            with transaction.atomic():
                list(Session.objects.select_for_update().filter(pk=session_pk).values_list("pk", flat=True))
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    pid.append(cursor.fetchone()[0])
                holding.set()
                release.wait(60)
        except BaseException as exc:  # surfaced by the test
            failures.append(exc)
        finally:
            holding.set()
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    holding.wait(30)
    return thread, release, pid, failures


def _task_rows_free(session_pk: int) -> bool:
    """No other transaction holds a lock on any of the session's tasks."""
    try:
        with transaction.atomic():
            list(TaskState.objects.select_for_update(nowait=True).filter(session_id=session_pk)
                 .values_list("pk", flat=True))
            transaction.set_rollback(True)
        return True
    except DatabaseError:
        return False


def _blocked_behind(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [pid])
        return cursor.fetchone()[0] > 0


@pytest.fixture
def stack(api, tenant, booking_type, weather_type):
    assert api.post_json("/api/v1/sessions", {"session_id": "trip-9", "user_id": "alice"}).status_code == 201
    session = Session.objects.get(tenant=tenant, session_id="trip-9")
    parent = task_start(session=session, task_type_name="book_flight", actor=TEST_ACTOR).task
    child = task_start(session=session, task_type_name="check_weather", parent_id=parent.pk, actor=TEST_ACTOR).task
    return session, parent, child


def test_erasure_waits_for_a_held_session_before_touching_its_tasks(tenant, stack):
    session, parent, child = stack
    holder, release, pid, failures = _session_held(session.pk)
    erased, erase_failures = [], []

    def erase():
        try:
            erased.append(user_erase(tenant=tenant, user_id="alice", actor=Actor.system("tests")))
        except BaseException as exc:  # surfaced by the test
            erase_failures.append(exc)
        finally:
            connection.close()

    eraser = threading.Thread(target=erase)
    eraser.start()
    wait_for(lambda: _blocked_behind(pid[0]), timeout=60, message="erasure to wait for the session")
    # Before the fix erasure deleted the tasks first and waited at the session's DELETE holding them,
    # while the task write holding the session waited for a task: a deadlock.
    assert _task_rows_free(session.pk), "erasure holds task rows while it waits for their session"
    release.set()
    holder.join(30)
    eraser.join(60)
    assert failures == [] and erase_failures == []
    assert not TaskState.objects.filter(pk__in=[parent.pk, child.pk]).exists()
    assert not Session.objects.filter(pk=session.pk).exists()


def test_the_sweep_leaves_a_held_session_alone_and_takes_it_next_run(stack):
    session, parent, child = stack
    TaskState.objects.filter(pk__in=[parent.pk, child.pk]).update(expires_at=timezone.now() - timedelta(seconds=1))
    holder, release, pid, failures = _session_held(session.pk)
    try:
        assert task_states_sweep_expired()["expired"] == 0, "swept tasks whose session a write holds"
        assert _task_rows_free(session.pk)
    finally:
        release.set()
        holder.join(30)
    assert failures == []
    assert task_states_sweep_expired()["expired"] == 2
    assert not TaskState.objects.filter(session=session).exists()


def test_task_writes_and_sweeps_on_one_session_never_deadlock(make_client, tenant, stack):
    """Clients fill and finish sub-tasks (child, then parent, locking outward) while sweeps delete the
    expired ones of the same session, whose parents they resume (parent's row under the child's)."""
    session, parent, child = stack
    clients = [make_client(tenant) for _ in range(6)]
    statuses, failures = [], []
    running = threading.Event()

    def writer(client, worker):
        def run():
            try:
                running.set()
                for round_ in range(4):
                    created = client.post_json("/api/v1/sessions/trip-9/tasks",
                                               {"task_type": "check_weather", "slots": {"城市": f"城{worker}{round_}"}})
                    statuses.append(created.status_code)
                    if created.status_code != 201:
                        continue
                    task_id = created.json()["id"]
                    sub = client.post_json("/api/v1/sessions/trip-9/tasks", {
                        "task_type": "check_weather", "parent_id": task_id, "slots": {"城市": "上海"}})
                    statuses.append(sub.status_code)
                    # Some sub-tasks expire at once for the sweeps (which resume their parent); the
                    # rest are finished by their client (which resumes it too), then the parent.
                    if sub.status_code == 201 and (worker + round_) % 2:
                        TaskState.objects.filter(pk=sub.json()["id"]).update(
                            expires_at=timezone.now() - timedelta(seconds=1))
                    elif sub.status_code == 201:
                        statuses.append(client.patch_json(f"/api/v1/tasks/{sub.json()['id']}",
                                                          {"status": "done"}).status_code)
                    statuses.append(client.patch_json(f"/api/v1/tasks/{task_id}", {"status": "done"}).status_code)
            except BaseException as exc:  # the test client re-raises a view's exception: a 500 over HTTP
                failures.append(exc)
            finally:
                connection.close()
        return run

    def sweeper():
        try:
            running.wait(10)
            for _ in range(20):
                task_states_sweep_expired()
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = ([threading.Thread(target=writer(client, worker)) for worker, client in enumerate(clients)]
               + [threading.Thread(target=sweeper) for _ in range(2)])
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    assert [repr(exc)[:300] for exc in failures] == []
    assert statuses and all(status < 500 for status in statuses), statuses
    # A finish answers 200, or 409 while the parent still waits for a sub-task nobody swept yet
    # (suspended tasks take only `cancelled`); nothing else is refused.
    assert set(statuses) <= {200, 201, 404, 409}, statuses
