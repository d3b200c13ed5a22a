"""Search with the graph through HTTP: attribute conditions first, then the semantic paths; one-hop
expansion around an entity."""
from __future__ import annotations

import pytest

SEARCH = "/api/v1/memories/search"
MEMORIES = "/api/v1/memories"


def remember(client, user_id="u1", **fields):
    response = client.post_json(MEMORIES, {"user_id": user_id, "kind": "fact", **fields})
    assert response.status_code == 201, response.content
    return response.json()["id"]


def search(client, **body):
    response = client.post_json(SEARCH, {"user_id": "u1", "min_score": 0, **body})
    assert response.status_code == 200, response.content
    return response.json()


def contents(body):
    return {row["memory"]["content"] if "memory" in row else row["content"] for row in body["results"]}


def test_attribute_conditions_narrow_before_the_semantic_paths(api):
    remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"])
    remember(api, content="网易的同事都在杭州工作", entities=["网易", "杭州"])
    remember(api, content="用户以前在腾讯工作", memory_key="user.former_employer", entities=["腾讯"])
    remember(api, content="用户对花生严重过敏", memory_key="user.allergies",
             attributes={"allergen": "花生", "severity": "severe"})
    remember(api, content="用户在网易工作", memory_key="user.employer", entities=["网易"], user_id="u2")

    unfiltered = search(api, query="网易 工作")
    assert {"用户在网易工作", "网易的同事都在杭州工作"} <= contents(unfiltered)
    # The employer memory carries no attributes: its edge user —works_at→ 网易 answers the condition.
    filtered = search(api, query="网易 工作", attributes={"employer": "网易"})
    assert contents(filtered) == {"用户在网易工作"}
    assert contents(search(api, query="工作", attributes={"employer": "腾讯"})) == {"用户以前在腾讯工作"}
    assert contents(search(api, query="过敏", attributes={"severity": "severe"})) == {"用户对花生严重过敏"}
    assert contents(search(api, query="过敏", attributes={"severity": "severe", "allergen": "虾"})) == set()
    assert search(api, query="网易", attributes={"employer": "字节"})["results"] == []
    assert "expansion" not in filtered


def test_expand_searches_one_hop_around_an_entity(api):
    remember(api, content="我女儿叫朵朵，今年7岁", memory_key="user.relationship.daughter", entities=["朵朵"],
             attributes={"relation": "女儿", "name": "朵朵", "age": 7})
    remember(api, content="朵朵喜欢画画", entities=["朵朵"])
    remember(api, content="用户喜欢画画", memory_key="user.likes", entities=["画画"])
    remember(api, content="朵朵喜欢画画", entities=["朵朵"], user_id="u2")

    assert {"朵朵喜欢画画", "用户喜欢画画"} <= contents(search(api, query="喜欢画画"))
    expanded = search(api, query="喜欢画画", expand="女儿")
    assert contents(expanded) == {"朵朵喜欢画画"} | ({"我女儿叫朵朵，今年7岁"} & contents(expanded))
    assert "用户喜欢画画" not in contents(expanded)
    assert {(e["subject"], e["predicate"], e["object"]) for e in expanded["expansion"]} == {
        ("user", "has_relative", "女儿"), ("女儿", "named", "朵朵")}
    assert all(e["provenance"]["memory_id"] for e in expanded["expansion"])
    # Both narrowings hold together.
    both = search(api, query="女儿", expand="女儿", attributes={"age": 7})
    assert contents(both) == {"我女儿叫朵朵，今年7岁"}


def test_another_tenants_memories_never_answer_a_condition(api, make_client, other_tenant):
    other = make_client(other_tenant)
    remember(other, content="用户在网易工作", memory_key="user.employer", entities=["网易"])
    assert search(api, query="网易", attributes={"employer": "网易"})["results"] == []
    assert search(api, query="网易", expand="网易") == {"results": [], "expansion": []}


@pytest.mark.parametrize("body, field", [
    ({"attributes": []}, "attributes"),
    ({"attributes": {}}, "attributes"),
    ({"attributes": {"employer": {"name": "网易"}}}, "attributes.employer"),
    ({"attributes": {"employer": None}}, "attributes.employer"),
    ({"attributes": {f"a{i}": i for i in range(11)}}, "attributes"),
    ({"expand": ""}, "expand"),
    ({"expand": "x" * 201}, "expand"),
])
def test_bad_conditions_are_400_naming_the_field(api, body, field):
    response = api.post_json(SEARCH, {"user_id": "u1", "query": "网易", **body})
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["details"]["fields"], response.json()
