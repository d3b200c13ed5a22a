"""Shared pieces of the Chinese rules: adverbs, object and list readers."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.text import has_question_word_zh, tidy_value

# Adverbs and past time expressions that may sit between 我 and the verb without changing who or
# whether: "我上个月已经搬到上海了". Negation and modals are deliberately absent.
_ADV = (r"(?:现在|目前|一直|已经|也|还|平时|其实|刚|刚刚|最近|都|就|本来|真的|确实|上个?月|上周|上个?星期|去年|前年|"
        r"今年|前几天|前不久|不久前|年初|年前|早就|终于|\d{2,4}年)*")


_INTENSE = r"(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮)*"


_TERM = r"(?=$|[，,。.!！~～;；、\s]|了|啦|呀|哦|的)"


_NAME = r"(?P<v>(?![了过着他她它你车醒])[\u4e00-\u9fff]{1,4}|[A-Z][a-zA-Z]+(?:\s[A-Z][a-zA-Z]+)?)"


_OBJ = r"(?P<v>[^，,。.!！?？;；]+)"


_PRONOUNS = re.compile(r"^(?:你|您|他|她|它|这|那|这个|那个|这些|那些|的)")


_TRAILING = re.compile(r"(?:了|啊|呀|哦|呢|啦|(?<![酒网水])吧|的|极了|得很|得不得了|死了|一点|一些)+$")


_LIST_SPLIT = re.compile(r"和|、|,|跟|与|及|以及|还有|或者|或")


def _c(key: str, value: str, confidence: float = 1.0, **attributes) -> Candidate:
    return Candidate(key, value, confidence, attributes)


def _object(raw: str) -> str | None:
    value = _TRAILING.sub("", tidy_value(raw))
    # "我不喜欢也不讨厌": a denial after the verb leaves no object.
    if not value or _PRONOUNS.match(value) or re.match(r"也?[不没]", value) or has_question_word_zh(value) or len(value) > 14:
        return None
    return value


def _items(raw: str) -> list[str]:
    out = []
    for part in _LIST_SPLIT.split(tidy_value(raw)):
        value = _object(part.strip())
        if value and not re.search(r"[不没对]|有点|有些|一点|容易|经常|好像|可能", value):
            out.append(value)
    return out


def _zc(key: str, value: str, **attributes) -> Candidate:
    return Candidate(key, value, 1.0, {k: v for k, v in attributes.items() if v not in (None, "", [])})
