"""Turn appends while formation jobs run on the same session: no deadlock, no 500, gap-free seq.

Twenty clients append to one session through the HTTP stack while extraction and summarisation run
over it in loops, and memories of the same user are written through the API: every lock the append
path, the jobs and the audit chain take (the session row, the jobs' advisory locks, the user's memory
lock, the tenant's chain, the user's first subject key) is contended at once. Each round uses a new
user, so the subject key is created under contention every time.
"""
from __future__ import annotations

import threading

import pytest
from django.db import connection

from audit.selectors import audit_chain_verify
from layers.formation.services import session_extract, session_summarise
from layers.short_term.models import Session, Turn

pytestmark = pytest.mark.django_db(transaction=True)

APPENDERS = 20
BATCHES = 3
ROUNDS = 3
FACTS = ["I live in Berlin.", "I'm allergic to peanuts.", "I love jazz.", "I work as a nurse.",
         "My name is Mia.", "I hate olives.", "我住在上海。", "我喜欢喝绿茶。"]


def _threads(targets):
    threads = [threading.Thread(target=target) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung (a lock wait that never ends)"


def _closing(fn, failures):
    """Run `fn` in a thread of its own: its connection closed after, anything raised kept (the test
    client re-raises a view's exception, which over HTTP would have been a 500)."""
    def run():
        try:
            fn()
        except BaseException as exc:  # surfaced by the test
            failures.append(exc)
        finally:
            connection.close()
    return run


def test_concurrent_appenders_and_formation_jobs_never_deadlock(make_client, tenant):
    for round_ in range(ROUNDS):
        user_id, session_id = f"user-{round_}", f"chat-{round_}"
        opener = make_client(tenant)
        assert opener.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": user_id}).status_code == 201
        session_pk = Session.objects.get(session_id=session_id).pk
        clients = [make_client(tenant) for _ in range(APPENDERS)]
        statuses: list[tuple[int, object]] = []
        failures: list[BaseException] = []
        appending = threading.Event()

        def appender(client, worker):
            def run():
                appending.set()
                for batch in range(BATCHES):
                    fact = FACTS[(worker + batch) % len(FACTS)]
                    response = client.post_json(f"/api/v1/sessions/{session_id}/turns", {"turns": [
                        {"role": "user", "content": fact, "client_id": f"{worker}-{batch}-u"},
                        {"role": "assistant", "content": "Noted.", "client_id": f"{worker}-{batch}-a"}]})
                    statuses.append((response.status_code, response.json()))
            return run

        def jobs():
            appending.wait(10)
            for _ in range(BATCHES * 3):
                session_extract(session_pk=session_pk)
                session_summarise(session_pk=session_pk)

        def memories(client):
            def run():
                appending.wait(10)
                for index in range(BATCHES * 2):
                    response = client.post_json("/api/v1/memories", {
                        "user_id": user_id, "kind": "preference", "content": f"User likes colour {round_}-{index}."})
                    statuses.append((response.status_code, response.json()))
            return run

        _threads([_closing(appender(client, worker), failures) for worker, client in enumerate(clients)]
                 + [_closing(jobs, failures), _closing(jobs, failures), _closing(memories(opener), failures)])

        assert [repr(exc)[:300] for exc in failures] == []
        server_errors = [(status, body) for status, body in statuses if status >= 500]
        assert server_errors == []
        assert sorted({status for status, _ in statuses}) == [201], statuses[:3]
        seqs = list(Turn.objects.filter(session_id=session_pk).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, APPENDERS * BATCHES * 2 + 1)), "turn sequence numbers have a gap"
        session = Session.objects.get(pk=session_pk)
        assert session.turn_count == len(seqs)
    assert audit_chain_verify(tenant_id=tenant.id).ok
