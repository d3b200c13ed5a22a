"""Reads of habit memories (kind `habit`, written by layers/formation/services/habits.py): which of a
user's habits is due at a moment, by the weekdays, window and time zone in its attributes."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import QuerySet

from layers.long_term.models import Memory, MemoryKind, MemoryStatus


@dataclass(frozen=True)
class HabitWindow:
    zone: ZoneInfo
    weekdays: frozenset[int]  # Monday = 0
    start_minute: int
    end_minute: int  # before start_minute when the window spans midnight

    @property
    def spans_midnight(self) -> bool:
        return self.start_minute > self.end_minute

    def day_of(self, moment: datetime) -> date | None:
        """The day whose window holds `moment` (00:10 in a 23:40–00:20 window is the evening before's), or None."""
        local = moment.astimezone(self.zone)
        minute = local.hour * 60 + local.minute
        if not self.spans_midnight:
            return local.date() if self.start_minute <= minute <= self.end_minute else None
        if minute >= self.start_minute:
            return local.date()
        return (local - timedelta(days=1)).date() if minute <= self.end_minute else None

    def due(self, moment: datetime) -> bool:
        day = self.day_of(moment)
        return day is not None and day.weekday() in self.weekdays

    def closes(self, day: date) -> datetime:
        """When the window of `day` ends."""
        return datetime(day.year, day.month, day.day, tzinfo=self.zone) + timedelta(
            days=1 if self.spans_midnight else 0, minutes=self.end_minute)


def _minute(label: str) -> int:
    hours, minutes = label.split(":")
    return int(hours) * 60 + int(minutes)


def habit_window(attributes: dict) -> HabitWindow | None:
    """A habit's window from its attributes; None when they are not a habit's (a hand-made memory)."""
    try:
        return HabitWindow(zone=ZoneInfo(attributes["time_zone"]),
                           weekdays=frozenset(int(day) for day in attributes["weekdays"]),
                           start_minute=_minute(attributes["window"]["start"]),
                           end_minute=_minute(attributes["window"]["end"]))
    except (KeyError, TypeError, ValueError, AttributeError, ZoneInfoNotFoundError):
        return None


def habits_active(*, tenant, user_id: str) -> QuerySet[Memory]:
    return Memory.objects.filter(tenant=tenant, user_id=user_id, kind=MemoryKind.HABIT, status=MemoryStatus.ACTIVE)


def habits_due(*, tenant, user_id: str, at: datetime, min_confidence: float) -> list[Memory]:
    """The user's active habits whose window holds `at` on one of their weekdays, most certain first."""
    due = [memory for memory in habits_active(tenant=tenant, user_id=user_id).filter(confidence__gte=min_confidence)
           if (window := habit_window(memory.attributes)) is not None and window.due(at)]
    return sorted(due, key=lambda memory: (-memory.confidence * memory.feedback_weight, memory.pk))
