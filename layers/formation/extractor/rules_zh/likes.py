"""Likes and dislikes."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import (
    Candidate,
    taste_items,
    value_rule,
)
from layers.formation.extractor.rules_zh.common import (
    _ADV,
    _INTENSE,
    _OBJ,
    _c,
    _object,
    _zc,
)


def _zb_like(key):
    def build(m, clause):
        value = _object(m.group("v"))
        if not value:
            return []
        value = re.split(r"，|,|但|可是|不过", value)[0]
        value = re.sub(r"^(?:上了|上|的)", "", value)
        if re.match(r"也?不|也?没", value):
            return []  # "我不喜欢也不讨厌": a denial, no object
        if not value or re.match(r"(?:你|您|他|她|这样|那样|一个人|去|吃饭$)", value) and key == "user.likes" and value != "一个人待着":
            if value != "一个人待着":
                return []
        return [_zc(key, item) for item in taste_items(value)]
    return build


_legacy_like = value_rule("user.likes", _object)
_legacy_dislike = value_rule("user.dislikes", _object)


def _legacy_favourite(match: re.Match) -> list[Candidate]:
    value = _object(match.group("v"))
    return [_c("user.likes", value, category=match.group("cat"))] if value else []


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我{_ADV}(?P<neg>{_INTENSE}(?:不喜欢|不爱|不太喜欢|讨厌|受不了|反感|厌恶|烦)){_OBJ}"), _legacy_dislike),
    (re.compile(rf"我{_ADV}{_INTENSE}(?:喜欢|爱)的(?P<cat>[\u4e00-\u9fff]{{1,6}})是{_OBJ}"), _legacy_favourite),
    (re.compile(rf"我{_ADV}{_INTENSE}(?:喜欢|爱(?!人|好|心)|热爱|偏爱|钟爱|偏好|迷上了|爱上了){_OBJ}"), _legacy_like),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(r"(?P<neg>(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮)*(?:不太喜欢|不喜欢|不爱|讨厌|受不了|反感|厌恶|最烦|烦|怕))(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.dislikes")),
    (re.compile(r"对(?P<v>[^，,。.!！?？;；]+?)(?:完全|一点)?(?:无感|没兴趣|没什么兴趣|不感兴趣|提不起兴趣)"), _zb_like("user.dislikes")),
    (re.compile(r"(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮|好|更)*(?:喜欢|爱(?!人|好|心)|热爱|偏爱|钟爱|迷上了|爱上了|沉迷)(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.likes")),
    # "本人无辣不欢", "对数码产品很感兴趣".
    (re.compile(r"无(?P<v>[\u4e00-\u9fff])不欢"), lambda m, c: [_zc("user.likes", m.group("v"))]),
    (re.compile(r"对(?P<v>[^，,。不]{1,10}?)(?:很|非常|特别|挺|比较|超)?感兴趣"), lambda m, c: [_zc("user.likes", m.group("v"))]),
    # "我是个猫奴", "是个咖啡控", "资深果粉", "对爵士乐情有独钟": a fan of it.
    (re.compile(r"(?P<v>[\u4e00-\u9fffA-Za-z]{1,8})是我(?:的最爱|最喜欢的[\u4e00-\u9fff]{0,4}|最爱的[\u4e00-\u9fff]{0,4})(?=$|[，,。!！])|是(?:个|一个|一名)?(?P<w>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:控|奴|迷)(?=$|[，,。!！]|啊|呀)|(?:资深|骨灰级)(?P<x>[\u4e00-\u9fffA-Za-z]{2,6})|对(?P<y>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:情有独钟|没有?什么抵抗力|毫无抵抗力|没抵抗力)"), lambda m, c: [_zc("user.likes", m.group("v") or m.group("w") or m.group("x") or m.group("y"))]),
]
