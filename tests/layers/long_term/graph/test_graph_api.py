"""The relation graph through HTTP: edges derived from memories, a job change closing an edge, history and
`at`, isolation across tenants and users, bad input, erasure."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.utils import timezone

from layers.long_term.graph.models import Edge
from layers.long_term.models import Memory

MEMORIES = "/api/v1/memories"


def graph(client, **params):
    return client.get(f"/api/v1/graph?{urlencode(params)}")


def remember(client, user_id="u1", **fields):
    response = client.post_json(MEMORIES, {"user_id": user_id, "kind": "fact", **fields})
    assert response.status_code == 201, response.content
    return response.json()


def triples(body):
    return {(row["subject"], row["predicate"], row["object"]) for row in body["results"]}


def test_a_job_change_closes_the_old_edge_and_opens_the_new(api):
    old = remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"],
                   source_session_id="chat-1", source_turn_from=3, source_turn_to=3)
    between = timezone.now()
    new = remember(api, content="用户在字节工作", memory_key="user.employer", entities=["字节"])

    current = graph(api, user_id="u1", entity="user")
    assert current.status_code == 200, current.content
    assert triples(current.json()) == {("user", "works_at", "字节")}
    (row,) = current.json()["results"]
    assert row["current"] is True and row["valid_to"] is None and row["direction"] == "out"
    assert row["provenance"]["memory_id"] == new["id"] and row["provenance"]["memory_key"] == "user.employer"

    history = graph(api, user_id="u1", entity="user", include_closed="true").json()["results"]
    by_object = {row["object"]: row for row in history}
    assert set(by_object) == {"网易", "字节"}
    closed = by_object["网易"]
    assert closed["current"] is False and closed["valid_to"] is not None
    assert closed["provenance"] == {"memory_id": old["id"], "memory_key": "user.employer", "session_id": "chat-1",
                                    "turn_from": 3, "turn_to": 3}
    stored_old = Memory.objects.get(pk=old["id"])
    assert stored_old.status == "superseded"
    assert Edge.objects.get(memory_id=old["id"]).valid_to == stored_old.valid_to

    in_the_past = graph(api, user_id="u1", entity="user", at=between.isoformat()).json()
    assert triples(in_the_past) == {("user", "works_at", "网易")}
    # From the other end: who works at 网易 now? Nobody; back then, the user (an incoming edge).
    assert graph(api, user_id="u1", entity="网易").json()["results"] == []
    (incoming,) = graph(api, user_id="u1", entity="网易", at=between.isoformat()).json()["results"]
    assert incoming["direction"] == "in" and incoming["neighbour"] == "user"


def test_family_allergy_and_explicit_relations(api):
    remember(api, content="我女儿叫朵朵，今年7岁", memory_key="user.relationship.daughter", entities=["朵朵"],
             attributes={"relation": "女儿", "name": "朵朵", "age": 7})
    remember(api, content="用户对花生过敏", memory_key="user.allergies", entities=["花生"])
    remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    remember(api, content="订单P123已通过补偿解决", memory_key="order.p123",
             attributes={"relations": [{"subject": "order P123", "predicate": "resolved_by",
                                        "object": "compensation"}]})

    assert triples(graph(api, user_id="u1", entity="user").json()) == {
        ("user", "has_relative", "女儿"), ("user", "allergic_to", "花生"), ("user", "lives_in", "上海")}
    assert triples(graph(api, user_id="u1", entity="女儿").json()) == {
        ("user", "has_relative", "女儿"), ("女儿", "named", "朵朵")}
    assert triples(graph(api, user_id="u1", entity="Order  p123").json()) == {
        ("order P123", "resolved_by", "compensation")}
    # Hottest first: rank = (access + 1) × weight. The relative was served once more (the 女儿 read), so
    # 3 × 0.7 beats the allergy's 2 × 1.0, which beats where the user lives, 2 × 0.7.
    ranked = graph(api, user_id="u1", entity="user").json()["results"]
    assert [(row["predicate"], row["rank"]) for row in ranked] == [
        ("has_relative", pytest.approx(2.1)), ("allergic_to", pytest.approx(2.0)), ("lives_in", pytest.approx(1.4))]


def test_serving_counts_access_and_rank_follows(api):
    remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    first = graph(api, user_id="u1", entity="user").json()["results"][0]
    second = graph(api, user_id="u1", entity="user").json()["results"][0]
    assert (first["access_count"], second["access_count"]) == (0, 1)
    assert second["rank"] == pytest.approx(2 * second["weight"])


def test_a_deleted_memory_hides_its_edges_and_a_restore_brings_them_back(api):
    memory = remember(api, content="用户对花生过敏", memory_key="user.allergies", entities=["花生"])
    assert api.delete(f"{MEMORIES}/{memory['id']}").status_code == 200
    assert graph(api, user_id="u1", entity="user", include_closed="true").json()["results"] == []
    assert api.post_json(f"{MEMORIES}/{memory['id']}/restore").status_code == 200
    assert triples(graph(api, user_id="u1", entity="user").json()) == {("user", "allergic_to", "花生")}


def test_a_correction_closes_what_the_memory_no_longer_says(api):
    memory = remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"])
    response = api.patch_json(f"{MEMORIES}/{memory['id']}", {"content": "用户在腾讯工作", "entities": ["腾讯"]})
    assert response.status_code == 200, response.content
    assert triples(graph(api, user_id="u1", entity="user").json()) == {("user", "works_at", "腾讯")}
    closed = [row for row in graph(api, user_id="u1", entity="user", include_closed="true").json()["results"]
              if row["object"] == "网易"]
    assert len(closed) == 1 and closed[0]["valid_to"] is not None


def test_other_tenants_and_users_never_see_the_edges(api, make_client, other_tenant):
    remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"], user_id="u1")
    remember(api, content="用户在字节工作", memory_key="user.employer", entities=["字节"], user_id="u2")
    other = make_client(other_tenant)
    remember(other, content="用户在华为工作", memory_key="user.employer", entities=["华为"], user_id="u1")

    assert triples(graph(api, user_id="u1", entity="user").json()) == {("user", "works_at", "网易")}
    assert triples(graph(api, user_id="u2", entity="user").json()) == {("user", "works_at", "字节")}
    assert triples(graph(other, user_id="u1", entity="user").json()) == {("user", "works_at", "华为")}
    for client, user_id in ((api, "u1"), (other, "u1"), (api, "nobody")):
        for entity in ("华为", "字节") if client is api and user_id == "u1" else ("网易", "字节"):
            response = graph(client, user_id=user_id, entity=entity, include_closed="true")
            assert response.status_code == 200 and response.json()["results"] == []


def test_a_read_key_may_read_the_graph_and_no_key_may_not(api, make_client, tenant, client):
    remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    reader = make_client(tenant, scopes=["read"])
    assert graph(reader, user_id="u1", entity="user").status_code == 200
    # Reading the graph counts access but changes no memory: a read key cannot write one.
    assert reader.post_json(MEMORIES, {"user_id": "u1", "content": "x"}).status_code == 403
    assert client.get("/api/v1/graph?user_id=u1&entity=user").status_code == 401


@pytest.mark.parametrize("params, field", [
    ({"entity": "user"}, "user_id"),
    ({"user_id": "u1"}, "entity"),
    ({"user_id": " u1", "entity": "user"}, "user_id"),
    ({"user_id": "u1", "entity": "x" * 201}, "entity"),
    ({"user_id": "u1", "entity": "user", "at": "yesterday"}, "at"),
    ({"user_id": "u1", "entity": "user", "include_closed": "maybe"}, "include_closed"),
    ({"user_id": "u1", "entity": "user", "at": "2026-01-01T00:00:00Z", "include_closed": "true"}, "include_closed"),
    ({"user_id": "u1", "entity": "user", "limit": "0"}, "limit"),
    ({"user_id": "u1", "entity": "user", "limit": "many"}, "limit"),
    ({"user_id": "u1", "entity": "user", "hops": "2"}, "hops"),
])
def test_bad_input_is_400_naming_the_field(api, params, field):
    response = graph(api, **params)
    assert response.status_code == 400, response.content
    body = response.json()["error"]
    assert field in body["details"]["fields"], body


def test_erasure_deletes_the_users_edges(api):
    remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"], user_id="gone")
    remember(api, content="用户在字节工作", memory_key="user.employer", entities=["字节"], user_id="gone")
    remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"], user_id="stays")
    assert Edge.objects.filter(user_id="gone").count() == 2
    assert api.delete("/api/v1/users/gone").status_code == 200
    assert not Edge.objects.filter(user_id="gone").exists()
    assert graph(api, user_id="gone", entity="user", include_closed="true").json()["results"] == []
    assert triples(graph(api, user_id="stays", entity="user").json()) == {("user", "lives_in", "上海")}


def test_attributes_are_checked_against_their_family_schema(api):
    bad_age = api.post_json(MEMORIES, {"user_id": "u1", "content": "我女儿叫朵朵", "memory_key": "user.relationship.daughter",
                                       "attributes": {"name": "朵朵", "age": "seven"}})
    assert bad_age.status_code == 400, bad_age.content
    assert list(bad_age.json()["error"]["details"]["fields"]) == ["attributes.age"]
    bad_severity = api.post_json(MEMORIES, {"user_id": "u1", "content": "花生过敏", "memory_key": "user.allergies",
                                            "attributes": {"allergen": "花生", "severity": "deadly"}})
    assert "attributes.severity" in bad_severity.json()["error"]["details"]["fields"]
    bad_relation = api.post_json(MEMORIES, {"user_id": "u1", "content": "订单P123", "attributes": {
        "relations": [{"predicate": "Resolved By", "object": "compensation"}]}})
    assert "attributes.relations.0.predicate" in bad_relation.json()["error"]["details"]["fields"]
    assert not Memory.objects.exists() and not Edge.objects.exists()
    # Attributes outside the schema stay free (the extractor's lang, session, turns).
    assert api.post_json(MEMORIES, {"user_id": "u1", "content": "我女儿叫朵朵", "memory_key": "user.relationship.daughter",
                                    "attributes": {"name": "朵朵", "age": 7, "lang": "zh"}}).status_code == 201
    memory = Memory.objects.get()
    patched = api.patch_json(f"{MEMORIES}/{memory.pk}", {"attributes": {"age": -1}})
    assert patched.status_code == 400 and "attributes.age" in patched.json()["error"]["details"]["fields"]


def test_a_batch_writes_every_items_edges_and_the_backfill_rewrites_nothing(api):
    from django.core.management import call_command

    from audit.models import AuditEvent

    response = api.post_json(MEMORIES, {"memories": [
        {"user_id": "u1", "content": "用户在网易工作", "memory_key": "user.employer", "entities": ["网易"]},
        {"user_id": "u1", "content": "用户养了一只猫叫咪咪", "memory_key": "user.pet.cat", "entities": ["咪咪", "cat"]},
    ]})
    assert response.status_code == 201, response.content
    assert triples(graph(api, user_id="u1", entity="cat").json()) == {("user", "has_pet", "cat"), ("cat", "named", "咪咪")}
    before = Edge.objects.count()
    call_command("graph_backfill")
    assert Edge.objects.count() == before
    assert not AuditEvent.objects.filter(action="graph.backfilled").exists()
    # Edges lost (a table restored from before the graph): the backfill derives them again, audited.
    Edge.objects.all().delete()
    call_command("graph_backfill")
    assert Edge.objects.count() == before
    assert AuditEvent.objects.filter(action="graph.backfilled").count() == 1


def test_the_endpoint_is_in_the_openapi_schema_with_examples():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/graph"]["get"]
    assert {p["name"] for p in operation["parameters"]} == {"user_id", "entity", "at", "include_closed", "limit"}
    assert {"400", "401", "403"} <= set(operation["responses"])
    assert operation["responses"]["200"]["content"]["application/json"]["examples"]
    search = schema["components"]["schemas"]["MemorySearchInputRequest"]["properties"]
    assert {"attributes", "expand"} <= set(search)


def test_the_hot_set_is_the_current_edges_hottest_first(api, tenant):
    from layers.long_term.graph.selectors import graph_hot_edges

    remember(api, content="用户住在上海", memory_key="user.home_city", entities=["上海"])
    remember(api, content="用户对花生过敏", memory_key="user.allergies", entities=["花生"])
    remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"])
    remember(api, content="用户在字节工作", memory_key="user.employer", entities=["字节"])
    assert [n.edge.predicate for n in graph_hot_edges(tenant_id=tenant.pk, user_id="u1")][0] == "allergic_to"
    for _ in range(2):
        graph(api, user_id="u1", entity="上海")
    hot = graph_hot_edges(tenant_id=tenant.pk, user_id="u1", limit=2)
    assert [(n.edge.predicate, n.neighbour, n.rank) for n in hot] == [
        ("lives_in", "上海", pytest.approx(2.1)), ("allergic_to", "花生", pytest.approx(1.0))]
    assert "网易" not in {n.neighbour for n in graph_hot_edges(tenant_id=tenant.pk, user_id="u1")}
    assert graph_hot_edges(tenant_id=tenant.pk, user_id="u2") == []


def test_schemas_and_predicates_are_governed_policy(api, tenant, make_staff):
    from permanent.services import change_request_approve, change_request_propose

    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    for key, value in (
            ("policy.graph.attribute_schemas", {"user.vehicle": {
                "type": "object", "required": ["model"], "properties": {"model": {"type": "string"}}}}),
            ("policy.graph.predicates", {"user.vehicle": "drives"}),
            ("policy.graph.object_attributes", {"user.vehicle": "model"})):
        request = change_request_propose(tenant=tenant, key=key, action="create", value=value, proposer_user=editor)
        change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)

    refused = api.post_json(MEMORIES, {"user_id": "u1", "content": "用户开特斯拉", "memory_key": "user.vehicle",
                                       "attributes": {"colour": "red"}})
    assert refused.status_code == 400 and "attributes" in refused.json()["error"]["details"]["fields"]
    remember(api, content="用户开特斯拉", memory_key="user.vehicle", attributes={"model": "Model 3"})
    assert triples(graph(api, user_id="u1", entity="user").json()) == {("user", "drives", "Model 3")}
    # Merged over the defaults: the families the override does not name keep their schema.
    bad_age = api.post_json(MEMORIES, {"user_id": "u1", "content": "我女儿叫朵朵", "memory_key": "user.relationship.daughter",
                                       "attributes": {"age": "seven"}})
    assert bad_age.status_code == 400
