"""Habits from repetition (layers/formation/services/habits.py): crafted occurrence times, no sleeping."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from audit.models import AuditEvent
from layers.formation.habits.requests import request_read
from layers.formation.services.habits import habits_catch_up, habits_mine
from layers.long_term.models import Memory
from layers.short_term.services import session_open
from memoryhub.outbox.models import OutboxTask
from memoryhub.tenancy.services import tenant_time_zone_set
from permanent.services import change_request_approve, change_request_propose
from tests.support.habits import ACTOR, UTC, evenings, say_at

pytestmark = pytest.mark.django_db

# Friday 27 November 2026, late evening
NOW = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


@pytest.fixture
def approve_global(tenant, make_staff):
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")

    def make(key, value):
        request = change_request_propose(tenant=tenant, key=key, action="create", value=value, proposer_user=editor)
        return change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    return make


@pytest.fixture
def said(tenant):
    def append(user_id, moments, *, target_tenant=None):
        say_at(target_tenant or tenant, user_id, moments)
    return append


def _evenings(text="播放白噪音", offsets=(-20, -5, 0, 10, 20), last=NOW.date()):
    return evenings(last, text=text, offsets=offsets)


def _habits(tenant, user_id="alice", **filters):
    return Memory.objects.filter(tenant=tenant, user_id=user_id, kind="habit", **filters)


def test_five_evenings_of_white_noise_make_one_daily_habit(tenant, said):
    said("alice", _evenings())
    report = habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    assert report["habits"] == 1 and report["created"] == 1
    (habit,) = _habits(tenant)
    assert habit.memory_key == "habit.play.white_noise" and habit.status == "active"
    assert habit.source == "inferred" and habit.extractor == "habits"
    attributes = habit.attributes
    assert attributes["pattern"] == "daily" and attributes["weekdays"] == [0, 1, 2, 3, 4, 5, 6]
    assert attributes["window"] == {"start": "21:40", "end": "22:20"} and attributes["time_zone"] == "UTC"
    assert (attributes["action"], attributes["object"], attributes["support"]) == ("play", "white_noise", 5)
    assert habit.content == "用户习惯每天 21:40–22:20播放白噪音"
    assert AuditEvent.objects.filter(action="memory.created", object_id=str(habit.pk)).count() == 1


def test_paraphrases_in_two_languages_are_one_request(tenant, said):
    texts = ["播放白噪音", "帮我放点白噪声吧", "来点白噪音", "play some white noise", "put on white noise please"]
    said("alice", [(moment, text) for (moment, _), text in zip(_evenings(), texts)])
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    (habit,) = _habits(tenant)
    assert habit.attributes["support"] == 5 and habit.memory_key == "habit.play.white_noise"


@pytest.mark.parametrize("text", [
    "we had to put the trip off until June", "I put my coat down somewhere", "switch the plan up a bit",
    "put it off", "switch it down", "turn it up",
])
def test_any_particle_after_a_particle_verb_reads_without_error(text):
    """A turn is read on append (layers/formation/receivers.py): a particle the verb does not take
    ('put … off') is no request, and must never fail the append (it once raised KeyError: a 500)."""
    request = request_read(text)
    assert request is None or request.action != "play"


def test_a_particle_the_verb_takes_is_still_its_action():
    english, chinese = request_read("turn the lights off please"), request_read("关灯")
    assert (english.action, english.object) == (chinese.action, chinese.object)
    # a particle the verb does not take does not hide a later one it does
    later = request_read("put the meeting off and turn the lights off")
    assert (later.action, later.object) == (chinese.action, chinese.object)


@pytest.mark.parametrize("text, same_as", [("fan on please", "开风扇"), ("lights off", "关灯"),
                                           ("ok, the lights off now", "关灯")])
def test_a_known_thing_and_its_state_is_a_request_without_a_verb(text, same_as):
    bare, chinese = request_read(text), request_read(same_as)
    assert bare is not None and (bare.action, bare.object) == (chinese.action, chinese.object)


@pytest.mark.parametrize("text", ["game on", "hands off my fries", "the party is on", "lights off at midnight is fine"])
def test_a_state_word_after_anything_else_is_no_request(text):
    assert request_read(text) is None


def test_monday_mornings_make_a_monday_habit(tenant, said):
    mondays = [datetime(2026, 11, 2, 7, 30, tzinfo=UTC) + timedelta(weeks=i, minutes=m) for i, m in
               enumerate([0, 8, -6, 12])]
    said("alice", [(moment, text) for moment, text in zip(mondays, ["开窗帘", "把窗帘拉开", "打开窗帘", "开一下窗帘"])])
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    (habit,) = _habits(tenant)
    assert habit.memory_key == "habit.open.curtains"
    assert (habit.attributes["pattern"], habit.attributes["weekdays"], habit.attributes["support"]) == ("weekly", [0], 4)
    assert habit.attributes["window"] == {"start": "07:20", "end": "07:50"}
    assert habit.content == "用户习惯每周一 07:20–07:50打开窗帘"


def test_weekday_news_at_seven(tenant, said):
    days = [datetime(2026, 11, day, 7, 0, tzinfo=UTC) for day in (16, 17, 18, 19, 20, 23, 24, 25, 26, 27)]
    said("bob", [(moment + timedelta(minutes=i % 4 * 3), "Play the news") for i, moment in enumerate(days)])
    habits_mine(tenant_id=tenant.pk, user_id="bob", now=NOW)
    (habit,) = _habits(tenant, user_id="bob")
    assert habit.attributes["pattern"] == "weekdays" and habit.attributes["weekdays"] == [0, 1, 2, 3, 4]
    assert habit.content == "User usually plays the news on weekdays between 06:50 and 07:20"  # 07:00–07:09, widened to 30 minutes


def test_requests_at_random_times_make_no_habit(tenant, said):
    rng = random.Random(14)
    start = NOW - timedelta(days=20)
    said("alice", [(start + timedelta(minutes=rng.randrange(20 * 1440)), "播放白噪音") for _ in range(10)])
    said("alice", [(start + timedelta(days=i, hours=rng.randrange(24)), text) for i, text in enumerate(
        ["打开空调", "turn on the lights", "查一下天气", "play the news", "关灯", "放点音乐"])])
    report = habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    assert report["requests"] == 16 and report["habits"] == 0 and not _habits(tenant).exists()


def test_chatter_questions_and_requests_for_later_are_not_occurrences(tenant, said):
    texts = ["白噪音是什么", "别放白噪音了", "明天晚上提醒我播放白噪音", "what is white noise?", "don't play white noise"]
    said("alice", [(moment, text) for (moment, _), text in zip(_evenings(), texts)])
    assert habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)["requests"] == 0


def test_a_second_run_writes_nothing_and_more_support_updates_the_same_memory(tenant, said):
    said("alice", _evenings(offsets=(-20, -5, 0, 10), last=NOW.date() - timedelta(days=1)))
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW - timedelta(days=1))
    (habit,) = _habits(tenant)
    versions, events = habit.history.count(), AuditEvent.objects.count()
    again = habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW - timedelta(days=1))
    assert again["unchanged"] == 1 and habit.history.count() == versions and AuditEvent.objects.count() == events

    said("alice", [(datetime(2026, 11, 27, 22, 5, tzinfo=UTC), "播放白噪音")])  # inside 21:40–22:10
    assert habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)["updated"] == 1
    (same,) = _habits(tenant)
    assert same.pk == habit.pk and same.attributes["support"] == 5
    assert same.attributes["last_seen"] == "2026-11-27T22:05:00+00:00"
    assert AuditEvent.objects.filter(action="memory.updated", object_id=str(habit.pk)).count() == 1


def test_a_changed_pattern_supersedes_the_old_habit(tenant, said):
    said("alice", _evenings(last=NOW.date() - timedelta(days=10)))
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW - timedelta(days=10))
    (old,) = _habits(tenant)
    # the user moved the ritual an hour later, and kept it up for longer than the old one
    said("alice", [(datetime(2026, 11, 19, 23, 40, tzinfo=UTC) + timedelta(days=i, minutes=m), "播放白噪音")
                   for i, m in enumerate([-10, 0, 5, 10, -5, 0, 10, 5])])
    report = habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    assert report["superseded"] == 1
    old.refresh_from_db()
    (current,) = _habits(tenant, status="active")
    assert old.status == "superseded" and old.superseded_by_id == current.pk
    assert current.attributes["window"] == {"start": "23:20", "end": "23:50"} and current.attributes["support"] == 8
    assert AuditEvent.objects.filter(action="memory.superseded", object_id=str(old.pk)).exists()


def test_the_time_zone_is_governed_policy(tenant, said, approve_global):
    approve_global("policy.formation.habit_time_zone", "Asia/Shanghai")
    said("alice", _evenings())  # 22:00 UTC is 06:00 the next morning in Shanghai
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    (habit,) = _habits(tenant)
    assert habit.attributes["time_zone"] == "Asia/Shanghai"
    assert habit.attributes["window"] == {"start": "05:40", "end": "06:20"}


def test_the_tenants_time_zone_is_the_default_clock(tenant, said):
    # The zone reminders read in (Tenant.time_zone, memoryhub/tenancy) is the habits' too when neither the
    # session nor the habit policy names one.
    tenant_time_zone_set(tenant=tenant, time_zone="Asia/Shanghai", actor=ACTOR)
    said("alice", _evenings())  # 22:00 UTC is 06:00 the next morning in Shanghai
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    (habit,) = _habits(tenant)
    assert habit.attributes["time_zone"] == "Asia/Shanghai"
    assert habit.attributes["window"] == {"start": "05:40", "end": "06:20"}


def test_a_session_time_zone_reads_the_clock_of_its_turns(tenant):
    # 14:00 UTC is 22:00 in Shanghai: the sessions say where the user is
    say_at(tenant, "alice", evenings(NOW.date(), hour=14), metadata={"time_zone": "Asia/Shanghai"})
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    (habit,) = _habits(tenant)
    assert habit.attributes["time_zone"] == "Asia/Shanghai"
    assert habit.attributes["window"] == {"start": "21:40", "end": "22:20"}


def test_the_minimum_number_of_days_is_governed_policy(tenant, said, approve_global):
    approve_global("policy.formation.habit_min_days", 6)
    said("alice", _evenings())
    assert habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)["habits"] == 0


def test_two_users_and_two_tenants_are_apart(tenant, other_tenant, said):
    said("alice", _evenings()[:3])
    said("bob", _evenings()[3:])
    said("alice", _evenings()[3:], target_tenant=other_tenant)
    for target in (tenant, other_tenant):
        for user_id in ("alice", "bob"):
            habits_mine(tenant_id=target.pk, user_id=user_id, now=NOW)
    # alice's three evenings in acme make a habit; her two in globex and bob's two do not borrow them
    assert list(Memory.objects.filter(kind="habit").values_list("tenant_id", "user_id", "attributes__support")) == [
        (tenant.pk, "alice", 3)]


def test_a_session_end_enqueues_mining_and_the_catch_up_finds_recent_speakers(tenant, said):
    from layers.short_term.services import session_end

    said("alice", _evenings()[:1])
    session, _ = session_open(tenant=tenant, session_id="alice-20261123", user_id="alice", actor=ACTOR)
    session_end(session=session, actor=ACTOR)
    assert OutboxTask.objects.filter(task_name="formation.mine_habits", args=[tenant.pk, "alice"]).count() == 1
    OutboxTask.objects.filter(task_name="formation.mine_habits").delete()
    assert habits_catch_up()["users"] == 1
    assert OutboxTask.objects.filter(task_name="formation.mine_habits", args=[tenant.pk, "alice"]).count() == 1


def test_a_routine_request_enqueues_mining_and_chatter_does_not(tenant):
    say_at(tenant, "alice", [(NOW, "今天好累")])
    assert not OutboxTask.objects.filter(task_name="formation.mine_habits").exists()
    say_at(tenant, "alice", [(NOW, "播放白噪音")])
    assert OutboxTask.objects.filter(task_name="formation.mine_habits", args=[tenant.pk, "alice"]).count() == 1


def test_a_replayed_history_is_mined_where_it_happened(tenant, said):
    said("alice", _evenings(last=datetime(2025, 3, 7).date()))  # a year and more before `now`
    report = habits_mine(tenant_id=tenant.pk, user_id="alice", now=NOW)
    assert report["created"] == 1
    assert _habits(tenant).get().attributes["last_seen"].startswith("2025-03-07T")


@pytest.mark.parametrize("text, expected", [
    ("播放白噪音", ("play", "white_noise")), ("好困，放一下白噪声吧", ("play", "white_noise")),
    ("把窗帘拉开", ("open", "curtains")), ("开窗帘", ("open", "curtains")), ("开灯", ("turn_on", "lights")),
    ("把空调调低一点", ("lower", "air_conditioner")), ("看看天气", ("check", "weather")),
    ("turn the lights off", ("turn_off", "lights")), ("Open the blinds", ("open", "curtains")),
    ("could you play the news please", ("play", "news")), ("play my meditation playlist", ("play", "meditation playlist")),
    ("white noise, play it", None), ("把它打开", None), ("开心", None), ("今天开会", None), ("白噪音是什么", None), ("不要开空调", None), ("明天早上7点打开窗帘", None),
    ("remind me to play the news", None), ("what's white noise", None), ("I love white noise", None),
])
def test_request_reading(text, expected):
    request = request_read(text)
    assert (None if request is None else (request.action, request.object)) == expected


def test_fillers_at_both_ends_of_an_object_end_the_reading():
    # "帮我看看这段代码为啥报错" once looped for ever in the object's clean-up (a filler stripped from the front
    # came back when the back's candidate, computed from the same text, was taken), holding the turn's
    # transaction. Every pair of fillers around an unknown object, and each filler alone, must be read.
    import threading

    from layers.formation.habits.lexicon import FILLERS_ZH
    from layers.formation.habits.requests import _clean_zh

    texts = [f"{front}代码{back}" for front in FILLERS_ZH for back in FILLERS_ZH] + list(FILLERS_ZH)
    cleaned: list[str] = []
    reader = threading.Thread(target=lambda: cleaned.extend(_clean_zh(text) for text in texts), daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert not reader.is_alive(), "the clean-up of a Chinese object does not end"
    assert cleaned[:len(FILLERS_ZH) ** 2] == ["代码"] * len(FILLERS_ZH) ** 2
    assert request_read("帮我看看这段代码为啥报错") is None, "a question about code is no routine request"
