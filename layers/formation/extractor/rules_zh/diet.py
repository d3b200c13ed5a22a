"""Food: diet style and foods avoided or not tolerated."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_zh.common import (
    _ADV,
    _LIST_SPLIT,
    _OBJ,
    _TRAILING,
    _c,
    _items,
    _zc,
)
from layers.formation.extractor.rules_zh.pos import is_time_word, split_compound
from layers.formation.extractor.text import tidy_value


_LACTOSE = re.compile(r"(?:有)?乳糖不耐受?")


def _zb_diet(value):
    def build(m, clause):
        return [_zc("user.diet", value or tidy_value(m.group("v")))]
    return build


def _zb_restriction(m, clause):
    return _restrictions(m.group("v"), clause)


def _restrictions(said: str, clause: str) -> list[Candidate]:
    """The foods in `said` (what a restriction pattern matched) as food_restrictions."""
    raw = tidy_value(said)
    raw = re.sub(r"^(?:是|有)?(?:吃|喝|碰)?(?:太|很|特别|过于|比较)?", "", raw)
    raw = re.sub(r"(?:基本|基本上|完全|从来|一般|一概|一律|宁愿|宁可)$", "", raw)  # "碳水基本不碰"
    raw = re.sub(r"^连", "", raw)  # "连蛋都不吃"
    if re.match(r"[不没]", raw):
        return []  # "戒不掉": no food
    if re.fullmatch(r"宁愿|宁可|干脆|索性|基本|完全", raw):
        return []
    out = []
    for part in (piece for chunk in re.split(rf"也不(?:吃|喝|碰)|{_LIST_SPLIT.pattern}|戒", raw) for piece in split_compound(chunk.strip())):
        part = _TRAILING.sub("", part.strip())
        part = re.sub(r"(?:一点都不行|一滴都不沾|都不行|也不行|就不行)$", "", part)
        part = re.sub(r"一[口点滴丁粒]+$", "", part)  # "海鲜一口都不敢碰"
        if not part or re.match(r"[就也都了还完饱下]", part) or len(part) > 8 or re.search(r"[我你他她]|什么|^东西$|^(?:很|好)?多东西$|^(?:一些|有些|不少)东西$|(?<!米)饭$|了$|^一[滴口点粒丁]|早饭|午饭|晚饭|这|那", part):
            continue
        # "现在吃不了了", "从小就不吃": a time word or an adverb is no food.
        if is_time_word(part) or re.fullmatch(r"(?:从小|小时候|一直|平时|现在|目前|最近|后来|本来|其实)就?", part):
            continue
        # "乳糖不耐受，喝牛奶就拉肚子": the milk is the lactose the clause already names, not a second restriction.
        if re.search(r"奶|乳", part) and part != "乳糖" and (_LACTOSE.search(clause) or re.search(r"(?i)lactose", clause)):
            continue
        out.append(_zc("user.food_restrictions", part))
    return out


def _legacy_vegetarian(match: re.Match) -> list[Candidate]:
    return [_c("user.diet", "素食")]


def _legacy_diet_no(match: re.Match) -> list[Candidate]:
    return [_c("user.food_restrictions", value) for value in _items(match.group("v"))]


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我{_ADV}(?:吃素|是素食主义者|是素食者|只吃素)"), _legacy_vegetarian),
    (re.compile(rf"我{_ADV}(?:不吃|不能吃|不喝|不能喝|从不吃|从来不吃|忌口){_OBJ}"), _legacy_diet_no),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "海鲜吃了会拉肚子", "一喝牛奶就胃疼": a food the body does not tolerate.
    (re.compile(r"(?:我|一|^)(?:吃|喝)?(?P<v>(?!我)[\u4e00-\u9fffA-Za-z]{1,6}?)(?:吃了|喝了|一吃|一喝)?(?:就|会|都会|就会)(?:拉肚子|胃疼|胃痛|肚子疼|不舒服|难受|胀气|反酸)"), _zb_restriction),
    (re.compile(r"(?:吃|是)?(?P<v>全素)"), _zb_diet(None)),
    (re.compile(r"(?:是(?:严格的?|坚定的?|纯)?)?(?:吃素|只吃素|改吃素|素食者|素食主义者|是素食)(?!对|的人|好不好|健康吗|有什么)"), _zb_diet("素食")),
    (re.compile(r"(?:只吃|只找|只去|只点|在吃|在做|在搞|坚持|做|吃)?(?P<v>弹性素食|半素食?|鱼素|断碳水|戒碳水|无麸质|地中海饮食|间歇性断食|蛋奶素|纯素|清真|生酮|low carb|low-carb|vegetarian|vegan|keto|pescatarian|flexitarian|halal|kosher|paleo|plant-based|low-FODMAP|low FODMAP|轻断食|低碳水)"), _zb_diet(None)),
    (re.compile(r"(?:不吃|不能吃|吃不了|不喝|不能喝|喝不了|从不吃|从来不吃|从不喝|从来不喝|戒了|少吃|不碰|不沾|忌口|不太能吃|不怎么吃|很少吃|不敢吃)(?P<v>[^，,。.!！?？;；]+)"), _zb_restriction),
    (re.compile(r"戒(?P<v>[\u4e00-\u9fff]{1,3})了"), _zb_restriction),
    (re.compile(r"(?:戒掉?|少喝|别喝)(?P<v>[\u4e00-\u9fff]{1,4}?)(?=$|[，,。!！]|了|吧)"), _zb_restriction),
    # "辣的油的都得少吃": the foods first, then what the user does about them.
    (re.compile(r"^(?P<v>(?:[\u4e00-\u9fff]{1,3}的){1,3})(?:都|也)?(?:得|要|只能)?(?:少吃|不能吃|不吃|不碰|不能碰|吃不了)"),
     lambda m, c: _restrictions(m.group("v").replace("的", "、"), c)),
    (_LACTOSE, lambda m, c: [_zc("user.food_restrictions", "乳糖")]),
    # "我对gluten不耐受", "我是lactose intolerant": an intolerance named in either language.
    (re.compile(r"(?:对)?(?P<v>[A-Za-z]+|[\u4e00-\u9fff]{1,4}?)\s*(?:不耐受?|intolerant)"), _zb_restriction),
    # "奶茶和甜品都戒了", "米饭面条基本不碰", "海鲜啤酒都不敢碰了": the foods first, an adverb, then
    # what the user does about them.
    (re.compile(r"^(?:(?:最近|现在|目前)?在(?:控糖|减肥|减脂|戒糖|健身|备孕|养胃)[，,]?|[\u4e00-\u9fff]{2,4}期间[，,]?)?(?P<v>[\u4e00-\u9fffA-Za-z、和跟]{2,12}?)(?:我)?(?:现在|已经|早就)?(?:基本上?|完全|都|也|一概|一律|统统|全|一口|一点儿?|一滴|一丁点儿?)+(?:戒了|戒掉了|不碰了?|不敢碰了?|不敢吃了?|不吃了?|不喝了?|不沾了?|吃不了|喝不了|不能吃|不能喝|碰不了|不要|不放|别放)"), _zb_restriction),
    # "医生让我别吃动物内脏": what the doctor rules out for the user.
    (re.compile(r"(?:医生|大夫)(?:让我|叫我|要我|说我|嘱咐我)(?:尽量)?(?:别吃|不要吃|不能吃|少吃|忌|别喝|不要喝|少喝)(?:动物)?(?P<v>[^，,。.!！?？;；]+)"), _zb_restriction),
    # "吃辣是不行的": eating it will not do.
    (re.compile(r"^吃(?P<v>[\u4e00-\u9fff]{1,4}?)(?:的)?(?:是|可|真|实在)?(?:不行|不可以|不能)的?(?=$|[，,。!！]|啊|呀)"), _zb_restriction),
    # "牛奶喝不了", "辣的我吃不了": the food first, then that the user cannot take it.
    (re.compile(r"^(?P<v>[\u4e00-\u9fff]{1,4}?)(?:的)?(?:我)?(?:也|都|是)?(?:喝不了|吃不了|不能吃|不能喝|碰不了|不能碰|不敢吃|吃不得|碰不得|喝不得|不吃|不碰)"), _zb_restriction),
]
