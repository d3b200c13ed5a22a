"""The days of the week a text names, for the second stage's slot feature (selectors/rerank.py): "can I do
drinks on Tuesday?" asks a slot that "every Tuesday and Thursday at 8 I play basketball" fills, and
"周四下午能约牙医吗" one that "每周四下午开周会" fills. The keyword path cannot join them: jieba cuts 每周二 and
周一三五 into pieces that share no token with 周二 or 周三, and a weekday bridge is one concept of several in the
query, under the cut alone.

Days are numbered 0 (Monday) to 6 (Sunday). The weekdays come from the one reader the extractor uses too
(memoryhub/providers/weekdays.py); a memory's text adds what a stored memory says that an attribute does not:
the three-letter forms inside a habit's brackets ("gym (at 6pm, mon, wed)"), every day and daily (每天, 天天),
and a weekday in the singular.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from memoryhub.providers.weekdays import WEEKDAYS, weekdays

WORKING_WEEK = frozenset(range(5))
EVERY_DAY = frozenset(range(7))

# read only inside brackets: "the sun was out", "we sat down" name no day
_BRACKETED = re.compile(r"[(（]([^()（）]*)[)）]")
_SHORT = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)\b")
_SPANS = ((re.compile(r"\bweekday\b"), WORKING_WEEK),
          (re.compile(r"\b(?:every ?day|daily)\b|每天|天天|每日"), EVERY_DAY))


@lru_cache(maxsize=4096)
def days_named(text: str) -> frozenset[int]:
    """The weekdays `text` names (0 = Monday)."""
    lowered = unicodedata.normalize("NFKC", text or "").lower()
    days = {WEEKDAYS.index(day) for day in weekdays(lowered) or ()}
    for inner in _BRACKETED.findall(lowered):
        days |= {WEEKDAYS.index(short) for short in _SHORT.findall(inner)}
    for pattern, named in _SPANS:
        if pattern.search(lowered):
            days |= named
    return frozenset(days)
