"""Scale-out on real engines (issue 16 item 6): two gunicorn processes and two Celery workers against
PostgreSQL behind PgBouncer in transaction mode (DB_PREPARED_STATEMENTS=false), with a streaming read
replica that the database router (memoryhub/core/db_router.py) sends searches to.

Shown here, each through HTTP and checked in the databases themselves:
- nothing lost or doubled: concurrent writes through both web processes, some sent twice (same
  client_id, to the other process), are each stored exactly once, on the primary and on the replica;
- searches read the replica, and read-your-writes holds across processes: with the replica's replay
  paused, the caller that just wrote finds its memory through the *other* web process (pinned to the
  primary), while a caller that did not write gets the replica's answer, without it; once replay
  resumes, that caller finds it too;
- no stale permanent reads across processes: after an approved change, the first read on each web
  process (both had the old version cached) serves the new version;
- formation jobs spread over both workers: each worker ran extraction for some of the sessions (the
  workers' own task counts), and every session was extracted exactly once (formation runs);
- a replica that stops costs no search: the read that fails on it runs on the primary; health reports
  the replica (up with its lag, then down) without failing.

The cluster (tests/scaleout/cluster.py) is the test's own: the machine's server refuses replication
connections. Everything started here is stopped, and its data deleted, even when an assertion fails.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest

from memoryhub.core.redis import redis_client
from tests.scaleout.cluster import DATABASE, cluster, stop_group
from tests.support.processes import (
    BASE_DIR,
    Http,
    start_celery_worker,
    start_web,
    wait_for,
)

pytestmark = pytest.mark.worker

SETUP = """
import io, json
from django.contrib.auth import get_user_model
from django.core.management import call_command
from memoryhub.core.actors import Actor
from memoryhub.tenancy.services import api_key_create, tenant_get_or_create
from permanent.services import change_request_approve, change_request_propose

tenant, _ = tenant_get_or_create(slug="scaleout", actor=Actor.system("test"))
keys = {name: api_key_create(tenant=tenant, name=name, scopes=["read", "write", "propose", "admin"],
                             actor=Actor.system("scaleout test")) for name in ("writer", "reader")}
call_command("create_staff", "rita", "--tenant", "scaleout", "--role", "reviewer", "--password", "pw-Rita-12345",
             stdout=io.StringIO())
proposal = change_request_propose(tenant=tenant, key="rules.tone", action="create", value="calm",
                                  proposer_api_key=keys["reader"].api_key)
change_request_approve(change_request=proposal, reviewer=get_user_model().objects.get(username="rita"),
                       payload_hash=proposal.payload_hash)
print(json.dumps({name: issued.plaintext for name, issued in keys.items()}))
"""

APPROVE = """
from django.contrib.auth import get_user_model
from permanent.models import ChangeRequest
from permanent.services import change_request_approve

proposal = ChangeRequest.objects.get(pk=int("{pk}"))
change_request_approve(change_request=proposal, reviewer=get_user_model().objects.get(username="rita"),
                       payload_hash=proposal.payload_hash)
"""

USERS = ["u0", "u1", "u2", "u3"]
BATCHES_PER_PROCESS = 5
BATCH = 10
SESSIONS = 8


def _manage(args: list[str], env: dict) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _service_env(urls: dict, queue: str, uid: str) -> dict:
    """Production settings (DEBUG off) on the cluster, a queue of the test's own, offline providers."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("DATABASE_NAME", "TEST_DATABASE_NAME") and not name.startswith("OPENAI_")}
    return {**env, **urls, "DEBUG": "false", "SECRET_KEY": f"scaleout-{uid}-secret",
            "AUDIT_HEAD_KEY": f"scaleout-{uid}-audit-head", "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false", "CELERY_QUEUE": queue, "CACHE_KEY_PREFIX": f"mh-scaleout-{uid}",
            "CELERY_VISIBILITY_TIMEOUT": "30", "EMBEDDING_PROVIDER": "local",
            # Longer than any pause a loaded machine puts between a write and the next search, so the
            # writer's pin cannot lapse mid-test; the marker's TTL is tests/memoryhub/test_db_router.py's.
            "DB_READ_YOUR_WRITES_SECONDS": "120"}


def _start_all(stack: ExitStack, env: dict, queue: str, uid: str, logs) -> tuple[list[str], list[str]]:
    """Both web processes and both workers, started side by side; whatever started is stopped at the end,
    also when another failed to start."""
    with ThreadPoolExecutor(4) as pool:
        webs = [pool.submit(start_web, env, logs / f"web{n}.log") for n in (1, 2)]
        names = [f"scaleout-{uid}-w{n}" for n in (1, 2)]
        workers = [pool.submit(start_celery_worker, env, queue, name, logs / f"{name}.log") for name in names]
    failures = []
    bases = []
    for future in (*webs, *workers):
        try:
            started = future.result()
        except BaseException as exc:  # noqa: BLE001 - the others must still be registered for stopping
            failures.append(exc)
            continue
        process = started[0] if isinstance(started, tuple) else started
        stack.callback(stop_group, process)
        if isinstance(started, tuple):
            bases.append(started[1])
    if failures:
        raise failures[0]
    return bases, names


def _write_concurrently(webs: list[Http]) -> list[str]:
    """Every (process, batch) posts BATCH new memories; each batch is then sent again, unchanged, to the
    other process (a client retrying after a lost answer). Returns every content written."""
    batches = []
    for p, _web in enumerate(webs):
        for b in range(BATCHES_PER_PROCESS):
            batches.append((p, [{"user_id": USERS[(b + i) % len(USERS)], "kind": "fact",
                                 "content": f"Scale-out fact {p}-{b}-{i}: the locker code is {p}{b}{i}7",
                                 "client_id": f"p{p}-b{b}-i{i}"} for i in range(BATCH)]))

    def send(job):
        p, memories = job
        first = webs[p].post("/api/v1/memories", {"memories": memories})
        again = webs[1 - p].post("/api/v1/memories", {"memories": memories})
        return first, again
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, batches))
    for first, again in answers:
        assert first[0] == 201, first
        assert again[0] == 201, again
    return [memory["content"] for _p, memories in batches for memory in memories]


def _found(web: Http, user_id: str, query: str, content: str) -> bool:
    code, body = web.post("/api/v1/memories/search", {"user_id": user_id, "query": query, "top_k": 5})
    assert code == 200, body
    return any(result["content"] == content for result in body["results"])


def _extract_counts(names: list[str]) -> dict[str, int]:
    from memoryhub.celery import app

    stats = app.control.inspect(timeout=2).stats() or {}
    return {name.split("@")[0]: reply.get("total", {}).get("formation.extract_session", 0)
            for name, reply in stats.items() if name.split("@")[0] in names}


def _forget_queue(queue: str) -> None:
    """The broker's keys for the test's queue (kombu keeps its bindings after the workers are gone)."""
    client = redis_client()
    client.delete(queue, *client.keys(f"_kombu.binding*.{queue}"))


def test_two_web_processes_two_workers_pgbouncer_and_a_replica(tmp_path):
    uid = uuid.uuid4().hex[:8]
    queue = f"scaleout-{uid}"
    logs = tmp_path / "logs"
    logs.mkdir()
    with ExitStack() as stack:
        stack.callback(_forget_queue, queue)
        pg = stack.enter_context(cluster(logs))
        env = _service_env(pg.urls(), queue, uid)
        # Migrations and setup straight to the primary (a migration holds session state a pooler would not keep).
        direct = {**env, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{pg.primary_port}/{DATABASE}",
                  "DATABASE_REPLICA_URL": ""}
        _manage(["migrate", "-v", "0"], direct)
        keys = json.loads(_manage(["shell", "-c", SETUP], direct).strip().splitlines()[-1])
        bases, names = _start_all(stack, env, queue, uid, logs)
        writer = [Http(base, keys["writer"]) for base in bases]
        reader = [Http(base, keys["reader"]) for base in bases]

        # 1. Nothing lost or doubled, on the primary and, once replayed, on the replica.
        contents = _write_concurrently(writer)
        assert len(contents) == len(set(contents)) == 2 * BATCHES_PER_PROCESS * BATCH
        count_sql = ("SELECT content, count(*) FROM long_term_memory m JOIN tenancy_tenant t ON t.id = m.tenant_id"
                     " WHERE t.slug = 'scaleout' AND content LIKE 'Scale-out fact %%' GROUP BY content")
        stored = dict(pg.primary(count_sql))
        assert stored == {content: 1 for content in contents}
        wait_for(lambda: dict(pg.replica(count_sql)) == stored, timeout=30, message="the replica to have every write")

        # 2. Searches read the replica; the caller that just wrote reads the primary, on either process.
        pg.replica("SELECT pg_wal_replay_pause()")
        wait_for(lambda: pg.replica("SELECT pg_get_wal_replay_pause_state()")[0][0] == "paused", timeout=30,
                 message="the replica's replay to pause")
        content = f"Ryw {uid}: the spare key hangs behind the blue door"
        code, body = writer[0].post("/api/v1/memories", {"memories": [
            {"user_id": "ryw", "kind": "fact", "content": content, "client_id": f"ryw-{uid}"}]})
        assert code == 201, body
        assert pg.primary("SELECT count(*) FROM long_term_memory WHERE content = %s", [content])[0][0] == 1
        query = "where does the spare key hang?"
        assert _found(writer[1], "ryw", query, content), "the writer's own next search missed its write"
        assert not _found(reader[1], "ryw", query, content), "a caller that did not write read the primary"
        assert not _found(reader[0], "ryw", query, content), "a caller that did not write read the primary"
        pg.replica("SELECT pg_wal_replay_resume()")
        wait_for(lambda: _found(reader[1], "ryw", query, content), timeout=30,
                 message="the replica's answer to include the write once replayed")

        # 3. No stale permanent reads across processes: both cached v1; the first read after approval is v2.
        for web in reader:
            code, entry = web.get("/api/v1/permanent/rules.tone")
            assert (code, entry["version"], entry["value"]) == (200, 1, "calm"), entry
        code, proposal = reader[0].post("/api/v1/permanent/change-requests", {
            "action": "update", "key": "rules.tone", "value": "calm and brief", "reason": "scale-out test"})
        assert code == 201, proposal
        _manage(["shell", "-c", APPROVE.replace("{pk}", str(proposal["id"]))], direct)
        for web in reversed(reader):
            code, entry = web.get("/api/v1/permanent/rules.tone")
            assert (code, entry["version"], entry["value"]) == (200, 2, "calm and brief"), entry

        # 4. Formation jobs spread over both workers, each session extracted once.
        for n in range(SESSIONS):
            web = writer[n % 2]
            session = f"chat-{uid}-{n}"
            assert web.post("/api/v1/sessions", {"session_id": session, "user_id": f"f{n}"})[0] == 201
            code, body = web.post(f"/api/v1/sessions/{session}/turns", {"turns": [
                {"role": "user", "content": f"I live in Lyon and my sister is called Ana{n}.", "client_id": "t1"},
                {"role": "assistant", "content": "Noted.", "client_id": "t2"}]})
            assert code == 201, body
            code, body = writer[1 - n % 2].post(f"/api/v1/sessions/{session}/end")
            assert code == 200, body
        runs_sql = ("SELECT s.session_id, count(*) FROM formation_formationrun r"
                    " JOIN short_term_session s ON s.id = r.session_id"
                    " WHERE r.job = 'extract' AND s.session_id LIKE %s GROUP BY s.session_id")
        wait_for(lambda: len(pg.primary(runs_sql, [f"chat-{uid}-%"])) == SESSIONS, timeout=60,
                 message="every session to be extracted")
        assert all(count == 1 for _session, count in pg.primary(runs_sql, [f"chat-{uid}-%"]))
        def counted() -> dict | None:
            counts = _extract_counts(names)
            return counts if sum(counts.values()) >= SESSIONS else None
        counts = wait_for(counted, timeout=30, message="both workers' task counts")
        assert set(counts) == set(names), counts
        assert all(counts[name] >= 1 for name in names), f"one worker ran every extraction: {counts}"
        assert sum(counts.values()) == SESSIONS, counts

        # 5. A replica that goes away costs no search: the read that fails on it runs on the primary.
        code, health = reader[0].get("/api/v1/health")
        assert code == 200 and health["components"]["replica"]["status"] == "up", health
        assert health["components"]["replica"]["lag_seconds"] >= 0
        pg.stop_replica()
        for web in reader:
            assert _found(web, "ryw", query, content), "a search failed over to the primary missed the write"
        code, health = reader[1].get("/api/v1/health")
        assert code == 200 and health["status"] == "ok", health
        assert health["components"]["replica"]["status"] == "down", health
