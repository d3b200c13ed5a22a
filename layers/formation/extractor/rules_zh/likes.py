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
        # A pattern with two wordings names its value v in one and w in the other.
        value = _object(m.group("v") if m.group("v") is not None else m.group("w"))
        if not value:
            return []
        value = re.split(r"，|,|但|可是|不过", value)[0]
        value = re.sub(r"^(?:上了|上|的)", "", value)
        if re.match(r"也?不|也?没", value):
            return []  # "我不喜欢也不讨厌": a denial, no object
        if not value or re.match(r"(?:你|您|他|她|这样|那样|一个人|去|吃饭$)", value) and key == "user.likes" and value != "一个人待着":
            if value != "一个人待着":
                return []
        # "我喜欢吃辣的", "我不爱吃甜的": the taste itself, without the eating.
        value = re.sub(r"^(?:吃|喝)(?=(?:辣|甜|酸|咸|苦|清淡|油腻|重口)的?$)", "", value)
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
    (re.compile(r"(?P<neg>(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮)*(?:不太喜欢|不喜欢|不爱|讨厌|受不了|反感|厌恶|最烦|烦|怕|(?i:hate)\s*))(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.dislikes")),
    # "吃不惯香菜": a taste the user is not used to (FACTS.md: a pure taste dislike).
    (re.compile(r"(?:吃不惯|喝不惯|吃不来|喝不来)(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.dislikes")),
    (re.compile(r"对(?P<v>[^，,。.!！?？;；]+?)(?:完全|一点)?(?:无感|没兴趣|没什么兴趣|不感兴趣|提不起兴趣)"), _zb_like("user.dislikes")),
    (re.compile(r"(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮|好|更)*(?:喜欢|爱(?!人|好|心)|热爱|偏爱|钟爱|迷上了|爱上了|沉迷)(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.likes")),
    # "最爱的运动是游泳", "最快乐的事就是窝在沙发上看老电影", "最烦的就是排队": a superlative, then what it is.
    (re.compile(r"(?:最|特别)(?:喜欢|爱)的(?:[\u4e00-\u9fff]{1,6}?)(?:就|应该|大概)?是(?P<v>[^，,。.!！?？;；]+)"
                r"|最(?:快乐|开心|幸福|享受|放松|解压|惬意)的(?:事情?|时候|时光|时刻)(?:就|莫过于)?是(?P<w>[^，,。.!！?？;；]+)"),
     _zb_like("user.likes")),
    (re.compile(r"最(?:讨厌|烦|怕|受不了|反感|头疼)的(?:[\u4e00-\u9fff]{0,4}?)(?:就|应该)?是(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.dislikes")),
    # "我是五月天的铁粉", "咖啡重度爱好者", "骑行发烧友": a fan of it.
    (re.compile(r"(?:是|算是)?(?:个|一个|一名)?(?P<v>[\u4e00-\u9fffA-Za-z]{1,8}?)的?(?:铁粉|死忠粉|脑残粉|忠实粉丝|粉丝|(?:重度|资深|狂热|忠实)?爱好者|发烧友)(?=$|[，,。!！]|啊|呀|哈|了)"),
     _zb_like("user.likes")),
    (re.compile(r"(?:很|超|特别|超级|真的|挺)迷(?!上了)(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.likes")),
    # "香菜我真的接受不了", "榴莲这种东西我是完全没有抵抗力": the thing first, then how the user takes it.
    (re.compile(r"^(?P<v>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:这种东西|这东西|这玩意儿?|这种[\u4e00-\u9fff]{1,2})?我(?:是|真的|实在|完全|真|也|一直|就|都)*"
                r"(?:接受不了|受不了|无法接受|吃不来|喝不来|讨厌|不喜欢|不爱|欣赏不来)"), _zb_like("user.dislikes")),
    (re.compile(r"^(?P<v>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:这种东西|这东西|这玩意儿?|这种[\u4e00-\u9fff]{1,2})?我(?:是|真的|实在|完全|真|也|一直|就|都)*"
                r"(?:没有?(?:任何|一点|什么)?抵抗力|毫无抵抗力|超爱|最爱|特别爱|很喜欢|超喜欢|特别喜欢|百吃不厌|吃不腻)"), _zb_like("user.likes")),
    # "本人无辣不欢", "对数码产品很感兴趣".
    (re.compile(r"无(?P<v>[\u4e00-\u9fff])不欢"), lambda m, c: [_zc("user.likes", m.group("v"))]),
    (re.compile(r"对(?P<v>[^，,。不]{1,10}?)(?:很|非常|特别|挺|比较|超)?感兴趣"), lambda m, c: [_zc("user.likes", m.group("v"))]),
    # "我是个猫奴", "是个咖啡控", "资深果粉", "对爵士乐情有独钟": a fan of it.
    (re.compile(r"(?P<v>[\u4e00-\u9fffA-Za-z]{1,8})是我(?:的最爱|最喜欢的[\u4e00-\u9fff]{0,4}|最爱的[\u4e00-\u9fff]{0,4})(?=$|[，,。!！])|是(?:个|一个|一名)?(?P<w>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:控|奴|迷)(?=$|[，,。!！]|啊|呀)|(?:资深|骨灰级)(?P<x>[\u4e00-\u9fffA-Za-z]{2,6})|对(?P<y>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:情有独钟|没有?什么抵抗力|毫无抵抗力|没抵抗力)"), lambda m, c: [_zc("user.likes", m.group("v") or m.group("w") or m.group("x") or m.group("y"))]),
]
