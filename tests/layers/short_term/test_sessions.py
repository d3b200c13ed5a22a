"""Sessions over HTTP: open (idempotent), read, end, idle expiry, and isolation between tenants."""
from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from layers.short_term.models import Session, SessionStatus, Turn
from layers.short_term.services import sessions_expire_idle
from layers.short_term.signals import session_ended
from layers.short_term.tasks import sessions_expire_idle_task
from tests.support.processes import wait_for

pytestmark = pytest.mark.django_db


def open_(api, session_id="s-1", user_id="alice", **extra):
    return api.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": user_id, **extra})


def test_open_is_idempotent_on_session_id(api, tenant):
    first = open_(api, agent_id="planner", metadata={"channel": "app", "语言": "中文"})
    assert first.status_code == 201
    body = first.json()
    assert body["status"] == "active" and body["turn_count"] == 0 and body["metadata"]["语言"] == "中文"
    again = open_(api)
    assert again.status_code == 200 and again.json()["started_at"] == body["started_at"]
    assert Session.objects.filter(tenant=tenant).count() == 1


def test_same_session_id_for_another_user_is_a_conflict(api, tenant):
    open_(api)
    response = open_(api, user_id="mallory")
    assert response.status_code == 409 and response.json()["error"]["code"] == "session_user_mismatch"


def test_each_tenant_has_its_own_session_ids(api, other_api):
    assert open_(api).status_code == 201
    assert open_(other_api, user_id="someone-else").status_code == 201


@pytest.mark.parametrize("body, status", [
    ({"user_id": "a"}, 400),
    ({"session_id": "s-1"}, 400),
    ({"session_id": "has space", "user_id": "a"}, 400),
    ({"session_id": "-leading", "user_id": "a"}, 400),
    ({"session_id": "x" * 129, "user_id": "a"}, 400),
    ({"session_id": "s-1", "user_id": "a\tb"}, 400),
    ({"session_id": "s-1", "user_id": "a", "metadata": ["not", "an", "object"]}, 400),
    ({"session_id": "s-1", "user_id": "a", "metadata": {"blob": "x" * 20_000}}, 413),
])
def test_bad_open_requests_are_refused_and_store_nothing(api, tenant, body, status):
    response = api.post_json("/api/v1/sessions", body)
    assert response.status_code == status, response.json()
    assert set(response.json()["error"]) == {"code", "message", "details"}
    assert not Session.objects.filter(tenant=tenant).exists()


def test_read_and_end_a_session(api, tenant):
    open_(api)
    api.post_json("/api/v1/sessions/s-1/turns", {"turns": [{"role": "user", "content": "你好"}]})
    assert api.get("/api/v1/sessions/s-1").json()["turn_count"] == 1

    ended = []
    session_ended.connect(receiver := lambda sender, session, reason, **kw: ended.append((session.session_id, reason)))
    try:
        response = api.post("/api/v1/sessions/s-1/end")
    finally:
        session_ended.disconnect(receiver)
    assert response.status_code == 200
    assert response.json()["status"] == "ended" and response.json()["ended_at"]
    assert ended == [("s-1", "ended")]

    event = AuditEvent.objects.get(tenant_id=tenant.id, action="session.ended")
    assert event.subject and event.subject != "alice" and "alice" not in str(event.after)

    # Ending again changes nothing; the closed session stays readable but takes no turns.
    assert api.post("/api/v1/sessions/s-1/end").status_code == 200
    assert AuditEvent.objects.filter(tenant_id=tenant.id, action="session.ended").count() == 1
    refused = api.post_json("/api/v1/sessions/s-1/turns", {"turns": [{"role": "user", "content": "more"}]})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "session_ended"
    assert api.get("/api/v1/sessions/s-1/turns").json()["results"][0]["content"] == "你好"
    assert api.get("/api/v1/sessions/s-1/window").status_code == 200
    assert open_(api).json()["status"] == "ended"


def test_another_tenants_session_is_404_on_every_path(api, other_api):
    open_(api)
    api.post_json("/api/v1/sessions/s-1/turns", {"turns": [{"role": "user", "content": "secret plans"}]})
    calls = [
        other_api.get("/api/v1/sessions/s-1"),
        other_api.post("/api/v1/sessions/s-1/end"),
        other_api.get("/api/v1/sessions/s-1/turns"),
        other_api.post_json("/api/v1/sessions/s-1/turns", {"turns": [{"role": "user", "content": "x"}]}),
        other_api.get("/api/v1/sessions/s-1/window"),
    ]
    for response in calls:
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "session_not_found"
    session = Session.objects.get(session_id="s-1")
    assert session.status == SessionStatus.ACTIVE and session.turn_count == 1
    assert Turn.objects.filter(session=session).count() == 1


def test_unauthenticated_requests_are_refused(anon):
    assert anon.get("/api/v1/sessions/s-1").status_code == 401


def _age(session_id: str, minutes: int):
    Session.objects.filter(session_id=session_id).update(last_activity_at=timezone.now() - timedelta(minutes=minutes))


def test_idle_sessions_expire_with_a_dry_run_first(api, tenant):
    open_(api, "idle")
    open_(api, "fresh")
    _age("idle", 60 * 24)
    assert sessions_expire_idle(dry_run=True) == {"dry_run": True, "expired": 0, "would_expire": 1}
    assert Session.objects.get(session_id="idle").status == SessionStatus.ACTIVE

    assert sessions_expire_idle()["expired"] == 1
    assert Session.objects.get(session_id="idle").status == SessionStatus.EXPIRED
    assert Session.objects.get(session_id="fresh").status == SessionStatus.ACTIVE
    assert AuditEvent.objects.filter(tenant_id=tenant.id, action="session.expired").count() == 1
    assert sessions_expire_idle()["expired"] == 0

    refused = api.post_json("/api/v1/sessions/idle/turns", {"turns": [{"role": "user", "content": "hi"}]})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "session_expired"
    assert api.post("/api/v1/sessions/idle/end").status_code == 409


def test_an_idle_session_not_yet_swept_expires_when_written_to(api, tenant):
    open_(api, "idle")
    _age("idle", 60 * 24)
    refused = api.post_json("/api/v1/sessions/idle/turns", {"turns": [{"role": "user", "content": "hi"}]})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "session_expired"
    session = Session.objects.get(session_id="idle")
    assert session.status == SessionStatus.EXPIRED and session.turn_count == 0
    assert AuditEvent.objects.filter(tenant_id=tenant.id, action="session.expired").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_the_idle_sweep_runs_on_a_real_worker(celery_worker, api):
    open_(api, "idle")
    open_(api, "fresh")
    _age("idle", 60 * 24)
    result = sessions_expire_idle_task.delay().get(timeout=60)
    assert result == {"dry_run": False, "expired": 1, "would_expire": 1}
    wait_for(lambda: Session.objects.get(session_id="idle").status == SessionStatus.EXPIRED,
             timeout=10, message="the idle session to be expired")
    assert Session.objects.get(session_id="fresh").status == SessionStatus.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_concurrent_opens_of_one_session_id_make_one_session(tenant):
    import threading

    from django.db import connection

    from layers.short_term.services import session_open
    from memoryhub.core.actors import Actor

    results, errors = [], []

    def opener():
        try:
            session, created = session_open(tenant=tenant, session_id="race", user_id="u", actor=Actor.system("t"))
            results.append((session.pk, created))
        except Exception as exc:  # surfaced below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=opener) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len({pk for pk, _ in results}) == 1
    assert sum(created for _, created in results) == 1


def test_the_idle_sweep_works_in_bounded_runs_that_continue(api, tenant):
    for n in range(5):
        open_(api, f"idle-{n}")
        _age(f"idle-{n}", 60 * 24)
    assert sessions_expire_idle(dry_run=True)["would_expire"] == 5
    assert [sessions_expire_idle(max_sessions=2)["expired"] for _ in range(4)] == [2, 2, 1, 0]
    assert not Session.objects.filter(tenant=tenant, status=SessionStatus.ACTIVE).exists()
