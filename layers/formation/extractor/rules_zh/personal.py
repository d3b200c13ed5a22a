"""Personal facts and dates: name, age, birthday, anniversary."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import value_rule
from layers.formation.extractor.rules_zh.common import _ADV, _NAME, _TERM, _zc
from layers.formation.extractor.rules_zh.employment import _PROFESSIONS
from layers.formation.extractor.text import has_question_word_zh, tidy_value

_SURNAMES = set("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任"
                "沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")


def _zb_name(m, clause):
    value = re.sub(r"(?:就行|就好|就可以|吧|好了)$", "", tidy_value(m.group("v")))
    if not value or has_question_word_zh(value) or re.search(r"[的了是在有个]", value):
        return []
    if re.fullmatch(r"[\u4e00-\u9fff]+", value) and not (value[0] in _SURNAMES or value[0] in "小阿老"):
        return []
    if re.search(rf"(?:{_PROFESSIONS})$|人$|控$|迷$", value):
        return []
    return [_zc("user.name", value)]


def _zb_age(m, clause):
    age = A.plausible_age(A.zh_int(m.group("v")), low=5)
    return [_zc("user.age", str(age))] if age else []


def _zb_bare_age(m, clause):
    age = A.plausible_age(A.zh_int(m.group("v")), low=16)  # a bare number under that is rarely an adult's age
    return [_zc("user.age", str(age))] if age else []


def _zb_date(key, kind=None):
    def build(m, clause):
        value = tidy_value(m.group("v"))
        if not value or not (A.zh_date(value) or re.search(r"[\d一二三四五六七八九十]+[月号日]|初[一二三四五六七八九十]|今天|明天|七夕|情人节|圣诞|元旦|中秋|冬至|春分|夏至|秋分|除夕|元宵|端午|^\d{1,2}[./]\d{1,2}$|^\d{4}年$"
                                         # "我birthday是Nov 2": an English month and day in a Chinese frame
                                         r"|^(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d{1,2}(?:st|nd|rd|th)?$|^\d{1,2}(?:st|nd|rd|th)?\s+(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$", value)):
            return []
        # "我和老公是5月20号领的证": who it was with is no part of the date.
        lead = re.match(r"(?:我)?(?:和|跟)[\u4e00-\u9fff]{1,4}?是(?=[\d一二三四五六七八九十])", value)
        if lead:
            value = value[lead.end():]
        extra = {}
        if key == "user.anniversary":
            kind_found = m.groupdict().get("type") or kind
            if not kind_found:
                found = re.search(r"结婚|恋爱|相识|订婚|在一起|领证|结的婚", clause)
                kind_found = found.group() if found else None
            kind_found = {"领": "结婚", "结": "结婚", "结的婚": "结婚", "领证": "结婚", "在一起": "恋爱", "认识": "相识"}.get(kind_found, kind_found)
            extra["type"] = kind_found
        return [_zc(key, value, **extra)]
    return build


_legacy_name = value_rule("user.name", lambda raw: None if has_question_word_zh(raw) else tidy_value(raw))


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我{_ADV}(?:叫|名叫|的名字是|的名字叫|名字叫){_NAME}{_TERM}"), _legacy_name),
    (re.compile(rf"(?:^|[，,])(?:你可以)?叫我{_NAME}(?:就(?:行|好|可以)了?)"), _legacy_name),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(r"(?:我叫|我的名字是|我的名字叫|名字叫|本名叫|本名是?|真名叫?|大名叫?|中文名(?:叫|是)?\s*|英文名(?:叫|是)?\s*|叫我)(?P<v>[\u4e00-\u9fff]{2,4}|[A-Z][a-z]+)"), _zb_name),
    (re.compile(r"(?:^|[，,])叫(?P<v>[\u4e00-\u9fff]{2,3})(?=$|[，,。])"), _zb_name),
    (re.compile(r"(?:本人|我是)(?P<v>[\u4e00-\u9fff]{2,3})(?=$|[，,。])"), _zb_name),
    (re.compile(rf"(?:今年|刚满|满|已经|快)?(?P<v>{A.ZH_NUMBER})(?:周?岁)(?:了)?(?!的)"), _zb_age),
    (re.compile(rf"今年(?:刚好|正好|刚|已经|都)?(?:虚岁|周岁)?(?P<v>{A.ZH_NUMBER})(?=了|$|[，,])"), _zb_age),
    (re.compile(r"快(?P<v>[二三四五六七八九]十|[1-9]\d)(?:岁)?的人了"), _zb_age),
    # "我28，在德勤做审计", "背景：我三十五，程序员", "我也30了": an age said as a bare number right after 我,
    # closing its part; a date or a count takes a word after it ("我28号到", "我30个") and is not read.
    (re.compile(r"(?:^|(?<=[，,：:；;]))我(?:也|都|才|今年)?(?P<v>[1-9]\d|[二三四五六七八九]十[一二三四五六七八九]?)了?(?=$|[，,。!！~～；;])"), _zb_bare_age),
    # "马上就40了", "今年刚满24", "快三十了": an age said as a bare number with an aspect word.
    (re.compile(r"(?:马上就?|快要?|都|已经|刚满|满|奔)(?P<v>[二三四五六七八九]十|[1-9]\d)(?:岁|周岁)?(?=了|$|[，,。])"), _zb_age),
    (re.compile(r"(?:农历|阳历|公历)?(?:生日(?:那天)?是|生日在|生日)(?P<v>[^，,。!！?？😂]+?)(?=$|[，,。!！?？]|，|刚|[\U0001F300-\U0001FAFF])"), _zb_date("user.birthday")),
    (re.compile(rf"(?P<v>{A.ZH_DATE.pattern})我?(?:要)?过(?:生日|农历生日)"), _zb_date("user.birthday")),
    (re.compile(rf"是(?P<v>(?:{A.ZH_DATE.pattern})+)的?生日"), _zb_date("user.birthday")),
    # "今天是我们在一起三周年": the day, then which anniversary it is.
    (re.compile(rf"(?P<v>{A.ZH_DATE.pattern})(?:就)?是我们(?:的)?(?P<type>在一起|结婚|恋爱|相识|认识|领证)(?:的)?[一二三四五六七八九十两\d]*周年"), _zb_date("user.anniversary")),
    # "我3月12号生日": the date right before 生日.
    (re.compile(rf"(?:^|(?<=我))(?P<v>(?:{A.ZH_DATE.pattern})+)(?:的)?生日(?=$|[，,。!！~～])"), _zb_date("user.birthday")),
    # "English name's Jason, 中文名字是王杰": a Chinese name said beside another.
    (re.compile(r"(?:中文名字?|英文名字?|大名|本名|真名|全名|身份证上(?:的)?(?:名字)?)(?:是|叫)(?P<v>[\u4e00-\u9fff]{2,4}|[A-Z][a-z]+)(?=$|[，,。!！])"), _zb_name),
    (re.compile(r"(?:结婚|恋爱|在一起)(?:[一二三四五六七八九十\d]+)?周年(?:纪念日)?(?:是|在|就在)(?P<v>[^，,。!！?？]+)"), _zb_date("user.anniversary")),
    (re.compile(r"今天是我(?:的)?生日"), lambda m, c: [_zc("user.birthday", "今天")]),
    # "下周三是我生日", "我是农历腊月初八生的": the date first, then whose birthday it is.
    (re.compile(rf"(?:^|[，,])(?P<v>{A.ZH_DATE.pattern}(?:{A.ZH_DATE.pattern})*)(?:就)?是我(?:的)?(?:农历)?生日"), _zb_date("user.birthday")),
    (re.compile(rf"是(?P<v>(?:{A.ZH_DATE.pattern})+)(?:出)?生的"), _zb_date("user.birthday")),
    # "我和老公是10月1号结的婚", "结婚纪念日在六月六号", "纪念日就是七夕".
    (re.compile(rf"(?:是|^)(?:[^，,。]{{0,6}}?)(?P<v>\d{{4}}年(?=结|领)|(?:{A.ZH_DATE.pattern})+|七夕|情人节|[^，,。]{{0,6}}?(?:\d{{1,2}}|[一二三四五六七八九十]{{1,3}})[号日])(?P<type>结|领证|领|在一起|认识)(?:的婚|的证|的)"), _zb_date("user.anniversary")),
    (re.compile(rf"(?:^|[，,])(?P<v>(?:{A.ZH_DATE.pattern})+)(?:就)?是我(?:和|跟)?(?:[\u4e00-\u9fff]{{1,3}}?)?的?(?P<type>结婚|恋爱|相识)?(?:[一二三四五六七八九十\d]+周年)?纪念日"), _zb_date("user.anniversary")),
    (re.compile(rf"(?:^|[，,])(?P<v>(?:{A.ZH_DATE.pattern})+)(?:就)?是我们?(?:俩)?的?(?P<type>结婚|恋爱|相识)[一二三四五六七八九十\d]+周年"), _zb_date("user.anniversary")),
    (re.compile(rf"(?:^|[，,]|(?<=我))(?:和|跟)?(?:[\u4e00-\u9fff]{{1,3}}?)?(?P<v>(?:{A.ZH_DATE.pattern})+)(?:就是)?我?们?(?:俩)?(?P<type>结婚|恋爱|在一起)[一二三四五六七八九十\d]+周年"), _zb_date("user.anniversary")),
    (re.compile(r"(?P<type>结婚|恋爱|相识|订婚)?纪念日(?:是|在|就是|就在)(?P<v>[^，,。!！?？]+)"), _zb_date("user.anniversary")),
    (re.compile(r"(?:(?P<type>恋爱|结婚|相识|订婚)?纪念日|anniversary)是(?P<v>[^，,。!！?？]+)"), _zb_date("user.anniversary")),
    (re.compile(r"是(?P<v>[^，,。]*?(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日])(?P<type>结婚|领证|在一起)的"), _zb_date("user.anniversary")),
    (re.compile(r"(?P<v>[^，,。]{2,10}?)是我们(?P<type>结婚|恋爱)[^，,。]*纪念日"), _zb_date("user.anniversary")),
]
