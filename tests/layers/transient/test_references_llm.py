"""The LLM path for low-confidence reference choices (layers/transient/references/llm.py), through HTTP and the
real `openai` client against a local chat-completions stub: off by default; when on, a low-confidence choice
among rivals is what the model answers in strict JSON; a reply that is not the schema, a failing endpoint or no
endpoint leaves the offline choice; a confident choice is never sent."""
import json

import pytest

from tests.support.openai_chat_stub import OpenAIChatStub
from tests.support.sessions import append, open_session, say

pytestmark = pytest.mark.django_db

CART = say(("user", "Add the desk lamp and the floor rug to my cart"),
           ("assistant", "Added the desk lamp and the floor rug."),
           ("user", "Actually, remove it"))


@pytest.fixture
def stub(settings):
    stub = OpenAIChatStub().start()
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY, settings.OPENAI_CHAT_MODEL = stub.base_url, "test-key", "stub-model"
    yield stub
    stub.stop()


@pytest.fixture
def path_on(tenant, make_staff):
    from permanent.services import change_request_approve, change_request_propose

    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.transient.reference_llm", action="create", value=True,
                                     proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)


def _it(body: dict) -> dict:
    return next(r for r in body["resolutions"] if r["mention"] == "it")


def _asked(stub) -> dict:
    [request] = [r for r in stub.requests if r["_path"].endswith("/chat/completions")]
    return json.loads(request["messages"][1]["content"])


def test_off_by_default_nothing_is_asked(api, stub):
    open_session(api)
    resolution = _it(append(api, CART))
    assert resolution["resolved"] is True and resolution["confidence"] <= 0.8
    assert stub.requests == []


def test_a_low_confidence_choice_is_the_models_answer(api, stub, path_on):
    stub.reply_json({"choice": 1, "confidence": 0.97})
    open_session(api)
    resolution = _it(append(api, CART))
    asked = _asked(stub)
    assert asked["expression"] == "it" and asked["message"] == "Actually, remove it"
    names = [c["name"] for c in asked["candidates"]]
    assert len(names) >= 2 and {"desk lamp", "floor rug"} <= set(names)
    # The second candidate, at the capped confidence; what the rules chose first was the other.
    assert [e["name"] for e in resolution["entities"]] == [names[1]] and resolution["confidence"] == 0.9
    request = stub.requests[0]
    assert request["model"] == "stub-model" and request["response_format"] == {"type": "json_object"}
    assert request["messages"][0]["role"] == "system" and "JSON" in request["messages"][0]["content"]


def test_the_model_may_say_nothing_is_meant(api, stub, path_on):
    stub.reply_json({"choice": None, "confidence": 0.6})
    open_session(api)
    resolution = _it(append(api, CART))
    assert resolution["resolved"] is False and resolution["entities"] == []


@pytest.mark.parametrize("reply", [
    lambda stub: stub.reply_content("the lamp, I think"),                      # not JSON
    lambda stub: stub.reply_json({"choice": 7, "confidence": 0.9}),            # no such candidate (schema)
    lambda stub: stub.reply_json({"choice": 1, "confidence": 0.9, "why": "x"}),  # more than the schema
    lambda stub: stub.reply_status(500),                                       # the endpoint fails
])
def test_a_reply_that_is_not_the_schema_or_a_failure_keeps_the_offline_choice(api, stub, path_on, reply):
    reply(stub)
    open_session(api)
    resolution = _it(append(api, CART))
    asked = _asked(stub)
    assert [e["name"] for e in resolution["entities"]] == [asked["candidates"][0]["name"]]
    assert resolution["resolved"] is True and resolution["confidence"] <= 0.8


def test_a_confident_choice_is_not_sent(api, stub, path_on):
    open_session(api)
    body = append(api, say(("user", "打开客厅的灯"), ("assistant", "客厅灯已打开。"), ("user", "把它调亮20%")))
    [resolution] = [r for r in body["resolutions"] if r["mention"] == "它"]
    assert [e["name"] for e in resolution["entities"]] == ["客厅的灯"] and resolution["confidence"] > 0.8
    assert stub.requests == []


def test_without_an_endpoint_the_path_asks_nothing(api, path_on, settings):
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = "", ""
    open_session(api)
    resolution = _it(append(api, CART))
    assert resolution["resolved"] is True and resolution["confidence"] <= 0.8


def test_the_client_has_the_paths_time_limit_and_no_retries(stub):
    from layers.transient.references.llm import TIME_LIMIT_SECONDS, review_client

    client = review_client()
    assert client.client.timeout == TIME_LIMIT_SECONDS and client.client.max_retries == 0
