"""What a time expression said, collected by the language readers, and how it becomes a due time.

The readers (zh.py, en.py) fill a `When` with the parts they found; `when_resolve` turns them into the
first due time after `now` in the user's zone, and a recurrence rule when one was said.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from layers.reminders.parser.recurrence import WEEKDAYS, next_occurrence

# The hour a part of the day means when no hour is named ("今晚提醒我", "tomorrow morning").
PERIOD_DEFAULT_HOUR = {"early": 6, "morning": 9, "noon": 12, "afternoon": 15, "evening": 20, "night": 22}


@dataclass
class When:
    relative: timedelta | None = None
    vague: bool = False
    day_offset: int | None = None
    weekday: int | None = None            # 0 = Monday
    week_offset: int | None = None        # None: the coming one; 0 this week; 1 next week
    year: int | None = None
    month: int | None = None
    month_offset: int | None = None       # "下个月5号": 1
    day: int | None = None
    hour: int | None = None
    minute: int = 0
    period: str | None = None             # early, morning, noon, afternoon, evening, night
    meridiem: str | None = None           # am / pm, said explicitly
    freq: str | None = None               # DAILY, WEEKLY, MONTHLY, HOURLY, MINUTELY
    interval: int = 1
    by_days: list[str] = field(default_factory=list)
    month_day: int | None = None
    spans: list[tuple[int, int]] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.spans)

    @property
    def names_a_day(self) -> bool:
        return any(value is not None for value in (self.day_offset, self.weekday, self.day))

    def mark(self, match, group: int = 0) -> None:
        self.spans.append(match.span(group))


class Claimed:
    """The characters a reader has already read, so one word never counts as two expressions."""

    def __init__(self, when: When, length: int):
        self.when, self.taken = when, [False] * length

    def free(self, match, group: int = 0) -> bool:
        start, end = match.span(group)
        return not any(self.taken[start:end])

    def take(self, match, group: int = 0) -> None:
        start, end = match.span(group)
        for index in range(start, end):
            self.taken[index] = True
        self.when.mark(match, group)


def hour_of_day(hour: int, *, period: str | None, meridiem: str | None) -> int:
    """24-hour clock from what was said; 24 means midnight at the end of the day."""
    if meridiem == "am":
        return 0 if hour == 12 else hour
    if meridiem == "pm":
        return hour if hour == 12 else hour + 12 if hour < 12 else hour
    if period in ("afternoon", "evening") and hour < 12:
        return hour + 12
    if period in ("evening", "night") and hour == 12:
        return 24
    if period == "night" and 6 <= hour < 12:
        return hour + 12
    if period == "noon" and hour < 6:
        return hour + 12
    if period in ("early", "morning") and hour == 12:
        return 0 if period == "early" else 12
    return hour


def _likely_hour(hour: int) -> int:
    """A bare hour on a day other than today: 7-11 in the morning, 1-6 in the afternoon (meetings,
    calls), 12 at noon."""
    return hour + 12 if 1 <= hour <= 6 else hour


def _at(day: datetime, hour: int, minute: int) -> datetime:
    base = day.replace(hour=0, minute=0, second=0, microsecond=0)
    return base + timedelta(hours=hour, minutes=minute)


def _candidates(when: When, hour: int) -> list[int]:
    if when.period or when.meridiem or hour > 12 or hour == 0:
        return [hour_of_day(hour, period=when.period, meridiem=when.meridiem)]
    return [hour, hour + 12] if hour < 12 else [12]


def _time_of(when: When, default_hour: int) -> tuple[int, int] | None:
    if when.hour is not None:
        return hour_of_day(when.hour, period=when.period, meridiem=when.meridiem) if (
            when.period or when.meridiem) else _likely_hour(when.hour), when.minute
    if when.period:
        return PERIOD_DEFAULT_HOUR[when.period], 0
    return None


def _rule(when: When, hour_minute: tuple[int, int] | None) -> str:
    parts = [f"FREQ={when.freq}"]
    if when.interval > 1:
        parts.append(f"INTERVAL={when.interval}")
    if when.freq in ("HOURLY", "MINUTELY"):
        return ";".join(parts)
    if when.by_days:
        parts.append("BYDAY=" + ",".join(sorted(set(when.by_days), key=WEEKDAYS.index)))
    if when.month_day:
        parts.append(f"BYMONTHDAY={when.month_day}")
    hour, minute = hour_minute
    parts += [f"BYHOUR={hour % 24}", f"BYMINUTE={minute}"]
    return ";".join(parts)


def when_resolve(when: When, *, now: datetime, zone, default_hour: int,
                 vague_delay: timedelta) -> tuple[datetime, str] | None:
    """(due time in UTC, recurrence rule or "") for the first occurrence after `now`, or None when the
    time said is already past (a date earlier this year is taken as next year's)."""
    local_now = now.astimezone(zone)
    if when.freq:
        hour_minute = _time_of(when, default_hour) or (default_hour, 0)
        rule = _rule(when, hour_minute)
        due = next_occurrence(rule, after=now, time_zone=zone.key, start=now if when.freq in (
            "HOURLY", "MINUTELY") else None)
        return (due, rule) if due else None
    if when.relative is not None:
        return now + when.relative, ""
    if when.vague and not when.names_a_day and when.hour is None and when.period is None:
        return now + vague_delay, ""
    if when.day is not None and when.month_offset is not None:
        month_index = local_now.month - 1 + when.month_offset
        when.year, when.month = local_now.year + month_index // 12, month_index % 12 + 1
    if when.day is not None:
        year = when.year or local_now.year
        try:
            day = local_now.replace(year=year, month=when.month or local_now.month, day=when.day)
        except ValueError:
            return None
        hour_minute = _time_of(when, default_hour) or (default_hour, 0)
        due = _at(day, *hour_minute)
        if due <= local_now and when.year is None:
            if when.month is None:  # "15号": this month's, else next month's
                month = local_now.month % 12 + 1
                year = local_now.year + (1 if month == 1 else 0)
            else:
                year = local_now.year + 1
            try:
                due = _at(day.replace(year=year, month=when.month or month), *hour_minute)
            except ValueError:
                return None
        return (due.astimezone(timezone.utc), "") if due > local_now else None
    if when.weekday is not None:
        start_of_week = local_now - timedelta(days=local_now.weekday())
        hour_minute = _time_of(when, default_hour) or (default_hour, 0)
        if when.week_offset is None:
            ahead = (when.weekday - local_now.weekday()) % 7
            due = _at(local_now + timedelta(days=ahead), *hour_minute)
            if due <= local_now:
                due += timedelta(days=7)
        else:
            due = _at(start_of_week + timedelta(days=7 * when.week_offset + when.weekday), *hour_minute)
            if due <= local_now:
                return None
        return due.astimezone(timezone.utc), ""
    if when.day_offset is not None:
        day = local_now + timedelta(days=when.day_offset)
        hour_minute = _time_of(when, default_hour) or (default_hour, 0)
        if when.day_offset == 0 and when.hour is not None and not (when.period or when.meridiem):
            options = [_at(day, hour, when.minute) for hour in _candidates(when, when.hour)]
            future = [option for option in options if option > local_now]
            due = min(future) if future else None
        else:
            due = _at(day, *hour_minute)
        if due is None or due <= local_now:
            return None
        return due.astimezone(timezone.utc), ""
    if when.hour is not None:
        options = []
        for offset in (0, 1):
            day = local_now + timedelta(days=offset)
            options += [_at(day, hour, when.minute) for hour in _candidates(when, when.hour)]
        future = [option for option in options if option > local_now]
        return (min(future).astimezone(timezone.utc), "") if future else None
    if when.period:
        due = _at(local_now, PERIOD_DEFAULT_HOUR[when.period], 0)
        if due <= local_now:
            due += timedelta(days=1)
        return due.astimezone(timezone.utc), ""
    if when.vague:
        return now + vague_delay, ""
    return None
