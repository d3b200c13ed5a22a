"""A value applied through one server process is served fresh by another at once, and reads keep
working from PostgreSQL when Redis is unreachable."""
from __future__ import annotations

import httpx2 as httpx
import pytest

from permanent.models import ChangeRequest, PermanentEntry
from permanent.services import change_request_approve, change_request_propose
from tests.support.servers import admin_login, admin_post, django_server

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-Cross-Process-1"


def test_value_applied_through_one_process_is_fresh_in_the_other(tenant, make_client, make_staff, tmp_path):
    editor = make_staff(tenant, "editor", username="ed", password=PASSWORD)
    reviewer = make_staff(tenant, "reviewer", username="rev", password=PASSWORD)
    agent = make_client(tenant, scopes=["read", "propose"])
    headers = {"Authorization": f"Bearer {agent.plaintext}"}
    cr = change_request_propose(tenant=tenant, key="safety.escalation", action="create", value={"after": 3},
                                proposer_user=editor)
    change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)

    with django_server(log_path=tmp_path / "a.log") as server_a, django_server(log_path=tmp_path / "b.log") as server_b:
        first = httpx.get(f"{server_b}/api/v1/permanent/safety.escalation", headers=headers)
        assert first.status_code == 200 and first.json()["value"] == {"after": 3}
        # Read twice more so process B certainly serves it from the Redis snapshot.
        assert httpx.get(f"{server_b}/api/v1/permanent/safety.escalation", headers=headers,
                         ).json()["version"] == 1
        assert httpx.get(f"{server_a}/api/v1/permanent", headers=headers).json()["results"][0]["version"] == 1

        proposed = httpx.post(f"{server_a}/api/v1/permanent/change-requests", headers=headers,
                              json={"key": "safety.escalation", "value": {"after": 1}, "reason": "faster"})
        assert proposed.status_code == 201, proposed.text
        update = ChangeRequest.objects.get(pk=proposed.json()["id"])
        console = admin_login(server_a, "rev", PASSWORD)
        decided = admin_post(console, f"/admin/permanent/changerequest/{update.pk}/change/",
                             {"operation": "approve", "payload_hash": update.payload_hash, "comment": "ok"})
        assert decided.status_code == 302
        assert PermanentEntry.objects.get(key="safety.escalation").current_version == 2

        fresh = httpx.get(f"{server_b}/api/v1/permanent/safety.escalation", headers=headers,
                          params={}, )
        assert fresh.status_code == 200 and fresh.json() == {**fresh.json(), "version": 2, "value": {"after": 1}}
        assert first.headers["ETag"] != fresh.headers["ETag"]
        conditional = httpx.get(f"{server_b}/api/v1/permanent/safety.escalation",
                                headers={**headers, "If-None-Match": first.headers["ETag"]})
        assert conditional.status_code == 200
        assert httpx.get(f"{server_b}/api/v1/permanent/safety.escalation",
                         headers={**headers, "If-None-Match": fresh.headers["ETag"]}).status_code == 304


def test_reads_fail_open_to_postgresql_when_redis_is_down(tenant, make_client, make_staff, tmp_path):
    editor = make_staff(tenant, "editor", username="ed2")
    reviewer = make_staff(tenant, "reviewer", username="rev2")
    agent = make_client(tenant, scopes=["read"])
    cr = change_request_propose(tenant=tenant, key="rules.tone", action="create", value="calm", proposer_user=editor)
    change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    # Port 9 (discard) on localhost: nothing listens, connections are refused at once.
    dead_redis = {"REDIS_URL": "redis://127.0.0.1:9/0", "CELERY_BROKER_URL": "redis://127.0.0.1:9/0",
                  "CELERY_RESULT_BACKEND": "redis://127.0.0.1:9/0"}
    with django_server(extra_env=dead_redis, log_path=tmp_path / "c.log") as server:
        response = httpx.get(f"{server}/api/v1/permanent/rules.tone",
                             headers={"Authorization": f"Bearer {agent.plaintext}"}, timeout=20)
        assert response.status_code == 200 and response.json()["value"] == "calm"


def test_approvals_racing_in_two_server_processes_end_in_one_state(tenant, make_staff, tmp_path):
    import threading

    editor = make_staff(tenant, "editor", username="ed3", password=PASSWORD)
    make_staff(tenant, "reviewer", username="rev3a", password=PASSWORD)
    make_staff(tenant, "reviewer", username="rev3b", password=PASSWORD)
    cr = change_request_propose(tenant=tenant, key="safety.race", action="create", value=1, proposer_user=editor)
    with django_server(log_path=tmp_path / "a.log") as server_a, django_server(log_path=tmp_path / "b.log") as server_b:
        consoles = [admin_login(server_a, "rev3a", PASSWORD), admin_login(server_b, "rev3b", PASSWORD)]
        barrier = threading.Barrier(2)
        statuses = []

        def approve(console):
            barrier.wait()
            statuses.append(admin_post(console, f"/admin/permanent/changerequest/{cr.pk}/change/",
                                       {"operation": "approve", "payload_hash": cr.payload_hash}).status_code)

        threads = [threading.Thread(target=approve, args=(console,)) for console in consoles]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert statuses == [302, 302]
    cr.refresh_from_db()
    assert cr.state == "applied" and cr.approvals.count() == 1
    assert PermanentEntry.objects.get(key="safety.race").versions.count() == 1
