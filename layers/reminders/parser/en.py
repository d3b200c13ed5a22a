"""English time expressions: relative (in 20 minutes, in an hour and a half, later), absolute (tomorrow
at 7am, on Friday at noon, next Wednesday at 3pm, Dec 24 9:00) and recurring (every weekday at 8,
every Monday, daily at 7, every other day, every 2 hours, on the 1st of every month)."""
from __future__ import annotations

import re
from datetime import timedelta

from layers.reminders.parser.numbers import EN_NUMBER, en_number
from layers.reminders.parser.when import Claimed, When

WEEKDAY_NAMES = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
                 "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
                 "sunday": 6, "sun": 6}
WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
MONTHS = {"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
          "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
          "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12}
_DAY_NAME = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)s?"
_MONTH = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
          r"jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?")
_UNIT = r"(seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?)"
UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}

_RELATIVE = re.compile(rf"\b(?:in|within|after)\s+(?:another\s+)?(half\s+an?|{EN_NUMBER})\s*(?:and\s+a\s+half\s+)?"
                       rf"{_UNIT}\b(\s+and\s+a\s+half)?|\b({EN_NUMBER})\s*{_UNIT}\s+from\s+now\b")
_RELATIVE_HALF = re.compile(r"\bin\s+(an?|one)\s+(hour|minute)\s+and\s+a\s+half\b")
_VAGUE = re.compile(r"\b(?:later(?:\s+on|\s+today)?|in\s+a\s+(?:little\s+)?(?:bit|while|moment|sec|second|minute)|"
                    r"shortly|soon|in\s+a\s+few)\b")
_DAY = re.compile(r"\b(the\s+day\s+after\s+tomorrow|tomorrow|tmrw|tmr|today|tonight|this\s+(?:morning|afternoon|"
                  r"evening)|tomorrow\s+(?:morning|afternoon|evening|night))\b")
_WEEKDAY = re.compile(rf"\b(?:on\s+|by\s+)?(?:(this|next|coming|the\s+coming)\s+)?({_DAY_NAME})\b")
_DATE = re.compile(rf"(?:\bon\s+)?\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(\d{{4}}))?|"
                   rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})(?:,?\s*(\d{{4}}))?|"
                   rf"\b(\d{{4}})-(\d{{1,2}})-(\d{{1,2}})\b|\bon\s+the\s+(\d{{1,2}})(?:st|nd|rd|th)\b")
_CLOCK = re.compile(r"\b(?:(?:at|by|around|@)\s*)?(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?|o'?clock)?(?!\s*"
                    r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|%|percent|people|degrees?))\b")
_NAMED_CLOCK = re.compile(r"\b(?:at\s+)?(noon|midday|midnight)\b")
_HOUR_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10, "eleven": 11, "twelve": 12}
_HOUR_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_PAST_TO = re.compile(rf"\b(?:at\s+)?(quarter|half|\d{{1,2}}|ten|twenty|five)\s+(past|after|to)\s+(\d{{1,2}}|{_HOUR_WORD})\b")
# "at four", "at seven thirty pm", "six o'clock": spelled-out hours need "at", a minute word or a suffix
_WORD_CLOCK = re.compile(rf"\b(at\s+)?({_HOUR_WORD})(?:\s+(fifteen|thirty|forty-five))?\s*(a\.?m\.?|p\.?m\.?|o'?clock)?\b")
_PERIOD = re.compile(r"\b(?:in\s+the\s+|this\s+|at\s+)?(morning|afternoon|evening|night|bedtime|tonight)\b")
# Recurrence
_EVERY_INTERVAL = re.compile(rf"\bevery\s+({EN_NUMBER}\s+)?(minutes?|mins?|hours?|hrs?|days?)\b|\b(hourly)\b")
_EVERY_OTHER = re.compile(r"\bevery\s+other\s+(day|week)\b")
_EVERY_WORKDAY = re.compile(r"\b(?:every\s+(?:weekday|work\s*day|business\s+day)|on\s+weekdays|weekdays|"
                            r"monday\s+(?:to|through|thru)\s+friday)\b")
_EVERY_WEEKEND = re.compile(r"\b(?:every\s+weekend|on\s+weekends|weekends)\b")
_EVERY_WEEKDAY = re.compile(rf"\b(?:every|each|on)\s+({_DAY_NAME}(?:\s*(?:,|and|&)\s*{_DAY_NAME})*)\b")
_EVERY_DAY = re.compile(r"\b(?:every\s*day|everyday|daily|each\s+day|every\s+(morning|evening|night|afternoon)|"
                        r"each\s+(morning|evening|night)|nightly)\b")
_EVERY_MONTH = re.compile(r"\b(?:on\s+the\s+(\d{1,2})(?:st|nd|rd|th)\s+of\s+(?:every|each)\s+month|"
                          r"(?:every|each)\s+month\s+on\s+the\s+(\d{1,2})(?:st|nd|rd|th)|monthly\s+on\s+the\s+"
                          r"(\d{1,2})(?:st|nd|rd|th))\b")
_EVERY_WEEK = re.compile(r"\b(?:every|each)\s+week\b|\bweekly\b")


def _unit(word: str) -> str:
    return UNITS[word[0]] if word[0] != "m" or word.startswith("mi") else "minutes"


def read_en(text: str) -> When:
    lowered = text.lower()
    when = When()
    free, take = (claimed := Claimed(when, len(lowered))).free, claimed.take

    for match in _EVERY_INTERVAL.finditer(lowered):
        if match.group(3):
            when.freq, when.interval = "HOURLY", 1
            take(match)
            continue
        count = en_number(match.group(1)) if match.group(1) else 1
        unit = _unit(match.group(2))
        if not count:
            continue
        if unit == "hours":
            when.freq, when.interval = ("HOURLY", int(count)) if count >= 1 else ("MINUTELY", int(count * 60))
        elif unit == "minutes":
            when.freq, when.interval = "MINUTELY", int(count)
        else:
            when.freq, when.interval = "DAILY", int(count)
        take(match)
    for match in _EVERY_OTHER.finditer(lowered):
        if free(match):
            when.freq, when.interval = ("DAILY" if match.group(1) == "day" else "WEEKLY"), 2
            take(match)
    for match in _EVERY_WORKDAY.finditer(lowered):
        if free(match):
            when.freq, when.by_days = "WEEKLY", ["MO", "TU", "WE", "TH", "FR"]
            take(match)
    for match in _EVERY_WEEKEND.finditer(lowered):
        if free(match):
            when.freq, when.by_days = "WEEKLY", ["SA", "SU"]
            take(match)
    for match in _EVERY_WEEKDAY.finditer(lowered):
        days = re.findall(_DAY_NAME, match.group(1))
        # "on Monday" once is a date; "on Mondays" or "every Monday" recurs
        recurring = not match.group(0).startswith("on") or match.group(1).rstrip().endswith("s") and \
            not match.group(1).rstrip().endswith(("tues", "thurs"))
        if free(match) and recurring:
            when.freq = "WEEKLY"
            when.by_days += [WEEKDAY_CODES[WEEKDAY_NAMES[day.rstrip("s") if day.rstrip("s") in WEEKDAY_NAMES
                                                         else day]] for day in days]
            take(match)
    for match in _EVERY_MONTH.finditer(lowered):
        day = int(next(group for group in match.groups() if group))
        if free(match) and 1 <= day <= 31:
            when.freq, when.month_day = "MONTHLY", day
            take(match)
    for match in _EVERY_DAY.finditer(lowered):
        if free(match) and not when.freq:
            when.freq = "DAILY"
            period = match.group(1) or match.group(2) or ("night" if "nightly" in match.group(0) else None)
            if period:
                when.period = period
            take(match)
    for match in _EVERY_WEEK.finditer(lowered):
        if free(match) and not when.freq:
            when.freq = "WEEKLY"
            take(match)

    for match in _RELATIVE_HALF.finditer(lowered):
        if free(match) and not when.freq:
            when.relative = timedelta(**{_unit(match.group(2)): 1.5})
            take(match)
    for match in _RELATIVE.finditer(lowered):
        if not free(match) or when.relative is not None or when.freq:
            continue
        if match.group(1):
            raw, unit = match.group(1), match.group(2)
            count = 0.5 if raw.startswith("half") else en_number(raw)
            if "and a half" in match.group(0):
                count = (count or 0) + 0.5
        else:
            count, unit = en_number(match.group(4)), match.group(5)
        if count:
            when.relative = timedelta(**{_unit(unit): count})
            take(match)
    for match in _DATE.finditer(lowered):
        if not free(match):
            continue
        groups = match.groups()
        if groups[0]:
            month, day, year = MONTHS[groups[0].rstrip(".")], int(groups[1]), groups[2]
        elif groups[3]:
            day, month, year = int(groups[3]), MONTHS[groups[4].rstrip(".")], groups[5]
        elif groups[6]:
            year, month, day = groups[6], int(groups[7]), int(groups[8])
        else:
            year, month, day = None, None, int(groups[9])
        # "may" is mostly a verb: only a month with a day number right after it
        if 1 <= day <= 31 and (month is None or 1 <= month <= 12):
            when.year, when.month, when.day = (int(year) if year else None), month, day
            take(match)
            break
    for match in _DAY.finditer(lowered):
        if free(match):
            word = re.sub(r"\s+", " ", match.group(1))
            if word == "the day after tomorrow":
                when.day_offset = 2
            elif word.startswith(("tomorrow", "tmr")):
                when.day_offset = 1
            else:
                when.day_offset = 0
            for period in ("morning", "afternoon", "evening", "night"):
                if word.endswith(period):
                    when.period = period
            if word == "tonight":
                when.period = "evening"
            take(match)
    for match in _WEEKDAY.finditer(lowered):
        if free(match):
            prefix, name = match.group(1), match.group(2)
            if name in ("sat", "sun", "wed", "mon") and not prefix and not match.group(0).startswith(("on", "by")):
                continue  # "sun", "wed" are words too
            when.weekday = WEEKDAY_NAMES[name.rstrip("s") if name.rstrip("s") in WEEKDAY_NAMES else name]
            when.week_offset = 1 if prefix == "next" else 0 if prefix == "this" else None
            take(match)
            break  # the first day said is the reminder's
    for match in _NAMED_CLOCK.finditer(lowered):
        if free(match):
            when.hour = 12 if match.group(1) in ("noon", "midday") else 0
            if match.group(1) == "midnight":
                when.hour, when.meridiem = 12, "am"
                if when.day_offset is None and when.weekday is None and when.day is None:
                    when.day_offset = 1  # midnight: the one that ends today
            else:
                when.meridiem = "pm"
            take(match)
    for match in _PAST_TO.finditer(lowered):
        if free(match) and when.hour is None:
            amount = {"quarter": 15, "half": 30, "ten": 10, "twenty": 20, "five": 5}.get(match.group(1)) or int(
                match.group(1))
            hour = _HOUR_WORDS.get(match.group(3)) or int(match.group(3))
            if amount >= 60 or not 1 <= hour <= 12:
                continue
            if match.group(2) == "to":
                when.hour, when.minute = (hour - 1) or 12, 60 - amount
            else:
                when.hour, when.minute = hour, amount
            take(match)
    for match in _PERIOD.finditer(lowered):
        if free(match):
            word = match.group(1)
            when.period = when.period or {"bedtime": "night", "tonight": "evening"}.get(word, word)
            if word == "tonight" and when.day_offset is None:
                when.day_offset = 0
            take(match)
    for match in _WORD_CLOCK.finditer(lowered):
        if free(match) and when.hour is None and (match.group(1) or match.group(3) or match.group(4)):
            when.hour = _HOUR_WORDS[match.group(2)]
            when.minute = {"fifteen": 15, "thirty": 30, "forty-five": 45}.get(match.group(3) or "", 0)
            suffix = match.group(4) or ""
            when.meridiem = "am" if suffix.startswith("a") else "pm" if suffix.startswith("p") else None
            take(match)
    for match in _CLOCK.finditer(lowered):
        if not free(match) or when.hour is not None:
            continue
        hour, minute, suffix = int(match.group(1)), match.group(2), match.group(3) or ""
        has_at = bool(re.match(r"(?:at|by|around|@)", match.group(0)))
        if not (has_at or minute or suffix):
            continue
        if hour > 23 or (minute and int(minute) > 59) or (suffix.startswith(("a", "p")) and hour > 12):
            continue
        when.hour, when.minute = hour, int(minute or 0)
        if suffix.startswith("a"):
            when.meridiem = "am"
        elif suffix.startswith("p"):
            when.meridiem = "pm"
        take(match)
    if when.relative is None:
        for match in _VAGUE.finditer(lowered):
            if free(match) and when.hour is None and not when.names_a_day and not when.freq and when.period is None:
                when.vague = True
                take(match)
                break
    if when.freq == "WEEKLY" and not when.by_days and when.weekday is not None:
        when.by_days = [WEEKDAY_CODES[when.weekday]]
        when.weekday = None
    return when
