"""The days of the week a text names, in English and Chinese, for the second stage's slot feature
(selectors/rerank.py): "can I do drinks on Tuesday?" asks a slot that "every Tuesday and Thursday at 8
I play basketball" fills, and "周四下午能约牙医吗" one that "每周四下午开周会" fills. The keyword path
cannot join them: jieba cuts 每周二 and 周一三五 into pieces that share no token with 周二 or 周三, and a
weekday bridge is one concept of several in the query, under the cut alone.

Days are numbered 0 (Monday) to 6 (Sunday). Read: English day names (and plurals, "Tue"/"Thurs"/"Fri"; the
three-letter forms inside a habit's brackets),
weekday(s) and weekend(s), every day and daily; Chinese 周/星期/礼拜 followed by one or more day numerals
(周一三五, 周二、周四, 周一到周五), 工作日, 周末, 每天 and 天天. "一周三次" (three times a week) names no day.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

WEEKDAYS = frozenset(range(5))
WEEKEND = frozenset({5, 6})
EVERY_DAY = frozenset(range(7))

_EN_DAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
            "tue": 1, "tues": 1, "thu": 3, "thur": 3, "thurs": 3, "fri": 4}
_EN_DAY = re.compile(r"\b(" + "|".join(sorted(_EN_DAYS, key=len, reverse=True)) + r")s?\b")
# the three-letter forms a habit's details use ("gym (at 6pm, mon, wed)"), read only inside brackets: "the sun was
# out", "we sat down" name no day
_BRACKETED = re.compile(r"[(（]([^()（）]*)[)）]")
_EN_SHORT = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)\b")
_EN_SHORT_DAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_EN_SPANS = ((re.compile(r"\bweekdays?\b"), WEEKDAYS), (re.compile(r"\bweekends?\b"), WEEKEND),
             (re.compile(r"\b(?:every ?day|daily)\b"), EVERY_DAY))
_ZH_NUMERALS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
# 周 / 星期 / 礼拜, then day numerals, each optionally after a separator or a repeated 周
_ZH_DAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天](?:(?:[、，,/和与及跟]|到|至|-|~)?(?:周|星期|礼拜)?"
                     r"[一二三四五六日天])*)(?![次天个回遍趟年])")
_ZH_SPANS = ((re.compile(r"工作日"), WEEKDAYS), (re.compile(r"周末"), WEEKEND),
             (re.compile(r"每天|天天|每日"), EVERY_DAY))


def _zh_run(run: str) -> set[int]:
    """周一三五 -> {0, 2, 4}; 周一到周五 -> {0 … 4}."""
    days: set[int] = set()
    previous = None
    ranged = False
    for piece in re.findall(r"到|至|-|~|[一二三四五六日天]", run):
        if piece in ("到", "至", "-", "~"):
            ranged = previous is not None
            continue
        day = _ZH_NUMERALS[piece]
        if ranged and previous is not None and previous <= day:
            days.update(range(previous, day + 1))
        days.add(day)
        previous, ranged = day, False
    return days


@lru_cache(maxsize=4096)
def days_named(text: str) -> frozenset[int]:
    """The weekdays `text` names (0 = Monday)."""
    lowered = unicodedata.normalize("NFKC", text or "").lower()
    days: set[int] = {_EN_DAYS[match.group(1)] for match in _EN_DAY.finditer(lowered)}
    for inner in _BRACKETED.findall(lowered):
        days |= {_EN_SHORT_DAYS[short] for short in _EN_SHORT.findall(inner)}
    for run in _ZH_DAY.findall(lowered):
        days |= _zh_run(run)
    for pattern, named in (*_EN_SPANS, *_ZH_SPANS):
        if pattern.search(lowered):
            days |= named
    return frozenset(days)
