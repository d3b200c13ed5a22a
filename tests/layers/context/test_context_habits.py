"""The context serves a habit while its time window holds the context's moment (`now`), with the reason."""
from __future__ import annotations

from datetime import datetime

import pytest

from layers.formation.services.habits import habits_mine
from tests.support.habits import UTC, evenings, say_at

pytestmark = pytest.mark.django_db

LAST = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


@pytest.fixture
def white_noise_habit(tenant):
    say_at(tenant, "alice", evenings(LAST.date()))
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=LAST)


def _habit_items(response) -> list[dict]:
    assert response.status_code == 200, response.content
    (profile,) = [block for block in response.json()["blocks"] if block["name"] == "user_profile"]
    return [item for item in profile["items"] if item.get("reason") == "habit_time"]


def _context(api, now=None, user_id="alice", **extra):
    body = {"user_id": user_id, "query": "晚安", **({"now": now} if now else {}), **extra}
    return api.post("/api/v1/context", body, format="json")


def test_inside_the_window_the_habit_is_served_with_its_reason(api, white_noise_habit):
    (item,) = _habit_items(_context(api, "2026-11-28T22:05:00Z"))
    assert item["kind"] == "habit" and item["memory_key"] == "habit.play.white_noise"
    assert item["pattern"] == "daily" and item["window"] == {"start": "21:40", "end": "22:20"}
    assert item["support"] == 5 and item["time_zone"] == "UTC"
    assert item["text"] == "- (habit) 用户习惯每天 21:40–22:20播放白噪音"


def test_outside_the_window_it_is_not(api, white_noise_habit):
    assert _habit_items(_context(api, "2026-11-28T08:00:00Z")) == []
    assert _habit_items(_context(api, "2026-11-28T22:21:00Z")) == []


def test_the_moment_is_read_in_its_offset(api, white_noise_habit):
    assert len(_habit_items(_context(api, "2026-11-29T06:10:00+08:00"))) == 1  # 22:10 UTC


def test_the_request_time_is_the_default(api, white_noise_habit):
    from django.utils import timezone

    now = timezone.now()
    inside = 21 * 60 + 40 <= now.hour * 60 + now.minute <= 22 * 60 + 20
    assert len(_habit_items(_context(api))) == (1 if inside else 0)


def test_a_weakened_habit_is_not_served(api, tenant, white_noise_habit):
    from layers.forgetting.habits import habits_decay

    habits_decay(now=datetime(2026, 12, 4, 0, 0, tzinfo=UTC))  # six evenings missed: 0.9 * 0.8 ** 5
    assert _habit_items(_context(api, "2026-12-04T22:00:00Z")) == []


def test_other_users_and_tenants_do_not_see_it(api, other_api, white_noise_habit):
    assert _habit_items(_context(api, "2026-11-28T22:05:00Z", user_id="bob")) == []
    assert _habit_items(_context(other_api, "2026-11-28T22:05:00Z")) == []


def test_profile_top_k_zero_leaves_habits_out(api, white_noise_habit):
    assert _habit_items(_context(api, "2026-11-28T22:05:00Z", profile_top_k=0)) == []


@pytest.mark.parametrize("now", ["tonight", "2026-13-01T22:00:00Z", 12345, ""])
def test_a_bad_moment_is_a_400(api, now):
    response = api.post("/api/v1/context", {"user_id": "alice", "query": "hi", "now": now}, format="json")
    assert response.status_code == 400 and "now" in str(response.json())


def test_a_habit_in_another_zone_is_due_by_its_own_clock(api, tenant):
    # 22:00 in Shanghai is 14:00 UTC
    say_at(tenant, "carol", evenings(LAST.date(), hour=14), metadata={"time_zone": "Asia/Shanghai"})
    habits_mine(tenant_id=tenant.pk, user_id="carol", now=LAST)
    (item,) = _habit_items(_context(api, "2026-11-28T22:05:00+08:00", user_id="carol"))
    assert item["time_zone"] == "Asia/Shanghai" and item["window"] == {"start": "21:40", "end": "22:20"}
    assert _habit_items(_context(api, "2026-11-28T22:05:00Z", user_id="carol")) == []


def test_a_week_of_evenings_through_http_becomes_a_habit_the_context_serves(api, tenant):
    from layers.formation.tasks import mine_habits
    from memoryhub.outbox.models import OutboxTask

    texts = ["play white noise", "put on some white noise", "play white noise please", "play the white noise now",
             "could you play the white noise", "play some white noise", "play white noise"]
    for day, text in zip(range(21, 28), texts):
        session_id = f"evening-{day}"
        opened = api.post("/api/v1/sessions", {"session_id": session_id, "user_id": "dan"}, format="json")
        assert opened.status_code in (200, 201)
        turns = [{"role": "user", "content": text, "occurred_at": f"2026-11-{day}T22:{day % 3 * 7:02d}:00Z"},
                 {"role": "assistant", "content": "Playing white noise."}]
        appended = api.post(f"/api/v1/sessions/{session_id}/turns", {"turns": turns}, format="json")
        assert appended.status_code in (200, 201)
        assert api.post(f"/api/v1/sessions/{session_id}/end").status_code == 200
    # the appends and the session ends asked for mining through the outbox; run what the worker would run
    assert OutboxTask.objects.filter(task_name="formation.mine_habits", args=[tenant.pk, "dan"]).exists()
    mine_habits(tenant.pk, "dan")
    (item,) = _habit_items(_context(api, "2026-11-28T22:10:00Z", user_id="dan", query="good night"))
    assert item["pattern"] == "daily" and item["support"] == 7 and item["window"] == {"start": "21:50", "end": "22:20"}
    assert item["text"] == "- (habit) User usually plays white noise every day between 21:50 and 22:20"
    assert _habit_items(_context(api, "2026-11-28T12:00:00Z", user_id="dan", query="good night")) == []
