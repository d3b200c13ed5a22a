"""A habit that stops (layers/forgetting/habits.py): misses counted from the pattern's own days, confidence
lowered from the observation, archived at the limit, each change audited; running twice changes nothing."""
from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from audit.models import AuditEvent
from layers.forgetting.habits import habit_missed, habits_decay
from layers.forgetting.jobs import forget_run
from layers.formation.services.habits import habits_mine
from layers.long_term.models import Memory
from tests.support.habits import UTC, evenings, say_at

pytestmark = pytest.mark.django_db

# Friday 27 November 2026, 23:30 UTC: the last evening of five with "播放白噪音" at ~22:00
LAST = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


@pytest.fixture
def habit(tenant):
    say_at(tenant, "alice", evenings(LAST.date()))
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=LAST)
    return Memory.objects.get(tenant=tenant, kind="habit")


def test_missed_counts_only_windows_that_have_passed(habit):
    assert habit_missed(habit.attributes, now=LAST) == 0
    assert habit_missed(habit.attributes, now=datetime(2026, 11, 28, 22, 0, tzinfo=UTC)) == 0  # still inside
    assert habit_missed(habit.attributes, now=datetime(2026, 11, 28, 22, 21, tzinfo=UTC)) == 1
    assert habit_missed(habit.attributes, now=LAST + timedelta(days=14)) == 14
    monday = {**habit.attributes, "pattern": "weekly", "weekdays": [0]}
    assert habit_missed(monday, now=LAST + timedelta(days=14)) == 2  # 30 Nov and 7 Dec
    assert habit_missed({"content": "hand-made"}, now=LAST) is None


def test_a_few_misses_weaken_the_habit_and_a_rerun_changes_nothing(habit):
    observed = habit.confidence
    assert habits_decay(now=LAST + timedelta(days=1)) == {"dry_run": False, "would_change": 0, "weakened": 0,
                                                          "archived": 0}  # one miss: within the grace of two
    report = habits_decay(now=LAST + timedelta(days=4))  # four misses: 0.8 ** 3
    assert report["weakened"] == 1
    habit.refresh_from_db()
    assert habit.status == "active" and habit.confidence == round(observed * 0.8 ** 3, 3)
    (event,) = AuditEvent.objects.filter(action="memory.habit_decayed", object_id=str(habit.pk))
    assert event.after["missed"] == 4 and event.before["confidence"] == observed
    assert habits_decay(now=LAST + timedelta(days=4))["would_change"] == 0
    assert AuditEvent.objects.filter(action="memory.habit_decayed").count() == 1


def test_two_weeks_without_it_archive_the_habit(tenant, habit):
    assert habits_decay(now=LAST + timedelta(days=14), dry_run=True) == {
        "dry_run": True, "would_change": 1, "weakened": 0, "archived": 0}
    assert Memory.objects.get(pk=habit.pk).status == "active"
    report = forget_run(now=LAST + timedelta(days=14), jobs=["long_term.decay_habits"])
    assert report["long_term.decay_habits"]["archived"] == 1
    habit.refresh_from_db()
    assert habit.status == "archived" and habit.confidence < 0.3
    (event,) = AuditEvent.objects.filter(action="memory.archived", object_id=str(habit.pk))
    assert event.after["missed"] == 14 and event.actor_label == "long_term.decay_habits"


def test_a_new_occurrence_restores_the_observed_confidence(tenant):
    say_at(tenant, "alice", evenings(LAST.date(), offsets=(0, 5, -5, 10, 0, -10, 5, 0, 10, -5)))
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=LAST)
    habit = Memory.objects.get(tenant=tenant, kind="habit")
    observed = habit.confidence
    assert habits_decay(now=LAST + timedelta(days=3))["weakened"] == 1  # 28, 29 and 30 November missed
    habit.refresh_from_db()
    weakened = habit.confidence
    assert weakened < observed
    back = datetime(2026, 12, 1, 22, 0, tzinfo=UTC)
    say_at(tenant, "alice", [(back, "播放白噪音")])
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=back + timedelta(hours=1))
    current = Memory.objects.get(tenant=tenant, kind="habit", status="active")
    # the same habit, observed again: its confidence is the observation's (11 of 14 evenings), not the decayed one
    assert current.pk == habit.pk and current.attributes["support"] == 11
    assert current.confidence == current.attributes["observed_confidence"] == round(0.95 * round(11 / 14, 3), 3) > weakened
    assert habit_missed(current.attributes, now=back + timedelta(hours=1)) == 0
    assert habits_decay(now=back + timedelta(hours=1))["would_change"] == 0


def test_a_habit_resumed_after_archiving_is_a_new_memory(tenant, habit):
    habits_decay(now=LAST + timedelta(days=14))
    say_at(tenant, "alice", evenings(date(2026, 12, 20), offsets=(0, 5, -5)))
    habits_mine(tenant_id=tenant.pk, user_id="alice", now=datetime(2026, 12, 20, 23, 0, tzinfo=UTC))
    assert sorted(Memory.objects.filter(kind="habit").values_list("status", flat=True)) == ["active", "archived"]
