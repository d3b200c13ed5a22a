"""The LLM second stage (layers/long_term/selectors/rerank_llm.py) against the local OpenAI-compatible stub:
the model's relevance orders and scores the candidates it was sent, explain shows the offline and the LLM
stage, and any failure (HTTP error, not JSON, outside the schema, ids missing, endpoint unreachable)
serves the offline stage unchanged. Keyword mode keeps the local embedder out of it."""
import json

import pytest

from layers.long_term.selectors import memory_search
from tests.support.openai_chat_stub import OpenAIChatStub

pytestmark = pytest.mark.django_db
QUERY = "peanut sauce for dinner"


@pytest.fixture
def stub(settings):
    server = OpenAIChatStub().start()
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY, settings.OPENAI_CHAT_MODEL = server.base_url, "k", "stub-model"
    yield server
    server.stop()


@pytest.fixture
def memories(remember):
    return [remember("user: the peanut sauce was too sweet", kind="episode"),
            remember("user: I make a peanut sauce for dinner every Friday", kind="episode"),
            remember("user: dinner at my mum's on Sunday", kind="episode")]


def _search(tenant, **extra):
    return memory_search(tenant=tenant, user_id="u1", query=QUERY, mode="keyword", min_score=0, explain=True, **extra)


def _offline(tenant, settings):
    base = settings.OPENAI_BASE_URL
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = None, None
    try:
        return [(s.memory.pk, round(s.score, 9)) for s in _search(tenant)]
    finally:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = base, "k"


def test_the_models_relevance_orders_and_scores(tenant, memories, stub):
    sweet, friday, sunday = memories
    stub.reply_json({"scores": [{"id": sweet.pk, "relevance": 0.1}, {"id": friday.pk, "relevance": 0.9},
                                {"id": sunday.pk, "relevance": 0.0}]})
    results = _search(tenant)
    assert [s.memory.pk for s in results] == [friday.pk, sweet.pk]  # relevance 0 is not served
    top = results[0].explain
    assert top["rerank"]["llm"]["relevance"] == pytest.approx(0.9) and top["rerank"]["llm"]["model"] == "stub-model"
    assert top["rerank"]["llm"]["offline_relevance"] == pytest.approx(top["rerank"]["relevance"])
    assert top["relevance"] == pytest.approx(0.9)
    for scored in results:
        e = scored.explain
        assert scored.score == pytest.approx(e["relevance"] * e["recency"] * e["scene"] * e["confidence"]
                                             * e["feedback_weight"])
    sent = json.loads(stub.requests[0]["messages"][1]["content"])
    assert sent["query"] == QUERY and {m["id"] for m in sent["memories"]} == {m.pk for m in memories}
    assert stub.requests[0]["response_format"] == {"type": "json_object"}


def test_min_score_cuts_the_models_score(tenant, memories, stub):
    sweet, friday, sunday = memories
    stub.reply_json({"scores": [{"id": sweet.pk, "relevance": 0.2}, {"id": friday.pk, "relevance": 0.9},
                                {"id": sunday.pk, "relevance": 0.4}]})
    results = memory_search(tenant=tenant, user_id="u1", query=QUERY, mode="keyword", min_score=0.3)
    assert [s.memory.pk for s in results] == [friday.pk, sunday.pk]


@pytest.mark.parametrize("script", [
    lambda stub, ids: stub.reply_status(500),
    lambda stub, ids: stub.reply_content("{not json"),
    lambda stub, ids: stub.reply_json({"scores": [{"id": ids[0], "relevance": 1.7}]}),   # outside the schema
    lambda stub, ids: stub.reply_json({"scores": [{"id": ids[0], "relevance": 0.5}]}),   # ids missing
    lambda stub, ids: stub.reply_json({"scores": [{"id": i, "relevance": 0.5} for i in ids], "note": "x"}),
], ids=["http-500", "not-json", "out-of-range", "ids-missing", "extra-key"])
def test_any_failure_serves_the_offline_stage(tenant, memories, stub, settings, script):
    offline = _offline(tenant, settings)
    script(stub, [m.pk for m in memories])
    results = _search(tenant)
    assert [(s.memory.pk, round(s.score, 9)) for s in results] == offline
    assert all(s.explain["rerank"]["llm"]["fallback"] for s in results)
    assert stub.pending == 0 and len(stub.requests) == 1  # asked once, no retry inside a search


def test_an_unreachable_endpoint_serves_the_offline_stage(tenant, memories, settings):
    offline = _offline(tenant, settings)
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = "http://127.0.0.1:9/v1", "k"
    results = _search(tenant)
    assert [(s.memory.pk, round(s.score, 9)) for s in results] == offline
    assert results[0].explain["rerank"]["llm"]["fallback"] == "LLMUnavailable"


def test_policy_keeps_the_model_out(tenant, memories, stub, make_staff):
    from permanent.services import change_request_approve, change_request_propose

    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.long_term.rerank_llm", action="create", value=False,
                                     proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    results = _search(tenant)
    assert results and all("llm" not in s.explain["rerank"] for s in results)
    assert stub.requests == []
