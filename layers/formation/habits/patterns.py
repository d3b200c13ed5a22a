"""Finding what keeps happening: occurrences of one request at similar times of day across days.

Pure functions over local datetimes (no database), so the corpus check and the job agree:
1. the time-of-day cluster: the window of at most `window_max_minutes` holding occurrences on the most
   distinct days (also tried across midnight, so 23:50 and 00:10 are one evening);
2. the weekday pattern of the cluster's days: daily, weekdays, weekends, or one weekday, whichever covers
   the expected days of its current run best (the longest run ending with the latest occurrence that covers
   at least `min_coverage` of the pattern's days in its span, with the other days of the span at least
   `min_purity` empty); the best coverage × purity wins, ties go to more support, then the broader pattern;
3. a habit when at least `min_days` distinct days support it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

DAILY, WEEKDAYS, WEEKENDS, WEEKLY = "daily", "weekdays", "weekends", "weekly"
ALL_DAYS = (0, 1, 2, 3, 4, 5, 6)
_CANDIDATES = [(DAILY, ALL_DAYS), (WEEKDAYS, (0, 1, 2, 3, 4)), (WEEKENDS, (5, 6))] + [
    (WEEKLY, (day,)) for day in ALL_DAYS]
# Broader first: a tie in coverage goes to the pattern that assumes less.
_BREADTH = {DAILY: 0, WEEKDAYS: 1, WEEKENDS: 1, WEEKLY: 2}
ROUND_MINUTES = 10


@dataclass(frozen=True)
class Thresholds:
    min_days: int
    window_max_minutes: int
    window_min_minutes: int
    min_coverage: float
    min_purity: float


@dataclass(frozen=True)
class Pattern:
    pattern: str  # daily | weekdays | weekends | weekly
    weekdays: tuple[int, ...]  # Monday = 0
    start_minute: int  # the window in local minutes of the day; start > end when it spans midnight
    end_minute: int
    support: int  # distinct days with an occurrence in the window on a pattern day
    coverage: float  # support / pattern days expected between the first and the last occurrence
    first_day: date
    last_seen: datetime  # the latest occurrence in the window

    @property
    def window(self) -> dict:
        return {"start": minute_label(self.start_minute), "end": minute_label(self.end_minute)}


def minute_label(minute: int) -> str:
    minute %= 1440
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _minute(moment: datetime) -> int:
    return moment.hour * 60 + moment.minute


def _day(moment: datetime, shift: int) -> date:
    """The day an occurrence counts for: on the clock shifted across midnight, 00:10 belongs to the evening before."""
    return (moment - timedelta(minutes=shift)).date()


def _best_cluster(moments: list[datetime], width: int, shift: int) -> list[datetime]:
    """The occurrences in the `width`-minute window (on the clock shifted by `shift`) with the most distinct days."""
    ordered = sorted(moments, key=lambda m: (_minute(m) + shift) % 1440)
    best: list[datetime] = []
    best_days = 0
    for i, start in enumerate(ordered):
        start_minute = (_minute(start) + shift) % 1440
        inside = [m for m in ordered[i:] if (_minute(m) + shift) % 1440 - start_minute <= width]
        days = len({_day(m, shift) for m in inside})
        if days > best_days or (days == best_days and len(inside) > len(best)):
            best, best_days = inside, days
    return best


def _window(cluster: list[datetime], shift: int, thresholds: Thresholds) -> tuple[int, int]:
    """The cluster's span rounded outwards to ROUND_MINUTES, widened to the minimum width, on the real clock."""
    minutes = [(_minute(m) + shift) % 1440 for m in cluster]
    low = min(minutes) // ROUND_MINUTES * ROUND_MINUTES
    high = -(-max(minutes) // ROUND_MINUTES) * ROUND_MINUTES
    missing = thresholds.window_min_minutes - (high - low)
    if missing > 0:
        low -= -(-missing // 2 // ROUND_MINUTES) * ROUND_MINUTES
        high = low + max(thresholds.window_min_minutes, high - low)
    return (low - shift) % 1440, (high - shift) % 1440


def _expected(days: set[int], first: date, last: date) -> int:
    span = (last - first).days + 1
    return sum(1 for offset in range(span) if (first + timedelta(days=offset)).weekday() in days)


def _current_run(days: list[date], weekdays: tuple[int, ...], thresholds: Thresholds):
    """(support, coverage, purity, first day) of the longest run of the pattern's days that ends with the
    latest one and still covers `min_coverage` of its expected days (so a habit resumed after a break is
    judged by the resumption, and one sparse early week does not hide a steady month), or None.

    Purity is how empty the other days of the run's span stay: 1 - (days off the pattern with an occurrence /
    days off the pattern); a "weekdays" habit that also happens on the weekends is a daily one."""
    own = [day for day in days if day.weekday() in weekdays]
    others = set(ALL_DAYS) - set(weekdays)
    for start in range(len(own)):
        run = own[start:]
        if len(run) < thresholds.min_days:
            return None
        coverage = len(run) / _expected(set(weekdays), run[0], run[-1])
        off_expected = _expected(others, run[0], run[-1]) if others else 0
        off_seen = sum(1 for day in days if run[0] <= day <= run[-1] and day.weekday() in others)
        purity = 1.0 - off_seen / off_expected if off_expected else 1.0
        if coverage >= thresholds.min_coverage:
            # judged on the longest run only: dropping the days that contradict it would always make it fit
            return (len(run), coverage, purity, run[0]) if purity >= thresholds.min_purity else None
    return None


def pattern_detect(moments: list[datetime], thresholds: Thresholds) -> Pattern | None:
    """The habit these local occurrence times of one request make, or None."""
    if len({m.date() for m in moments}) < thresholds.min_days:
        return None
    width = thresholds.window_max_minutes
    clusters = [(_best_cluster(moments, width, shift), shift) for shift in (0, 720)]
    cluster, shift = max(clusters, key=lambda pair: (len({_day(m, pair[1]) for m in pair[0]}), len(pair[0]),
                                                     -pair[1]))
    days = sorted({_day(m, shift) for m in cluster})
    if len(days) < thresholds.min_days:
        return None
    best = None
    for name, weekdays in _CANDIDATES:
        found = _current_run(days, weekdays, thresholds)
        if found is None:
            continue
        support, coverage, purity, first_day = found
        key = (round(coverage * purity, 6), support, -_BREADTH[name])
        if best is None or key > best[0]:
            best = (key, name, weekdays, support, coverage, first_day)
    if best is None:
        return None
    _, name, weekdays, support, coverage, first_day = best
    # the window and the last occurrence of the run itself, not of what came before a break
    run = [m for m in cluster if _day(m, shift) >= first_day and _day(m, shift).weekday() in weekdays]
    start, end = _window(run, shift, thresholds)
    last_seen = max(run)
    return Pattern(pattern=name, weekdays=tuple(weekdays), start_minute=start, end_minute=end, support=support,
                   coverage=round(coverage, 3), first_day=first_day, last_seen=last_seen)
