"""Attribute readers shared by the zh and en rules: ages, dates, times of day, weekdays, frequency.

Values are kept as said (FACTS.md: relative dates are the consumer's job), except ages (integers)
and weekdays (a list of mon..sun), so a rule only has to find the span.
"""
from __future__ import annotations

import re

from memoryhub.providers.weekdays import WEEKDAYS, weekdays  # noqa: F401 - the rules read them here

_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_EN_NUM = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
           "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
           "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
EN_NUMBER = r"(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
ZH_NUMBER = r"(?:\d{1,3}|[一二两三四五六七八九十百]{1,4}(?:有[一二三四五六七八九])?)"


def zh_int(text: str) -> int | None:
    text = text.replace("有", "")
    if text.isdigit():
        return int(text)
    if not text or any(ch not in _ZH_DIGIT and ch not in "十百" for ch in text):
        return None
    total = 0
    if "百" in text:
        head, text = text.split("百", 1)
        total += (_ZH_DIGIT.get(head, 1) if head else 1) * 100
    if "十" in text:
        tens, units = text.split("十", 1)
        total += (_ZH_DIGIT.get(tens, 1) if tens else 1) * 10
        text = units
    for ch in text:
        total = total * 10 + _ZH_DIGIT[ch] if total and "十" not in text and len(text) > 1 else total + _ZH_DIGIT[ch]
    return total


def en_int(text: str) -> int | None:
    text = text.lower().strip()
    if text.isdigit():
        return int(text)
    total = 0
    for part in re.split(r"[- ]", text):
        if part not in _EN_NUM:
            return None
        total += _EN_NUM[part]
    return total


def to_int(text: str) -> int | None:
    return zh_int(text) if re.search(r"[\u4e00-\u9fff]", text) else en_int(text)


def plausible_age(age: int | None, *, low: int = 1, high: int = 110) -> int | None:
    return age if age is not None and low <= age <= high else None


# ---- times of day and frequency ---------------------------------------------------------------
ZH_CLOCK = r"(?:[零一二两三四五六七八九十\d]{1,3}(?:点|:\d{2})(?:半|[零一二三四五六七八九十\d]{1,3}分?)?(?:以后|之后|左右|前)?)"
ZH_TIME = re.compile(
    rf"(?:(?:早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|半夜|凌晨|睡前|[早午晚]?饭后|下班回家(?:后|以后)?|下班后|下班以后|放学后|起床后)(?:吃完饭)?{ZH_CLOCK}?|{ZH_CLOCK})")
EN_TIME = re.compile(
    r"\b(?:(?:at|around|by|before|after)\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2})\b"
    r"|\b(?:in\s+the\s+)?(?:mornings?|evenings?|afternoons?|nights?|lunchtime|lunch\s+break)\b"
    r"|\b(?:before\s+bed|after\s+work|after\s+dinner|after\s+lunch|before\s+work|at\s+noon|at\s+night)\b",
    re.IGNORECASE)
ZH_FREQ = re.compile(r"(?:一|每|两|每两|每隔两)个?(?:月|周|星期|礼拜|年)[一两二三四五六七八九十\d]+次|每两周|每隔一周|隔周|"
                     r"一天(?=[\u4e00-\u9fff]{1,2}[一两二三四五六七八九十\d]+[杯次顿包根支])|每周[一两二三四五六七]次|每周[一两二三四五六]天|一周[一两二三四五六七]天|每天|每晚|每日|(?<![今明昨后前])天天|每周|每个?星期|每个?礼拜|每个?月|每年|一天[一两二三四]次|一周[一两二三四五六七]次|每隔一天|隔天")
EN_FREQ = re.compile(
    r"\b(?:every\s+(?:day|night|morning|afternoon|evening|week|weekend|month|other\s+(?:day|week|weekend|month))|daily|nightly|weekly|monthly|"
    # "every two weeks", "every couple of months", "for 30 minutes a day"
    r"every\s+(?:two|three|four|couple\s+of|few|\d+)\s+(?:days|weeks|months)|(?<=minutes\s)a\s+day|(?<=hour\s)a\s+day|"
    r"(?:once|twice|three\s+times|four\s+times|\d+\s+times|[a-z]+\s+times)\s+(?:a|per)\s+(?:day|week|month)|"
    # "metformin twice daily", "three times weekly": the count with the adverb is one rhythm.
    r"(?:once|twice|three\s+times|four\s+times|\d+\s+times)\s+(?:daily|weekly|monthly|nightly)|"
    # "pilates 3x a week", "gym 4x/week", "every single day", "the first thursday of the month".
    r"\d\s*x\s*(?:a\s+|/\s*|per\s+)(?:day|week|month)|every\s+single\s+(?:day|morning|night|evening|week)|"
    r"(?:first|second|third|last)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+of\s+(?:the|each|every)\s+month|"
    # "every other Friday", "every second week", "fortnightly": a rhythm longer than the week.
    r"most\s+(?:days|weekends|nights|mornings)|every\s+(?:other\s+|second\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|every\s+second\s+(?:day|week|weekend|month)|fortnightly)\b",
    re.IGNORECASE)


_EN_TIME_SPECIFIC = re.compile(
    r"\b(?:before\s+bed|after\s+work|after\s+dinner|after\s+lunch|before\s+work|after\s+school|at\s+noon|"
    r"(?:at|around|by)\s+\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?|\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2})\b", re.IGNORECASE)


def time_of_day(text: str) -> str | None:
    match = ZH_TIME.search(text) or _EN_TIME_SPECIFIC.search(text) or EN_TIME.search(text)
    return match.group().strip() if match else None


def frequency(text: str) -> str | None:
    match = ZH_FREQ.search(text) or EN_FREQ.search(text)
    return match.group().strip() if match else None


# ---- dates -------------------------------------------------------------------------------------
_MONTH = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
          r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
EN_DATE = re.compile(
    rf"\b(?:(?:early|mid|late|end\s+of)[\s-]+)?(?:{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?|the\s+\d{{1,2}}(?:st|nd|rd|th)(?:\s+of\s+{_MONTH})?|"
    rf"\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|\d{{4}}-\d{{2}}-\d{{2}}|"
    rf"(?:\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm)\s+)?(?:today|tonight|tomorrow|tmrw|tmr)(?:\s+(?:morning|afternoon|evening|night))?|"
    rf"the\s+day\s+after\s+tomorrow|(?:this|next|last)\s+(?:week(?:end)?|month|year|spring|summer|autumn|fall|winter|{_DAY})|"
    rf"{_DAY}(?:\s+(?:at\s+\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm)?|morning|afternoon|evening|night))?|{_MONTH}(?:\s+\d{{4}})?|"
    rf"in\s+(?:\d+|a|two|three|four|a\s+couple\s+of)\s+(?:days|weeks|months)|[a-z]+\s+day\s+weekend|christmas|easter|new\s+year'?s?)\b",
    re.IGNORECASE)
ZH_DATE = re.compile(
    r"(?:\d{4}年)?(?:\d{1,2}|[一二三四五六七八九十]{1,3})月(?:份|初|底|中旬|\d{1,2}[日号]|[一二三四五六七八九十]{1,3}[日号]?)?"
    r"|(?:下|这|本|上)个?(?:月(?:初|底|中旬?)?|礼拜|星期|周)(?:[一二三四五六日天末])?(?:\d{1,2}|[一二三四五六七八九十]{1,3})?[日号]?"
    r"|(?:这|本|下)个?(?:weekend|周末)"
    r"|今天|今晚|明天|明早|明晚|后天|大后天|明年|今年|年底|年初|[上下]半年|年后|开春|月底|月初|过两天|过几天|周[一二三四五六日天末]|星期[一二三四五六日天]"
    r"|春节|过完年|过年|国庆节?|五一|十一|中秋节?|端午节?|元旦|寒假|暑假|清明节?|圣诞节?|七夕|情人节|母亲节|父亲节|下下周|下下个?月|月中|腊月[初一二三四五六七八九十]+|农历[\u4e00-\u9fff]{2,6}"
    r"|\d{1,2}[日号]")


def zh_date(text: str) -> str | None:
    match = ZH_DATE.search(text)
    if not match:
        return None
    end = match.end()
    # "明年三月", "下个月十五号": a date said in several pieces is one date.
    more = ZH_DATE.match(text, end)
    while more and more.end() > end:
        end = more.end()
        more = ZH_DATE.match(text, end)
    # "明天早上八点" / "周五晚上": the time of day belongs to the date.
    tail = ZH_TIME.match(text, end)
    return text[match.start():tail.end() if tail else end]


def en_date(text: str) -> str | None:
    match = EN_DATE.search(text)
    return match.group().strip() if match else None


def any_date(text: str) -> str | None:
    return zh_date(text) or en_date(text)
