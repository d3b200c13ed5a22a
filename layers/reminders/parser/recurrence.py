"""Recurrence rules: a small subset of RFC 5545 RRULE, computed with dateutil in the reminder's zone.

Only what the parser writes and the API accepts: FREQ (MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY),
INTERVAL, BYDAY (MO…SU), BYMONTHDAY, BYHOUR, BYMINUTE. Occurrences are wall-clock times in the zone,
so "every day at 8" stays at 8 across a daylight-saving change.
"""
from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

ALLOWED_PARTS = {"FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYHOUR", "BYMINUTE"}
FREQUENCIES = {"MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY"}
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
# A rule firing more often than this is refused: a reminder is not a metronome.
MIN_INTERVAL_MINUTES = 5


def _parts(rule: str) -> dict[str, str]:
    parts = {}
    for piece in rule.split(";"):
        if "=" not in piece:
            raise ValueError(f"not NAME=VALUE: {piece!r}")
        name, value = piece.split("=", 1)
        parts[name.strip().upper()] = value.strip().upper()
    return parts


def _ints(value: str, low: int, high: int, name: str) -> None:
    for item in value.split(","):
        if not item.lstrip("-").isdigit() or not low <= int(item) <= high:
            raise ValueError(f"{name} must be numbers from {low} to {high}")


def recurrence_validate(rule: str) -> str:
    """The rule in canonical form, or ValueError saying what is wrong."""
    rule = (rule or "").strip()
    if not rule:
        return ""
    parts = _parts(rule.removeprefix("RRULE:"))
    unknown = set(parts) - ALLOWED_PARTS
    if unknown:
        raise ValueError(f"unsupported parts: {', '.join(sorted(unknown))}")
    if parts.get("FREQ") not in FREQUENCIES:
        raise ValueError(f"FREQ must be one of {', '.join(sorted(FREQUENCIES))}")
    interval = parts.get("INTERVAL", "1")
    _ints(interval, 1, 1000, "INTERVAL")
    if parts["FREQ"] == "MINUTELY" and int(interval) < MIN_INTERVAL_MINUTES:
        raise ValueError(f"a rule may fire at most every {MIN_INTERVAL_MINUTES} minutes")
    if "BYDAY" in parts and any(day not in WEEKDAYS for day in parts["BYDAY"].split(",")):
        raise ValueError("BYDAY takes MO, TU, WE, TH, FR, SA, SU")
    if "BYMONTHDAY" in parts:
        _ints(parts["BYMONTHDAY"], 1, 31, "BYMONTHDAY")
    if "BYHOUR" in parts:
        _ints(parts["BYHOUR"], 0, 23, "BYHOUR")
    if "BYMINUTE" in parts:
        _ints(parts["BYMINUTE"], 0, 59, "BYMINUTE")
    order = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYHOUR", "BYMINUTE"]
    return ";".join(f"{name}={parts[name]}" for name in order if name in parts and not (
        name == "INTERVAL" and parts[name] == "1"))


def next_occurrence(rule: str, *, after: datetime, time_zone: str, start: datetime | None = None) -> datetime | None:
    """The first occurrence strictly after `after` (UTC, aware), counted from `start` (the series'
    first time, so intervals keep their phase)."""
    zone = ZoneInfo(time_zone)
    base = (start or after).astimezone(zone).replace(tzinfo=None, microsecond=0)
    if start is None:
        base = base.replace(second=0)
    local_after = after.astimezone(zone).replace(tzinfo=None)
    found = rrulestr(f"RRULE:{rule}", dtstart=base).after(local_after, inc=False)
    if found is None:
        return None
    return found.replace(tzinfo=zone).astimezone(timezone.utc)
