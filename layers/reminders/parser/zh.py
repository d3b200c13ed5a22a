"""Chinese time expressions: relative (半小时后, 过20分钟, 等会儿), absolute (明天早上7点, 下周三下午3点,
12月24日9点) and recurring (每天晚上10点, 每周一, 每个工作日早上8点, 每月1号, 每隔两小时)."""
from __future__ import annotations

import re
from datetime import timedelta

from layers.reminders.parser.numbers import ZH_NUMBER, zh_int
from layers.reminders.parser.when import Claimed, When

N = ZH_NUMBER
WEEKDAY_CHARS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5,
                 "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}
WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
PERIODS = [
    (r"凌晨|半夜|深夜", "early"), (r"早上|早晨|清晨|上午|一早|早起|早", "morning"), (r"中午|正午|午饭时", "noon"),
    (r"下午|午后", "afternoon"), (r"傍晚|晚上|晚间|今晚|明晚|晚饭后|晚", "evening"), (r"夜里|夜间|睡前|夜", "night"),
]
UNITS = {"秒": "seconds", "秒钟": "seconds", "分钟": "minutes", "分": "minutes", "小时": "hours", "钟头": "hours",
         "个小时": "hours", "个钟头": "hours", "天": "days", "日": "days", "周": "weeks", "星期": "weeks",
         "个星期": "weeks", "礼拜": "weeks", "个礼拜": "weeks"}

_UNIT = r"(个小时|个钟头|小时|钟头|分钟|秒钟|秒|天|个星期|星期|个礼拜|礼拜|周|分(?=后|以后|之后))"
_RELATIVE = re.compile(rf"(?:再过|过)?\s*({N}|半|几)\s*(个)?\s*(半)?\s*{_UNIT}\s*(半)?\s*(?:以后|之后|后|内)")
_RELATIVE_AFTER = re.compile(rf"(?:再过|过)\s*({N}|半|几)\s*(个)?\s*(半)?\s*{_UNIT}\s*(半)?")
_VAGUE = re.compile(r"等一?会儿?|待一?会儿?|过一?会儿?|一会儿|稍后|稍等一下|晚点儿?|晚些时候|回头|等下|待会|过阵子")
_DAY = re.compile(r"大后天|后天|明天|明日|明儿|明早|明晚|今天|今日|今儿|今早|今晚|今夜|当天")
_DAY_OFFSET = {"大后天": 3, "后天": 2, "明天": 1, "明日": 1, "明儿": 1, "明早": 1, "明晚": 1, "今天": 0,
               "今日": 0, "今儿": 0, "今早": 0, "今晚": 0, "今夜": 0, "当天": 0}
_WEEKDAY = re.compile(r"(下下个?|下个?|这个?|本)?\s*(?:周|星期|礼拜)([一二三四五六日天1-7末])")
_DATE = re.compile(rf"(?:(\d{{4}})\s*年)?\s*({N})\s*月\s*({N})\s*(?:日|号)?|(\d{{4}})-(\d{{1,2}})-(\d{{1,2}})|"
                   rf"(?<![月\d])({N})\s*(?:号|日)(?![子本记常])")
_MONTH_AHEAD = re.compile(rf"(下个?月|本月|这个月)\s*的?\s*({N})\s*(?:号|日)")
_CLOCK = re.compile(rf"({N})\s*(?:点钟?|:|：|时)\s*(?:({N})\s*分?|(半)|(一刻)|(三刻)|(整))?")
_PERIOD = re.compile("|".join(f"(?P<p{index}>{pattern})" for index, (pattern, _) in enumerate(PERIODS)))
# Recurrence
_EVERY_INTERVAL = re.compile(rf"每隔?\s*({N}|半)?\s*(个)?\s*(小时|钟头|分钟|天)")
_EVERY_WORKDAY = re.compile(r"每个?工作日|工作日(?:每天)?|周一到周五|星期一到星期五|每个?周一至周五")
_EVERY_WEEKEND = re.compile(r"每个?周末|每个?星期六日|周末每天")
_EVERY_WEEKDAY = re.compile(r"每个?(?:周|星期|礼拜)([一二三四五六日天1-7](?:\s*[、,，和及跟与]\s*(?:周|星期|礼拜)?[一二三四五六日天1-7])*)")
_EVERY_DAY = re.compile(r"每天|每日|天天|每晚|每早|每天早上|每个晚上|每个早上|每夜")
_EVERY_MONTH = re.compile(rf"每个?月\s*(?:的)?\s*({N})\s*(?:号|日)")
_ONE_O_CLOCK_GUARD = re.compile(r"[有快慢亮暗大小多少高低强弱好早晚轻重近远长短松紧冷热甜咸]一点|一点[点儿]")


def _number(text: str | None) -> int | None:
    if text in (None, ""):
        return None
    if text == "几":
        return 3
    return zh_int(text)


def _relative(match) -> timedelta | None:
    count, _, half_before, unit, half_after = match.groups()
    value = 0.5 if count == "半" else _number(count)
    if value is None:
        return None
    if half_before or half_after:
        value += 0.5
    return timedelta(**{UNITS[unit]: value})


def read_zh(text: str) -> When:
    when = When()
    free, take = (claimed := Claimed(when, len(text))).free, claimed.take

    for pattern in (_EVERY_INTERVAL,):
        for match in pattern.finditer(text):
            if match.group(0).startswith("每") and free(match):
                count = 0.5 if match.group(1) == "半" else (_number(match.group(1)) or 1)
                unit = match.group(3)
                if unit in ("小时", "钟头"):
                    if count == 0.5:
                        when.freq, when.interval = "MINUTELY", 30
                    else:
                        when.freq, when.interval = "HOURLY", int(count)
                elif unit == "分钟":
                    when.freq, when.interval = "MINUTELY", int(count)
                elif unit == "天" and match.group(1):
                    when.freq, when.interval = "DAILY", int(count)
                elif unit == "天":
                    when.freq = "DAILY"
                take(match)
    for match in _EVERY_WORKDAY.finditer(text):
        if free(match):
            when.freq, when.by_days = "WEEKLY", ["MO", "TU", "WE", "TH", "FR"]
            take(match)
    for match in _EVERY_WEEKEND.finditer(text):
        if free(match):
            when.freq, when.by_days = "WEEKLY", ["SA", "SU"]
            take(match)
    for match in _EVERY_WEEKDAY.finditer(text):
        if free(match):
            days = [WEEKDAY_CHARS[char] for char in re.findall(r"[一二三四五六日天1-7]", match.group(1))]
            when.freq = "WEEKLY"
            when.by_days += [WEEKDAY_CODES[day] for day in days]
            take(match)
    for match in _EVERY_MONTH.finditer(text):
        if free(match):
            day = _number(match.group(1))
            if day and 1 <= day <= 31:
                when.freq, when.month_day = "MONTHLY", day
                take(match)
    for match in _EVERY_DAY.finditer(text):
        if free(match) and not when.freq:
            when.freq = "DAILY"
            if match.group(0) in ("每晚", "每个晚上"):
                when.period = "evening"
            elif match.group(0) in ("每早", "每个早上", "每天早上"):
                when.period = "morning"
            elif match.group(0) == "每夜":
                when.period = "night"
            take(match)

    for pattern in (_RELATIVE, _RELATIVE_AFTER):
        for match in pattern.finditer(text):
            if free(match) and when.relative is None and not when.freq:
                delta = _relative(match)
                if delta:
                    when.relative = delta
                    take(match)
    for match in _MONTH_AHEAD.finditer(text):
        day = _number(match.group(2))
        if free(match) and day and 1 <= day <= 31:
            when.month_offset, when.day = (1 if match.group(1).startswith("下") else 0), day
            take(match)
            break
    for match in _DATE.finditer(text):
        if not free(match) or when.day is not None:
            continue
        if match.group(2):
            month, day = _number(match.group(2)), _number(match.group(3))
            year = int(match.group(1)) if match.group(1) else None
        elif match.group(4):
            year, month, day = int(match.group(4)), int(match.group(5)), int(match.group(6))
        else:
            year, month, day = None, None, _number(match.group(7))
            # "3号楼", "5号线" are places, not days
            if text[match.end():match.end() + 1] in ("楼", "线", "门", "床", "机", "店", "桌", "口", "位", "房"):
                continue
        if day and 1 <= day <= 31 and (month is None or 1 <= month <= 12):
            when.year, when.month, when.day = year, month, day
            take(match)
            break
    for match in _DAY.finditer(text):
        if free(match):
            word = match.group(0)
            when.day_offset = _DAY_OFFSET[word]
            if word in ("明早", "今早"):
                when.period = "morning"
            elif word in ("明晚", "今晚"):
                when.period = "evening"
            elif word == "今夜":
                when.period = "night"
            take(match)
            break  # the first day said is the reminder's; a later one belongs to the task ("准备后天的会")
    for match in _WEEKDAY.finditer(text):
        if free(match):
            prefix, char = match.group(1) or "", match.group(2)
            when.weekday = WEEKDAY_CHARS[char]
            when.week_offset = 2 if prefix.startswith("下下") else 1 if prefix.startswith("下") else (
                0 if prefix else None)
            take(match)
            break
    for match in _PERIOD.finditer(text):
        if free(match):
            for index, (_, period) in enumerate(PERIODS):
                if match.group(f"p{index}"):
                    # 早/晚 alone are adverbs more often than periods ("早点睡", "晚点说"): only before a clock
                    if match.group(0) in ("早", "晚", "夜") and not _CLOCK.match(text, match.end()):
                        break
                    when.period = when.period or period
                    take(match)
                    break
    for match in _CLOCK.finditer(text):
        if not free(match):
            continue
        hour = _number(match.group(1))
        if hour is None or hour > 24:
            continue
        separator = text[match.start(1) + len(match.group(1)):match.end()].lstrip()[:1]
        if separator in (":", "：") and match.group(2) is None:
            continue
        if match.group(1) == "一" and _ONE_O_CLOCK_GUARD.search(text, max(0, match.start() - 1), match.end() + 1) \
                and not (when.period or when.names_a_day):
            continue
        minute = 0
        if match.group(2):
            minute = _number(match.group(2)) or 0
        elif match.group(3):
            minute = 30
        elif match.group(4):
            minute = 15
        elif match.group(5):
            minute = 45
        if minute > 59:
            continue
        when.hour, when.minute = hour, minute
        take(match)
        break
    if when.relative is None and not when.freq and not when.found:
        for match in _VAGUE.finditer(text):
            when.vague = True
            take(match)
            break
    elif when.relative is None:
        for match in _VAGUE.finditer(text):
            if free(match) and not (when.hour is not None or when.names_a_day):
                when.vague = True
                take(match)
                break
    return when
