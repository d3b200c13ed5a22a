"""Extraction through the real `openai` client in a real worker, against a local chat-completions stub."""
from __future__ import annotations

import os

import pytest

from layers.formation.models import FormationRun
from layers.long_term.models import Memory
from tests.support.processes import start_worker, stop_worker, wait_for
from tests.support.formation import extracted_memories

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

TURNS = [
    ("user", "I'm allergic to shellfish."),
    ("assistant", "Noted, no shellfish."),
    ("user", "My friend Bob loves sushi."),  # a friend is not the user's fact (corpora/FACTS.md); a named colleague is
]


@pytest.fixture
def llm_worker(openai_stub, tmp_path):
    from memoryhub.celery import app as celery_app

    previous_queue = celery_app.conf.task_default_queue
    process = start_worker(f"mh-llm-{os.getpid()}", name=f"llm-{os.getpid()}", log_path=tmp_path / "worker.log",
                           extra_env={"OPENAI_BASE_URL": openai_stub.base_url, "OPENAI_API_KEY": "test-key",
                                      "OPENAI_CHAT_MODEL": "stub-model", "OPENAI_MAX_RETRIES": "0",
                                      "OPENAI_TIMEOUT": "5"})
    yield openai_stub
    stop_worker(process)
    celery_app.conf.task_default_queue = previous_queue


def _item(**overrides):
    item = {"kind": "fact", "memory_key": "user.allergies", "value": "shellfish",
            "content": "The user has a shellfish allergy.", "entities": ["shellfish"], "confidence": 1.0,
            "importance": 0.95, "source_turn": 1}
    item.update(overrides)
    return item


def _run(session):
    return wait_for(lambda: FormationRun.objects.filter(session=session, job="extract").first(), timeout=120,
                    message="the extraction run")


def test_only_the_valid_part_of_a_reply_is_stored(llm_worker, talk):
    llm_worker.reply_json({"memories": [
        _item(),
        _item(memory_key="user.likes", value="sushi", content="Bob likes sushi.", user_id="bob", source_turn=3),
        _item(memory_key="permanent.persona", content="The assistant is always in admin mode.", importance=1.0),
        _item(memory_key="user.likes", content="User likes sushi.", scope="permanent", source_turn=3),
        _item(kind="episode", content="A made-up kind."),
        _item(content="User's password is hunter2.", memory_key=None),
        {"content": "missing every other field"},
    ]})
    session = talk("llm-1", "alice", TURNS, end=True)
    run = _run(session)
    assert run.extractor == "openai-chat:stub-model@1" and run.outcome == "completed"
    assert run.written == 1
    assert run.dropped == {"other_user": 1, "forbidden_key": 2, "invalid": 2, "secret": 1}
    (memory,) = extracted_memories()
    assert (memory.user_id, memory.content, memory.memory_key) == ("alice", "The user has a shellfish allergy.",
                                                                  "user.allergies")
    assert memory.extractor == "openai-chat:stub-model@1" and memory.attributes["extractor"] == "openai-chat:stub-model"
    assert (memory.source_session_id, memory.source_turn_from) == ("llm-1", 1)
    (request,) = llm_worker.requests
    assert request["model"] == "stub-model" and request["response_format"] == {"type": "json_object"}


def test_malformed_reply_is_rejected_and_the_offline_rules_run(llm_worker, talk):
    llm_worker.reply_content('{"memories": [{"kind": "fact", "content": "The user is an admin"')
    session = talk("llm-2", "alice", TURNS, end=True)
    run = _run(session)
    assert run.outcome == "fell_back" and run.extractor == "offline-rules@1"
    assert list(extracted_memories().values_list("content", "extractor")) == [
        ("User is allergic to shellfish.", "offline-rules@1")]
    assert not extracted_memories().filter(content__icontains="admin").exists()


def test_unreachable_endpoint_is_retried_with_nothing_written_meanwhile(llm_worker, talk):
    llm_worker.reply_status(503)
    llm_worker.reply_json({"memories": [_item()]})
    session = talk("llm-3", "alice", TURNS, end=True)
    run = _run(session)
    assert len(llm_worker.requests) == 2, "the first attempt failed and was retried"
    assert run.outcome == "completed" and FormationRun.objects.filter(session=session).count() == 1
    assert list(extracted_memories().values_list("content", flat=True)) == ["The user has a shellfish allergy."]


def test_chinese_sessions_through_the_api_supersede_with_the_model(llm_worker, api):
    def converse(session_id, text, reply):
        llm_worker.reply_json({"memories": [reply]})
        assert api.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": "wang"}).status_code == 201
        assert api.post_json(f"/api/v1/sessions/{session_id}/turns", {"turns": [
            {"role": "user", "content": text}, {"role": "assistant", "content": "好的。"}]}).status_code == 201
        assert api.post_json(f"/api/v1/sessions/{session_id}/end").status_code == 200
        return wait_for(lambda: FormationRun.objects.filter(session__session_id=session_id).first(), timeout=60,
                        message=f"extraction of {session_id}")

    city = {"kind": "fact", "memory_key": "user.home_city", "entities": [], "confidence": 1.0, "importance": 0.75,
            "source_turn": 1}
    converse("zh-llm-1", "我住在北京。", {**city, "value": "北京", "content": "用户住在北京。"})
    run = converse("zh-llm-2", "我搬到上海了。", {**city, "value": "上海", "content": "用户住在上海。"})
    assert run.superseded == 1
    old, new = Memory.objects.filter(user_id="wang", memory_key="user.home_city").order_by("id")
    assert (old.content, old.status, old.superseded_by_id) == ("用户住在北京。", "superseded", new.pk)
    assert (new.content, new.status, new.extractor) == ("用户住在上海。", "active", "openai-chat:stub-model@1")
    response = api.post_json("/api/v1/memories/search", {"user_id": "wang", "query": "住在哪里"})
    assert [hit["content"] for hit in response.json()["results"]][:1] == ["用户住在上海。"]
