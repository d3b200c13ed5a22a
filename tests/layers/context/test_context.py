"""POST /api/v1/context: the five blocks in order, budget fitting with the documented drop order,
422 when the fixed blocks do not fit, isolation and bad input."""
import pytest

from layers.long_term.services import memory_restore, memory_soft_delete
from memoryhub.core.actors import Actor
from memoryhub.providers.tokens import count_tokens

ACTOR = Actor.system("tests.context")

pytestmark = pytest.mark.django_db
CONTEXT = "/api/v1/context"
ORDER = ["system_rules", "user_profile", "session", "task_state", "user_input"]


def _context(api, status=200, **body):
    response = api.post_json(CONTEXT, {"user_id": "alice", "query": "What meals am I allergic to?", **body})
    assert response.status_code == status, response.content
    return response.json()


def _blocks(body):
    return {block["name"]: block for block in body["blocks"]}


def test_all_blocks_in_order_with_sources(api, remember, conversation, system_rule):
    system_rule("rules.tone", "Answer briefly and politely.")
    allergy = remember("I am allergic to peanuts", kind="preference")
    remember("I live in Hangzhou", user_id="bob")  # another user's memory never shows
    body = _context(api, session_id="trip-1", token_budget=4000)
    assert [block["name"] for block in body["blocks"]] == ORDER
    blocks = _blocks(body)
    assert blocks["system_rules"]["source_ids"] == ["permanent:rules.tone@v1"]
    assert "Answer briefly" in blocks["system_rules"]["content"]
    assert blocks["user_profile"]["source_ids"] == [f"memory:{allergy.pk}"]
    assert blocks["session"]["source_ids"] == ["summary:1", "turn:3", "turn:4", "turn:5", "turn:6"]
    assert blocks["session"]["content"].startswith("[summary] 用户要订去上海的机票。")
    task = blocks["task_state"]["items"][0]
    assert task["task_type"] == "book_flight" and task["missing_slots"] == ["date"]
    assert blocks["user_input"]["content"] == "What meals am I allergic to?"
    for block in body["blocks"]:
        assert block["token_count"] == (count_tokens(block["content"]) if block["content"] else 0)
    assert body["token_count"] == sum(block["token_count"] for block in body["blocks"]) <= 4000
    assert body["dropped"] == []


def test_over_budget_drops_in_the_documented_order(api, remember, conversation):
    for i in range(5):
        remember(f"Meal note {i}: I like vegetarian meals number {i}", kind="preference", confidence=1 - i * 0.1)
    full = _context(api, query="meals", session_id="trip-1", token_budget=4000)
    full_blocks = _blocks(full)
    assert len(full_blocks["user_profile"]["source_ids"]) == 5
    fixed = full_blocks["system_rules"]["token_count"] + full_blocks["user_input"]["token_count"]
    sizes = {name: full_blocks[name]["token_count"] for name in ORDER}

    # Just too small for everything: only the oldest turn goes.
    body = _context(api, query="meals", session_id="trip-1", token_budget=full["token_count"] - 1)
    assert [d["source_id"] for d in body["dropped"]] == ["turn:3"]
    assert body["token_count"] <= full["token_count"] - 1

    # Room for the fixed blocks, the tasks and a little more: all turns, then the summary, then the
    # lowest-scored profile memories go, the task state stays.
    budget = fixed + sizes["task_state"] + 30
    body = _context(api, query="meals", session_id="trip-1", token_budget=budget)
    dropped = [d["source_id"] for d in body["dropped"]]
    assert dropped[:5] == ["turn:3", "turn:4", "turn:5", "turn:6", "summary:1"]
    profile_dropped = dropped[5:]
    kept = _blocks(body)["user_profile"]["source_ids"]
    assert 0 < len(kept) < 5 and len(profile_dropped) == 5 - len(kept)
    by_score = [item["source_id"] for item in sorted(full_blocks["user_profile"]["items"], key=lambda i: i["score"])]
    assert profile_dropped == by_score[:len(profile_dropped)]  # lowest score first
    assert _blocks(body)["task_state"]["source_ids"] and body["token_count"] <= budget

    # Only the fixed blocks fit: everything else is dropped, task state last.
    body = _context(api, query="meals", session_id="trip-1", token_budget=fixed)
    assert body["dropped"][-1]["block"] == "task_state"
    assert [b["name"] for b in body["blocks"] if b["source_ids"]] == ["user_input"]


def test_budget_smaller_than_the_fixed_blocks_is_422(api, system_rule):
    system_rule("rules.long", "Always follow the house style guide in every single answer. " * 5)
    error = _context(api, status=422, token_budget=10)["error"]
    assert error["code"] == "budget_too_small" and error["details"]["required_tokens"] > 10


def test_soft_deleted_memory_leaves_the_context_and_returns_on_restore(api, remember):
    memory = remember("I am allergic to peanuts", kind="preference")
    assert _blocks(_context(api))["user_profile"]["source_ids"] == [f"memory:{memory.pk}"]
    memory = memory_soft_delete(memory=memory, actor=ACTOR)
    assert _blocks(_context(api))["user_profile"]["source_ids"] == []
    memory_restore(memory=memory, actor=ACTOR)
    assert _blocks(_context(api))["user_profile"]["source_ids"] == [f"memory:{memory.pk}"]


def test_context_is_tenant_and_user_isolated(api, other_api, remember, conversation):
    remember("I am allergic to peanuts", kind="preference")
    assert other_api.post_json(CONTEXT, {"user_id": "alice", "query": "meals", "session_id": "trip-1"}).status_code == 404
    body = other_api.post_json(CONTEXT, {"user_id": "alice", "query": "What about peanuts?"}).json()
    assert _blocks(body)["user_profile"]["source_ids"] == []
    mismatch = api.post_json(CONTEXT, {"user_id": "mallory", "query": "meals", "session_id": "trip-1"})
    assert mismatch.status_code == 409 and mismatch.json()["error"]["code"] == "session_user_mismatch"


def test_context_without_a_session(api, remember):
    remember("I prefer aisle seats", kind="preference")
    blocks = _blocks(_context(api, query="Which seat do I like?"))
    assert blocks["session"]["source_ids"] == [] and blocks["task_state"]["source_ids"] == []
    assert len(blocks["user_profile"]["source_ids"]) == 1


@pytest.mark.parametrize("body, field", [
    ({"user_id": "alice", "query": ""}, "query"),
    ({"query": "hi"}, "user_id"),
    ({"user_id": "alice", "query": "hi", "token_budget": 0}, "token_budget"),
    ({"user_id": "alice", "query": "hi", "token_budget": "many"}, "token_budget"),
    ({"user_id": "alice", "query": "hi", "profile_top_k": 500}, "profile_top_k"),
])
def test_bad_context_input_is_400(api, body, field):
    response = api.post_json(CONTEXT, body)
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["details"]["fields"]


def test_unknown_session_is_404(api):
    response = api.post_json(CONTEXT, {"user_id": "alice", "query": "hi", "session_id": "nope"})
    assert response.status_code == 404


def test_core_facts_join_the_profile_when_the_query_does_not_reach_them(api, remember):
    allergy = remember("I am allergic to peanuts", kind="fact", memory_key="user.allergies", importance=0.95)
    remember("我对花生过敏", kind="fact", memory_key="user.allergies", importance=0.95, user_id="bob")
    remember("I like jazz", kind="preference", importance=0.5)
    body = _context(api, query="Recommend a restaurant for dinner tonight", token_budget=4000)
    profile = _blocks(body)["user_profile"]
    assert profile["source_ids"] == [f"memory:{allergy.pk}"], "only alice's allergy, not her weak likes"
    # the dinner scene calls for allergies, so it comes as a scene match, and says it is a core fact too
    item = profile["items"][0]
    assert item["core"] is True and item["reason"] == "scene" and item["scene"] == "dining"


def test_a_matched_core_fact_is_listed_once(api, remember):
    allergy = remember("I am allergic to peanuts", kind="fact", importance=0.95)
    body = _context(api, query="peanut allergy", token_budget=4000)
    profile = _blocks(body)["user_profile"]
    assert profile["source_ids"] == [f"memory:{allergy.pk}"]
    assert profile["items"][0]["reason"] == "match" and profile["items"][0]["core"] is True


def test_core_profile_can_be_turned_off_by_an_approved_policy_entry(api, remember, system_rule):
    # a core fact no dining cue calls for: only the core-facts rule brings it
    remember("My blood type is O negative", kind="fact", importance=0.95)
    assert len(_blocks(_context(api, query="Recommend a restaurant", token_budget=4000))["user_profile"]
               ["source_ids"]) == 1
    system_rule("policy.long_term.core_profile_limit", 0)
    assert _blocks(_context(api, query="Recommend a restaurant", token_budget=4000))["user_profile"]["source_ids"] == []
