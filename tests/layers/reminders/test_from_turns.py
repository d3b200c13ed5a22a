"""Reminders from conversation: appended user turns create, cancel, amend and fulfil reminders, with
the turn that did it; the append response says so; tenants and users stay apart."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from layers.reminders.models import Reminder, ReminderStatus

pytestmark = pytest.mark.django_db
SHANGHAI = ZoneInfo("Asia/Shanghai")
# Tuesday 1 December 2026, 20:00 in Shanghai: turns carry it as occurred_at, a crafted clock.
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def open_session(client, session_id="home-1", user_id="alice", zone="Asia/Shanghai"):
    response = client.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": user_id,
                                                     "metadata": {"time_zone": zone}})
    assert response.status_code == 201, response.json()


def say(client, *contents, session_id="home-1", start=T0, role="user"):
    turns = [{"role": role, "content": content, "occurred_at": (start + timedelta(minutes=index)).isoformat()}
             for index, content in enumerate(contents)]
    response = client.post_json(f"/api/v1/sessions/{session_id}/turns", {"turns": turns})
    assert response.status_code == 201, response.json()
    return response.json()


def local(reminder) -> datetime:
    return reminder.due_at.astimezone(SHANGHAI)


def test_the_smart_home_conversation(api):
    open_session(api)
    body = say(api, "打开客厅灯", "调亮20%", "等会儿提醒我关灯")
    (created,) = body["reminders"]
    assert created["action"] == "created" and created["text"] == "关灯" and created["turn_seq"] == 3
    reminder = Reminder.objects.get(pk=created["reminder_id"])
    assert reminder.source_turn.seq == 3 and reminder.source_session.session_id == "home-1"
    assert reminder.due_at == T0 + timedelta(minutes=2 + 30), "等会儿: the vague delay from the turn's time"

    body = say(api, "现在关掉", start=T0 + timedelta(minutes=5))
    assert [(r["action"], r["reminder_id"]) for r in body["reminders"]] == [("fulfilled", reminder.pk)]
    reminder.refresh_from_db()
    assert reminder.status == ReminderStatus.CANCELLED and reminder.cancel_reason == "fulfilled"
    assert reminder.cancelled_by_turn.seq == 4

    body = say(api, "明天早上7点再打开", start=T0 + timedelta(minutes=6))
    (scheduled,) = body["reminders"]
    tomorrow = Reminder.objects.get(pk=scheduled["reminder_id"])
    assert (local(tomorrow).day, local(tomorrow).hour) == (2, 7) and tomorrow.text == "打开"


def test_withdrawn_and_amended_with_the_turn_that_did_it(api):
    open_session(api)
    say(api, "remind me in 20 minutes to call Anna", "提醒我明天下午3点开会")
    anna, meeting = Reminder.objects.order_by("id")
    body = say(api, "改到4点", start=T0 + timedelta(minutes=3))
    assert [(r["action"], r["reminder_id"]) for r in body["reminders"]] == [("amended", meeting.pk)]
    meeting.refresh_from_db()
    assert (local(meeting).day, local(meeting).hour) == (2, 16) and meeting.amended_by_turn.seq == 3
    body = say(api, "别提醒了", start=T0 + timedelta(minutes=4))
    meeting.refresh_from_db()
    assert meeting.status == ReminderStatus.CANCELLED and meeting.cancel_reason == "withdrawn"
    assert meeting.cancelled_by_turn.seq == 4
    body = say(api, "never mind the reminder to call Anna", start=T0 + timedelta(minutes=5))
    anna.refresh_from_db()
    assert anna.status == ReminderStatus.CANCELLED and anna.cancelled_by_turn.seq == 5


def test_an_action_on_something_else_fulfils_nothing(api):
    open_session(api)
    say(api, "remind me in 20 minutes to call Anna", "等会儿提醒我关灯")
    body = say(api, "I called Bob already", "把空调关了", start=T0 + timedelta(minutes=2))
    assert body["reminders"] == [] and Reminder.objects.filter(status="pending").count() == 2
    body = say(api, "just called Anna", start=T0 + timedelta(minutes=4))
    assert [r["action"] for r in body["reminders"]] == ["fulfilled"]
    assert Reminder.objects.get(text="call Anna").cancel_reason == "fulfilled"


def test_the_state_an_action_leaves_fulfils_it(api):
    open_session(api)
    say(api, "remind me in 20 minutes to take the pizza out", "remind me in an hour to turn the porch light on")
    body = say(api, "the porch light is on already", start=T0 + timedelta(minutes=2))
    assert [r["action"] for r in body["reminders"]] == ["fulfilled"]
    assert Reminder.objects.get(text__contains="porch").cancel_reason == "fulfilled"
    assert Reminder.objects.get(text__contains="pizza").status == ReminderStatus.PENDING
    body = say(api, "ok the pizza is out", start=T0 + timedelta(minutes=3))
    assert [r["action"] for r in body["reminders"]] == ["fulfilled"]
    assert Reminder.objects.get(text__contains="pizza").cancel_reason == "fulfilled"


def test_push_back_shifts_the_current_time(api):
    open_session(api)
    say(api, "remind me tomorrow at 7am to run")
    (run,) = Reminder.objects.all()
    say(api, "push it back an hour", start=T0 + timedelta(minutes=1))
    run.refresh_from_db()
    assert local(run).hour == 8


def test_recurring_from_a_turn(api):
    open_session(api)
    say(api, "每周一提醒我交周报")
    (weekly,) = Reminder.objects.all()
    assert weekly.recurrence == "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0" and local(weekly).weekday() == 0
    # doing it once does not end the series
    say(api, "我已经交了周报", start=T0 + timedelta(minutes=1))
    weekly.refresh_from_db()
    assert weekly.status == ReminderStatus.PENDING


def test_what_is_not_a_request_creates_nothing(api):
    open_session(api)
    body = say(api, "I reminded him yesterday", "提醒功能怎么用？", "如果我忘了，你会提醒我吗？",
               "remind me what the wifi password is")
    assert body["reminders"] == [] and not Reminder.objects.exists()
    say(api, "remind me in 10 minutes to stretch", role="assistant", start=T0 + timedelta(minutes=9))
    assert not Reminder.objects.exists(), "only what the user says"


def test_a_later_turn_touches_only_its_own_users_reminders(api, other_api):
    open_session(api, "a", "alice")
    open_session(api, "b", "bob")
    open_session(other_api, "a", "alice")
    say(api, "等会儿提醒我关灯", session_id="a")
    say(other_api, "等会儿提醒我关灯", session_id="a")
    say(api, "别提醒了", session_id="b")  # bob has none: alice's stays
    assert Reminder.objects.filter(status="pending").count() == 2
    say(other_api, "现在关掉", session_id="a", start=T0 + timedelta(minutes=1))
    statuses = {(r.tenant.slug, r.status) for r in Reminder.objects.select_related("tenant")}
    assert statuses == {("acme", "pending"), ("globex", "cancelled")}


def test_a_secret_in_a_turn_never_reaches_the_reminder(api):
    # The turn is redacted before it is stored (short-term), and the reminder is read from the stored turn.
    open_session(api)
    body = say(api, "remind me in 5 minutes to use password hunter2-Secret!")
    (reminder,) = Reminder.objects.all()
    assert body["reminders"][0]["reminder_id"] == reminder.pk
    assert "hunter2" not in reminder.text and "REDACTED" in reminder.text


def test_a_turn_that_asks_nothing_of_reminders_opens_no_savepoint(api):
    """The annotator runs in every append's transaction: only a turn that asks something of reminders (a
    request, a cancel, an amend, an action that may fulfil one) gets its savepoint; small talk reads no row."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from layers.reminders.services.turns import reminders_from_turns
    from layers.short_term.models import Session
    from tests.support.reminders import ACTOR

    open_session(api)
    say(api, "the weather is lovely today", "我们周末去爬山吧", role="assistant")
    say(api, "今天天气真好", "I had pasta for lunch", start=T0 + timedelta(minutes=3))
    say(api, "提醒我明天下午3点开会", start=T0 + timedelta(minutes=6))
    session = Session.objects.get(session_id="home-1")
    quiet, asking = list(session.turns.order_by("seq"))[2:4], list(session.turns.order_by("seq"))[4:5]
    Reminder.objects.all().delete()

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert reminders_from_turns(session=session, turns=quiet, actor=ACTOR) == []
    assert not [q["sql"] for q in queries.captured_queries if "SAVEPOINT" in q["sql"].upper()]
    assert not [q["sql"] for q in queries.captured_queries if "reminder" in q["sql"]]

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        (created,) = reminders_from_turns(session=session, turns=asking, actor=ACTOR)
    assert created["action"] == "created" and Reminder.objects.get(pk=created["reminder_id"]).text == "开会"
    assert any("SAVEPOINT" in q["sql"].upper() for q in queries.captured_queries)
