"""Hot and cold in the context: the user's hottest current graph edges whose entity the query or the session
names are drawn on first (reason `hot_edge`, or `hot_edges` on a match already served), their access counted;
other users' and tenants' edges never; a closed edge no longer; the governed limit. Through HTTP."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest

from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db


def remember(client, user_id="alice", **fields):
    response = client.post_json("/api/v1/memories", {"user_id": user_id, "kind": "fact", **fields})
    assert response.status_code == 201, response.content
    return response.json()


def profile_items(client, **body):
    response = client.post_json("/api/v1/context", {"user_id": "alice", **body})
    assert response.status_code == 200, response.content
    (profile,) = [block for block in response.json()["blocks"] if block["name"] == "user_profile"]
    return profile["items"]


def with_edges(items):
    return {item["memory_id"]: item for item in items if item.get("hot_edges")}


def say(client, session_id, content, user_id="alice"):
    assert client.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": user_id}).status_code in (200, 201)
    response = client.post_json(f"/api/v1/sessions/{session_id}/turns", {"turns": [{"role": "user", "content": content}]})
    assert response.status_code == 201, response.content


def test_an_entity_of_the_session_brings_its_hot_edge_first(api):
    home = remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    remember(api, content="用户对花生过敏", memory_key="user.allergies", entities=["花生"])
    say(api, "trip", "下周我要回上海")
    items = profile_items(api, query="把音量调小一点", session_id="trip")
    first = items[0]
    assert first["reason"] == "hot_edge" and first["memory_id"] == home["id"]
    (edge,) = first["hot_edges"]
    assert (edge["subject"], edge["predicate"], edge["object"], edge["named"]) == ("user", "lives_in", "上海", "上海")
    assert first["text"] == "- (fact) 用户住在上海"
    # Only the named entity's edges: the allergy is not named by the query or the session.
    assert set(with_edges(items)) == {home["id"]}


def test_serving_counts_access_so_the_edge_gets_hotter(api):
    remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    ranks = [profile_items(api, query="上海今天下雨吗")[0]["hot_edges"][0]["rank"] for _ in range(2)]
    assert ranks[1] == pytest.approx(ranks[0] * 2)  # (access + 1) × weight: 1 then 2 accesses
    (row,) = api.get(f"/api/v1/graph?{urlencode({'user_id': 'alice', 'entity': '上海'})}").json()["results"]
    assert row["access_count"] == 2


def test_a_match_is_annotated_not_served_twice(api):
    employer = remember(api, content="Alice works at Acme Robotics", memory_key="user.employer",
                        entities=["Acme Robotics"])
    items = profile_items(api, query="When does the Acme Robotics shuttle leave?")
    served = [item for item in items if item["memory_id"] == employer["id"]]
    assert len(served) == 1 and served[0]["hot_edges"][0]["object"] == "Acme Robotics"


def test_a_translation_of_the_entity_names_it(api):
    # 女儿 is named by "daughter" (the keyword layer's zh/en synonym table, as the graph endpoint reads it).
    daughter = remember(api, content="我女儿叫朵朵，今年7岁", memory_key="user.relationship.daughter", entities=["朵朵"],
                        attributes={"relation": "女儿", "name": "朵朵", "age": 7})
    assert daughter["id"] in with_edges(profile_items(api, query="what should I get my daughter?"))
    # "art" is not named in "start": a whole word only.
    assert with_edges(profile_items(api, query="start the day")) == {}


def test_a_closed_edge_is_not_hot(api):
    remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"])
    remember(api, content="用户在字节工作", memory_key="user.employer", entities=["字节"])
    items = with_edges(profile_items(api, query="网易和字节哪个远"))
    assert [edge["object"] for item in items.values() for edge in item["hot_edges"]] == ["字节"]


def test_other_users_and_tenants_edges_never_come(api, make_client, other_tenant):
    other = make_client(other_tenant)
    remember(api, user_id="bob", content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    remember(other, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    assert with_edges(profile_items(api, query="上海今天下雨吗")) == {}
    # bob's session cannot lend alice its entities either
    say(api, "bobs", "我在上海", user_id="bob")
    response = api.post_json("/api/v1/context", {"user_id": "alice", "query": "x", "session_id": "bobs"})
    assert response.status_code == 409 and response.json()["error"]["code"] == "session_user_mismatch"


def test_the_limit_is_governed_policy(api, tenant, make_staff):
    remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.context.hot_edges_limit", action="create", value=0,
                                     proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    assert with_edges(profile_items(api, query="上海今天下雨吗")) == {}


def test_over_budget_a_match_goes_before_a_hot_edge(api):
    home = remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"], importance=0.5)
    remember(api, content="用户喜欢吃上海的小笼包和生煎包，每周都会去吃一次", memory_key="user.likes.food",
             importance=0.5)
    say(api, "trip", "下周我要回上海")
    full = profile_items(api, query="小笼包", session_id="trip", token_budget=4000)
    assert {item["reason"] for item in full} >= {"hot_edge"} and len(full) >= 2
    response = api.post_json("/api/v1/context", {"user_id": "alice", "query": "小笼包", "session_id": "trip",
                                                 "token_budget": 40})
    assert response.status_code == 200, response.content
    (profile,) = [block for block in response.json()["blocks"] if block["name"] == "user_profile"]
    dropped = [row["source_id"] for row in response.json()["dropped"] if row["block"] == "user_profile"]
    kept = [item["memory_id"] for item in profile["items"]]
    assert kept == [home["id"]] and dropped, (kept, dropped)


def test_the_openapi_example_shows_a_hot_edge():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    examples = schema["paths"]["/api/v1/context"]["post"]["responses"]["200"]["content"]["application/json"]["examples"]
    assert any(item.get("reason") == "hot_edge" for example in examples.values()
               for block in example["value"]["blocks"] for item in block["items"])
