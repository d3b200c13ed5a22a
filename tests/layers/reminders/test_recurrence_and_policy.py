"""Recurrence in the reminder's zone (wall-clock times across daylight saving), rule validation, and
policy numbers that tenants override (policy.reminders.*)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from layers.reminders.models import Reminder
from layers.reminders.parser import (
    next_occurrence,
    recurrence_validate,
    reminder_intent,
)
from permanent.services import change_request_approve, change_request_propose

LONDON = ZoneInfo("Europe/London")


def test_every_day_at_8_stays_at_8_across_daylight_saving():
    # 28 March 2027: the UK moves to summer time overnight.
    before = datetime(2027, 3, 27, 8, 0, tzinfo=LONDON)
    after = next_occurrence("FREQ=DAILY;BYHOUR=8;BYMINUTE=0", after=before.astimezone(timezone.utc),
                            time_zone="Europe/London")
    assert after.astimezone(LONDON) == datetime(2027, 3, 28, 8, 0, tzinfo=LONDON)
    assert after - before == timedelta(hours=23), "one hour shorter in UTC, the same on the wall"


def test_the_users_zone_decides_the_time():
    now = datetime(2026, 12, 1, 1, 0, tzinfo=timezone.utc)  # 09:00 Shanghai, 01:00 London
    shanghai = reminder_intent("remind me at 7pm to call home", now=now, time_zone="Asia/Shanghai")
    london = reminder_intent("remind me at 7pm to call home", now=now, time_zone="Europe/London")
    assert shanghai.due_at == datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)
    assert london.due_at == datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("rule, ok", [
    ("FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=9;BYMINUTE=0", True), ("RRULE:FREQ=DAILY", True),
    ("FREQ=YEARLY", False), ("FREQ=DAILY;COUNT=3", False), ("FREQ=WEEKLY;BYDAY=XX", False),
    ("FREQ=DAILY;BYHOUR=25", False), ("FREQ=MINUTELY;INTERVAL=2", False), ("nonsense", False),
])
def test_rules_are_validated(rule, ok):
    if ok:
        assert recurrence_validate(rule).startswith("FREQ=")
    else:
        with pytest.raises(ValueError):
            recurrence_validate(rule)


@pytest.mark.django_db
def test_a_tenant_overrides_the_vague_delay(api, tenant, make_staff):
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.reminders.vague_delay_minutes", action="create",
                                     value=10, proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    assert api.post_json("/api/v1/sessions", {"session_id": "s", "user_id": "alice"}).status_code == 201
    said = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    response = api.post_json("/api/v1/sessions/s/turns", {"turns": [
        {"role": "user", "content": "remind me later to stretch", "occurred_at": said.isoformat()}]})
    assert response.status_code == 201
    assert Reminder.objects.get().due_at == said + timedelta(minutes=10)


@pytest.mark.django_db
def test_the_api_and_formation_read_a_time_alike(api, tenant, make_staff):
    # One reader (layers/reminders/services/reading.py) for the API's `when` and a turn's request: a governed
    # default hour reaches both, and words the API cannot read are a 400 on the field they came in.
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.reminders.default_hour", action="create",
                                     value=7, proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    assert api.post_json("/api/v1/sessions", {"session_id": "s", "user_id": "alice"}).status_code == 201
    said = datetime.now(timezone.utc)
    assert api.post_json("/api/v1/sessions/s/turns", {"turns": [
        {"role": "user", "content": "明天提醒我交周报", "occurred_at": said.isoformat()}]}).status_code == 201
    from_turn = Reminder.objects.get(source_turn__isnull=False)
    response = api.post_json("/api/v1/reminders", {"user_id": "alice", "text": "交周报", "when": "明天"})
    assert response.status_code == 201, response.content
    from_api = Reminder.objects.get(pk=response.json()["id"])
    assert from_api.due_at.astimezone(ZoneInfo("UTC")).hour == from_turn.due_at.astimezone(ZoneInfo("UTC")).hour == 7
    assert from_api.due_at.date() == from_turn.due_at.date()
    bad = api.patch_json(f"/api/v1/reminders/{from_api.pk}", {"when": "whenever you like"})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "unreadable_time"
    assert bad.json()["error"]["details"]["fields"]["when"]
