"""`GET /api/v1/permanent/change-requests`: an agent follows its own proposals, only its own, across
two tenants and two keys; pages through the shared pagination; bad filters are 400s. And proposing a
key that does not exist without `action: create` says what to send."""
from __future__ import annotations

import pytest

from permanent.services import change_request_propose

pytestmark = pytest.mark.django_db
URL = "/api/v1/permanent/change-requests"


def _propose(client, key, **body):
    response = client.post_json(URL, {"action": "create", "key": key, "value": f"value of {key}", **body})
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_a_key_lists_its_own_proposals_only(make_client, tenant, other_tenant, editor):
    first, second = make_client(tenant, name="agent one"), make_client(tenant, name="agent two")
    foreign = make_client(other_tenant, name="other tenant agent")
    mine = [_propose(first, f"rules.a{i}") for i in range(3)]
    theirs = _propose(second, "rules.b")
    _propose(foreign, "rules.a0")  # same key, other tenant
    change_request_propose(tenant=tenant, key="rules.staff", action="create", value=1, proposer_user=editor)

    listed = first.get(URL)
    assert listed.status_code == 200
    assert [item["id"] for item in listed.json()["results"]] == list(reversed(mine))  # newest first
    assert {item["key"] for item in listed.json()["results"]} == {"rules.a0", "rules.a1", "rules.a2"}
    assert [item["id"] for item in second.get(URL).json()["results"]] == [theirs]
    assert [item["key"] for item in foreign.get(URL).json()["results"]] == ["rules.a0"]
    # Another key's request is still readable by id in the same tenant, never in another.
    assert first.get(f"{URL}/{theirs}").status_code == 200
    assert foreign.get(f"{URL}/{theirs}").status_code == 404


def test_pages_and_filters(make_client, tenant):
    agent = make_client(tenant)
    ids = [_propose(agent, f"rules.p{i}") for i in range(5)]
    agent.post_json(f"{URL}/{ids[0]}/withdraw")
    seen, cursor = [], None
    while True:
        page = agent.get(URL, {"limit": 2, **({"cursor": cursor} if cursor else {})}).json()
        assert len(page["results"]) <= 2
        seen += [item["id"] for item in page["results"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == list(reversed(ids))
    assert [i["id"] for i in agent.get(URL, {"state": "withdrawn"}).json()["results"]] == [ids[0]]
    assert [i["id"] for i in agent.get(URL, {"key": "rules.p3"}).json()["results"]] == [ids[3]]
    assert agent.get(URL, {"key": "rules.none"}).json() == {"results": [], "next_cursor": None}


@pytest.mark.parametrize("params, code", [
    ({"state": "done"}, "invalid_state"), ({"key": "bad key"}, "invalid_key"), ({"limit": "0"}, "invalid_limit"),
    ({"limit": "x"}, "invalid_limit"), ({"cursor": "%%%"}, "invalid_cursor"), ({"cursor": "InNvbWUi"}, "invalid_cursor"),
])
def test_bad_filters_are_400(api, params, code):
    response = api.get(URL, params)
    assert response.status_code == 400 and response.json()["error"]["code"] == code


def test_listing_needs_a_key_and_read_is_enough(make_client, tenant, anon):
    assert anon.get(URL).status_code == 401
    reader = make_client(tenant, scopes=["read"])
    assert reader.get(URL).json() == {"results": [], "next_cursor": None}
    refused = reader.post_json(URL, {"action": "create", "key": "rules.x", "value": 1})
    assert refused.status_code == 403


@pytest.mark.parametrize("body", [{}, {"action": "update"}, {"action": "retire"},
                                  {"action": "rollback", "target_version": 1}])
def test_a_new_key_without_create_is_a_400_that_says_so(api, body):
    response = api.post_json(URL, {"key": "rules.brand_new", **({"value": "x"} if body.get("action") != "retire"
                                                                 and "target_version" not in body else {}), **body})
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "entry_not_found_use_create" and '"action": "create"' in error["message"]
    assert error["details"]["expected_action"] == "create"
