"""The weekdays a text names, English and Chinese: one reader for the extractor's `weekdays` attribute
(layers/formation/extractor/attrs.py) and the search's slot feature (layers/long_term/selectors/days.py).

Read: day names and their short forms in lists ("mon and wed", "Tue/Thu"), ranges ("Monday to Friday",
周一到周五), single days ("on Fridays", "every tue", the short forms no other word shares: "Thurs night", "drinks tue?"), weekdays and weekends; 周/星期/礼拜 with one or more day
numerals (周一三五, 周二和周四), 工作日, 周末 and 双休日. A numeral counting something is no day: 一周三次,
每周一个小时.
"""
from __future__ import annotations

import re

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_EN_DAY = {"mon": "mon", "monday": "mon", "tue": "tue", "tues": "tue", "tuesday": "tue", "wed": "wed",
           "wednesday": "wed", "thu": "thu", "thur": "thu", "thurs": "thu", "thursday": "thu", "fri": "fri",
           "friday": "fri", "sat": "sat", "saturday": "sat", "sun": "sun", "sunday": "sun"}
_ZH_DAY = {"一": "mon", "二": "tue", "三": "wed", "四": "thu", "五": "fri", "六": "sat", "日": "sun", "天": "sun"}


_EN_DAY_WORD = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?"
_EN_WEEKDAYS = re.compile(
    rf"\b(?:(?P<list>{_EN_DAY_WORD}(?:\s*(?:/|,|and|&)\s*{_EN_DAY_WORD})+)|(?P<range>{_EN_DAY_WORD})\s*(?:-|to|through|thru)\s*(?P<range_end>{_EN_DAY_WORD})"
    rf"|(?P<weekend>weekends?)|(?P<weekday>weekdays)|(?P<one>(?:mon|tues|tue|wednes|thurs|fri|satur|sun)days?|(?:every|on)\s+(?:mon|tue|wed|thu|fri|sat|sun)\b|tues?|thu(?:rs?)?|fri))\b",
    re.IGNORECASE)
_ZH_WEEKDAYS = re.compile(
    r"(?:周|星期|礼拜)(?P<a>[一二三四五六日天])(?![次天回趟遍个年])(?:(?:到|至|-|~)(?:周|星期|礼拜)?(?P<b>[一二三四五六日天]))?(?P<more>[一二三四五六日天、和]*)"
    r"|(?P<weekend>周末|双休日)|(?P<workday>工作日)")


def _en_day(word: str) -> str | None:
    word = word.lower().rstrip("s")
    for key in (word, word.replace("day", "")):
        if key in _EN_DAY:
            return _EN_DAY[key]
    return None


def _span(start: str, end: str) -> list[str]:
    a, b = WEEKDAYS.index(start), WEEKDAYS.index(end)
    return list(WEEKDAYS[a:b + 1]) if a <= b else list(WEEKDAYS[a:] + WEEKDAYS[:b + 1])


def weekdays(text: str) -> list[str] | None:
    """Weekdays said in `text`, as mon..sun in week order, or None."""
    days: list[str] = []
    for match in _ZH_WEEKDAYS.finditer(text):
        if match.group("weekend"):
            days += ["sat", "sun"]
        elif match.group("workday"):
            days += list(WEEKDAYS[:5])
        elif match.group("b"):
            days += _span(_ZH_DAY[match.group("a")], _ZH_DAY[match.group("b")])
        else:
            days += [_ZH_DAY[match.group("a")]] + [_ZH_DAY[c] for c in (match.group("more") or "") if c in _ZH_DAY]
    for match in _EN_WEEKDAYS.finditer(text):
        if match.group("weekend"):
            days += ["sat", "sun"]
        elif match.group("weekday"):
            days += list(WEEKDAYS[:5])
        elif match.group("list"):
            days += [d for d in (_en_day(w) for w in re.split(r"\s*(?:/|,|and|&)\s*", match.group("list"))) if d]
        elif match.group("range"):
            a, b = _en_day(match.group("range")), _en_day(match.group("range_end"))
            if a and b:
                days += _span(a, b)
        elif match.group("one"):
            day = _en_day(match.group("one").split()[-1])
            if day:
                days.append(day)
    if not days:
        return None
    return [d for d in WEEKDAYS if d in set(days)]
