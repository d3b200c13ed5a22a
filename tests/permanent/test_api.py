"""The agent API: exact reads with ETag/304, proposing, following; agents never approve."""
from __future__ import annotations

import pytest

from memoryhub.core.errors import Forbidden
from permanent.models import ChangeRequest, ChangeState
from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_rule(tenant, editor, reviewer):
    def make(key, value, user_id=""):
        cr = change_request_propose(tenant=tenant, key=key, action="create", value=value, user_id=user_id,
                                    proposer_user=editor)
        return change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    return make


def test_read_one_key_with_etag_and_304(api, live_rule, editor, reviewer, tenant):
    live_rule("safety.no_medical_advice", {"enabled": True})
    response = api.get("/api/v1/permanent/safety.no_medical_advice")
    assert response.status_code == 200
    body = response.json()
    assert body["value"] == {"enabled": True} and body["version"] == 1 and body["scope"] == "global"
    etag = response["ETag"]
    again = api.get("/api/v1/permanent/safety.no_medical_advice", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    cr = change_request_propose(tenant=tenant, key="safety.no_medical_advice", action="update",
                                value={"enabled": False}, proposer_user=editor)
    change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    changed = api.get("/api/v1/permanent/safety.no_medical_advice", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["version"] == 2 and changed["ETag"] != etag


def test_list_merges_global_and_the_users_own_with_prefix(api, live_rule):
    live_rule("rules.language", "en")
    live_rule("rules.language", "zh", user_id="alice")
    live_rule("persona", {"name": "Mo"})
    everything = api.get("/api/v1/permanent").json()["results"]
    assert [(i["key"], i["value"]) for i in everything] == [("persona", {"name": "Mo"}), ("rules.language", "en")]
    for_alice = api.get("/api/v1/permanent", {"user_id": "alice", "prefix": "rules."})
    assert for_alice.status_code == 200
    assert [(i["key"], i["scope"], i["value"]) for i in for_alice.json()["results"]] == [("rules.language", "user", "zh")]
    one = api.get("/api/v1/permanent/rules.language", {"user_id": "bob"}).json()
    assert one["scope"] == "global" and one["value"] == "en"
    listed = api.get("/api/v1/permanent")
    assert api.get("/api/v1/permanent", HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 304


def test_reads_are_tenant_scoped_and_exact(api, other_api, live_rule):
    live_rule("rules.tone", "warm")
    assert other_api.get("/api/v1/permanent/rules.tone").status_code == 404
    assert other_api.get("/api/v1/permanent").json()["results"] == []
    missing = api.get("/api/v1/permanent/rules.ton")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "entry_not_found"
    assert api.get("/api/v1/permanent/bad key").status_code == 400


def test_agent_proposes_and_follows_but_cannot_approve(make_client, tenant, other_api, reviewer):
    agent = make_client(tenant, scopes=["propose"], created_by=reviewer)
    created = agent.post_json("/api/v1/permanent/change-requests",
                              {"action": "create", "key": "rules.greeting", "value": "hi", "reason": "seen often"})
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["state"] == "pending" and body["origin"] == "agent" and len(body["payload_hash"]) == 64
    followed = agent.get(f"/api/v1/permanent/change-requests/{body['id']}")
    assert followed.status_code == 200 and followed.json()["id"] == body["id"]
    assert other_api.get(f"/api/v1/permanent/change-requests/{body['id']}").status_code == 404
    # There is no approve endpoint for keys at all, and the reviewer who created the key is refused.
    assert agent.post_json(f"/api/v1/permanent/change-requests/{body['id']}", {}).status_code == 405
    cr = ChangeRequest.objects.get(pk=body["id"])
    with pytest.raises(Forbidden):
        change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    cr.refresh_from_db()
    assert cr.state == ChangeState.PENDING


def test_propose_needs_the_propose_scope_and_valid_input(make_client, tenant, live_rule):
    reader = make_client(tenant, scopes=["read", "write"])
    refused = reader.post_json("/api/v1/permanent/change-requests", {"key": "rules.x", "value": 1, "action": "create"})
    assert refused.status_code == 403
    agent = make_client(tenant, scopes=["propose"])
    bad = agent.post_json("/api/v1/permanent/change-requests", {"key": "rules.x", "action": "explode"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    schema = {"type": "string", "maxLength": 5}
    created = agent.post_json("/api/v1/permanent/change-requests",
                              {"key": "rules.short", "action": "create", "value": "toolong", "schema": schema})
    assert created.status_code == 400 and created.json()["error"]["code"] == "schema_violation"
    live_rule("rules.tone", "warm")
    stale = agent.post_json("/api/v1/permanent/change-requests",
                            {"key": "rules.tone", "value": "cold", "base_version": 0})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "base_version_moved"
    first = agent.post_json("/api/v1/permanent/change-requests", {"key": "rules.tone", "value": "cold"})
    assert first.status_code == 201 and first.json()["base_version"] == 1
    second = agent.post_json("/api/v1/permanent/change-requests", {"key": "rules.tone", "value": "hot"})
    assert second.status_code == 409 and second.json()["error"]["code"] == "pending_request_exists"
    assert ChangeRequest.objects.filter(tenant=tenant, key="rules.tone", state="pending").count() == 1


def test_agent_withdraws_only_its_own_request(make_client, tenant):
    agent = make_client(tenant, scopes=["propose"])
    other_agent = make_client(tenant, scopes=["propose"])
    created = agent.post_json("/api/v1/permanent/change-requests", {"action": "create", "key": "rules.x", "value": 1})
    path = f"/api/v1/permanent/change-requests/{created.json()['id']}/withdraw"
    refused = other_agent.post_json(path, {})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_the_proposer"
    withdrawn = agent.post_json(path, {})
    assert withdrawn.status_code == 200 and withdrawn.json()["state"] == "withdrawn"
    again = agent.post_json(path, {})
    assert again.status_code == 409 and again.json()["error"]["code"] == "illegal_transition"


def test_list_pages_with_a_cursor(api, live_rule):
    for index in range(5):
        live_rule(f"rules.r{index}", index)
    first = api.get("/api/v1/permanent", {"limit": 2}).json()
    assert [i["key"] for i in first["results"]] == ["rules.r0", "rules.r1"] and first["next_cursor"]
    second = api.get("/api/v1/permanent", {"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [i["key"] for i in second["results"]] == ["rules.r2", "rules.r3"]
    last = api.get("/api/v1/permanent", {"limit": 2, "cursor": second["next_cursor"]}).json()
    assert [i["key"] for i in last["results"]] == ["rules.r4"] and last["next_cursor"] is None
    assert api.get("/api/v1/permanent", {"limit": 0}).status_code == 400
    assert api.get("/api/v1/permanent", {"cursor": "%%%"}).status_code == 400
