"""The acceptance path through HTTP with a fresh key: a session of 30 mixed turns sent twice, a
window within both limits, a booking task with a weather sub-task pushed and popped, and an expired
task that disappears."""
from datetime import timedelta

import pytest
from django.utils import timezone

from layers.transient.models import TaskState
from layers.transient.services import task_states_sweep_expired
from tests.support.conversations import conversation_turns

pytestmark = pytest.mark.django_db


def test_acceptance_path(make_tenant, make_client):
    api = make_client(make_tenant("fresh-co"))

    assert api.post_json("/api/v1/sessions", {"session_id": "chat-42", "user_id": "王小明"}).status_code == 201
    turns = {"turns": conversation_turns("m")}
    assert api.post_json("/api/v1/sessions/chat-42/turns", turns).json()["created"] == 30
    assert api.post_json("/api/v1/sessions/chat-42/turns", turns).json()["created"] == 0
    assert api.get("/api/v1/sessions/chat-42").json()["turn_count"] == 30

    window = api.get("/api/v1/sessions/chat-42/window?max_turns=12&max_tokens=150").json()
    assert 0 < len(window["turns"]) <= 12 and window["token_count"] <= 150
    assert window["turns"][-1]["seq"] == 30

    created = api.post_json("/api/v1/task-types", {"name": "booking", "required_slots": ["出发地", "目的地", "日期"]})
    assert created.status_code == 201
    api.post_json("/api/v1/task-types", {"name": "weather", "required_slots": ["城市"]})

    booking = api.post_json("/api/v1/sessions/chat-42/tasks",
                            {"task_type": "booking", "slots": {"出发地": "北京"}}).json()
    assert booking["status"] == "collecting" and booking["missing_slots"] == ["目的地", "日期"]
    weather = api.post_json("/api/v1/sessions/chat-42/tasks",
                            {"task_type": "weather", "parent_id": booking["id"], "slots": {"城市": "上海"}}).json()
    stack = api.get("/api/v1/sessions/chat-42/tasks").json()
    assert [t["task_type"] for t in stack["results"]] == ["weather", "booking"]
    assert stack["results"][1]["status"] == "suspended"

    popped = api.patch_json(f"/api/v1/tasks/{weather['id']}", {"status": "cancelled"}).json()
    assert popped["resumed_parent"]["status"] == "collecting"
    ready = api.patch_json(f"/api/v1/tasks/{booking['id']}", {"slots": {"目的地": "上海", "日期": "下周三"}}).json()
    assert ready["status"] == "ready" and ready["missing_slots"] == []

    TaskState.objects.filter(pk=booking["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    gone = api.get(f"/api/v1/tasks/{booking['id']}")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "task_expired"
    assert api.get("/api/v1/sessions/chat-42/tasks").json()["results"] == []
    assert task_states_sweep_expired()["expired"] >= 1
    assert not TaskState.objects.filter(pk=booking["id"]).exists()
    assert api.get(f"/api/v1/tasks/{booking['id']}").json()["error"]["code"] == "task_not_found"

    bad = api.post_json("/api/v1/sessions/chat-42/tasks", {"task_type": "booking", "slots": {"酒店": "x"}})
    assert bad.status_code == 400 and set(bad.json()["error"]) == {"code", "message", "details"}
