"""A worker killed with SIGKILL in the middle of the large-owner job's CREATE INDEX CONCURRENTLY (services/
large_owners.py): the build is held mid-way by a transaction of the test's own that keeps ROW EXCLUSIVE on the memory
table (the build waits for such writers after it has put its index, still invalid, in the catalogue). The worker dies
there and its backend is terminated (a backend waiting on a lock does not notice its client is gone), which leaves
an INVALID index; the owner is still searched exactly, with the same results. The redelivered message (late acks,
short visibility timeout) has a new worker drop that index, build both again and audit the build once; the owner's
searches then take the approximate path and agree with the exact scan."""
from __future__ import annotations

import os

import psycopg
import pytest
from django.db import connection, transaction

from audit.models import AuditEvent
from layers.long_term.models import Memory
from layers.long_term.policy import large_owner_policy
from layers.long_term.selectors import memory_search
from layers.long_term.selectors.large_owners import built_indexes, index_list, owner_index_names
from layers.long_term.services import memory_create_batch
from layers.long_term.services import large_owners as job
from memoryhub.core.actors import Actor
from memoryhub.outbox.services import task_enqueue_on_commit
from permanent.services import change_request_approve, change_request_propose
from tests.support.processes import kill_group, start_worker, stop_worker, wait_for, worker_idle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

ACTOR = Actor.system("tests.large_owners_worker_killed")
TOPICS = ["jazz piano", "rock climbing", "sourdough baking", "trail running", "chess openings", "watercolour",
          "Sichuan food", "window seats", "email reminders", "birdwatching"]
QUERIES = ["what music does the team play?", "rock climbing this week", "bread recipes", "how should we send reminders?"]


@pytest.fixture
def own_queue():
    from memoryhub.celery import app as celery_app

    previous = celery_app.conf.task_default_queue
    queue = f"mh-large-owners-kill-{os.getpid()}"
    celery_app.conf.task_default_queue = queue
    yield queue
    celery_app.conf.task_default_queue = previous


@pytest.fixture
def large_alice(tenant, make_staff):
    """alice holds 40 active memories in a tenant whose approved policy makes owners large from 30 (and keeps their
    indexes down to 15)."""
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    for field, value in (("min_memories", 30), ("keep_memories", 15)):
        request = change_request_propose(tenant=tenant, key=f"policy.large_owners.{field}", action="create",
                                         value=value, proposer_user=editor)
        change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    assert large_owner_policy(tenant.pk).min_memories == 30
    items = [{"user_id": "alice", "kind": "fact", "content": f"Note {i}: the team talked about "
              f"{TOPICS[i % len(TOPICS)]} in week {i // len(TOPICS) + 1}", "client_id": f"alice-{i}"}
             for i in range(40)]
    memory_create_batch(tenant=tenant, actor=ACTOR, items=items)
    index_list.forget()
    return owner_index_names(tenant.pk, "alice")


def _builders() -> list[int]:
    """Backends of this test database building an index on the memory table."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_progress_create_index WHERE datname = current_database()"
                       " AND relid = %s::regclass", [Memory._meta.db_table])
        return [row[0] for row in cursor.fetchall()]


class WriterLock:
    """A transaction on a connection of the test's own holding ROW EXCLUSIVE on the memory table, as any writer
    does: CREATE INDEX CONCURRENTLY waits for it before it builds."""

    def __init__(self):
        params = connection.settings_dict
        self.conn = psycopg.connect(dbname=params["NAME"], user=params["USER"], password=params["PASSWORD"] or None,
                                    host=params["HOST"] or None, port=params["PORT"] or None, autocommit=False)
        self.pid = self.conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        self.conn.execute(f'LOCK TABLE "{Memory._meta.db_table}" IN ROW EXCLUSIVE MODE')

    def release(self) -> None:
        if not self.conn.closed:
            self.conn.rollback()
            self.conn.close()


@pytest.fixture
def writer_lock(large_alice):
    lock = None

    def hold() -> WriterLock:
        nonlocal lock
        lock = WriterLock()
        return lock

    yield hold
    # in this order: a build still waiting would otherwise finish, or block the drops and the flush
    if lock is not None:
        lock.release()
    with connection.cursor() as cursor:
        for pid in _builders():
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    wait_for(lambda: not _builders(), timeout=30, message="the leftover index builds to end")
    # indexes outlive the flush of a transactional test: drop what the test built
    for name in job._catalogue():
        job._drop(name)
    index_list.forget()


def _search(tenant, query):
    index_list.forget()
    results = memory_search(tenant=tenant, user_id="alice", query=query, top_k=10, explain=True, min_score=0)
    return [r.memory.pk for r in results], {r.explain["path"] for r in results}


def _events(tenant):
    return list(AuditEvent.objects.filter(tenant_id=tenant.pk, action="memory.owner_indexes").order_by("id"))


def _catalogue_oids() -> dict[str, tuple[int, bool]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, c.oid, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                       " WHERE i.indrelid = %s::regclass AND c.relname LIKE 'ltm_large_%%'", [Memory._meta.db_table])
        return {name: (oid, valid) for name, oid, valid in cursor.fetchall()}


def _build_in_progress(lock: WriterLock, index_name: str):
    """The worker's backend mid-build: its index is in the catalogue, and it waits for the test's writer."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.pid, p.command, p.phase, c.relname, a.wait_event_type, pg_blocking_pids(p.pid), a.query"
            " FROM pg_stat_progress_create_index p JOIN pg_stat_activity a ON a.pid = p.pid"
            " LEFT JOIN pg_class c ON c.oid = p.index_relid"
            " WHERE p.datname = current_database() AND p.relid = %s::regclass", [Memory._meta.db_table])
        for pid, command, phase, relname, wait_type, blockers, query in cursor.fetchall():
            if (command == "CREATE INDEX CONCURRENTLY" and phase == "waiting for writers before build"
                    and relname == index_name and wait_type == "Lock" and lock.pid in blockers):
                assert index_name in query and pid != lock.pid
                return pid
    return None


def _backend_alive(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0] == 1


def test_sigkill_mid_index_build_leaves_an_invalid_index_that_a_new_worker_rebuilds_once(
        tenant, large_alice, writer_lock, own_queue, tmp_path):
    exact = {query: _search(tenant, query) for query in QUERIES}
    assert all(ids and paths == {"exact"} for ids, paths in exact.values())
    first, second = sorted(large_alice)  # the job builds in name order

    lock = writer_lock()
    doomed = start_worker(own_queue, name="doomed-large-owners", log_path=tmp_path / "doomed.log")
    try:
        with transaction.atomic():
            assert task_enqueue_on_commit(job.JOB_TASK, dedupe_key=job.JOB_TASK) is not None
        builder = wait_for(lambda: _build_in_progress(lock, first), timeout=60,
                           message="the worker's CREATE INDEX CONCURRENTLY to wait mid-build for the test's writer")
        # The fault strikes mid-work: the first index is in the catalogue, unfinished; the second not begun.
        assert _catalogue_oids().keys() == {first} and not _catalogue_oids()[first][1]
        assert _events(tenant) == []
        kill_group(doomed)
    finally:
        stop_worker(doomed)
    # the backend outlives its client while it waits on a lock: terminated, the connection dies with it
    assert _backend_alive(builder), "the killed worker's backend still waits"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [builder])
        assert cursor.fetchone()[0]
    wait_for(lambda: not _backend_alive(builder), timeout=30, message="the worker's backend to end")
    lock.release()

    interrupted = _catalogue_oids()
    assert interrupted.keys() == {first} and interrupted[first][1] is False, "an INVALID index is left"
    assert built_indexes() == set()
    for query, expected in exact.items():
        assert _search(tenant, query) == expected, "the owner is still searched exactly, with the same results"
    assert _events(tenant) == []

    rescuer = start_worker(own_queue, name="rescuer-large-owners", log_path=tmp_path / "rescuer.log")
    try:
        wait_for(lambda: built_indexes() == {first, second} and _events(tenant), timeout=90,
                 message="the redelivered job to build both indexes")
        wait_for(worker_idle, timeout=60, interval=0.2, message="the rescuer to finish")
    finally:
        stop_worker(rescuer)
    rebuilt = _catalogue_oids()
    assert rebuilt.keys() == {first, second} and all(valid for _oid, valid in rebuilt.values())
    assert rebuilt[first][0] != interrupted[first][0], "the invalid index was dropped and built again"
    for query, (ids, _paths) in exact.items():
        assert _search(tenant, query) == (ids, {"approximate"})
    (event,) = _events(tenant)
    assert event.after == {"action": "built", "indexes": 2, "active_memories": 40}
    assert job.large_owner_indexes_sync(dry_run=True) == {"built": 0, "rebuilt": 0, "dropped": 0, "owners": 1}
