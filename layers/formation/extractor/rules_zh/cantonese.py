"""Written Cantonese read as Mandarin: "我喺深圳返工，屋企喺东莞" is "我在深圳上班，家住在东莞".

The Chinese rules are written in Mandarin words; a Cantonese speaker says the same facts with other
function words (喺 for 在, 嘅 for 的, 唔 for 不) and a few other verbs (返工, 揸车, 钟意). Each word is
replaced by a Mandarin one of the same length, so every position of the reading is the position of the
user's own text and a value read from it is given back as the user wrote it (`as_said`).

Only a clause that carries a word Mandarin never writes is read this way: 係 and 食 are also ordinary
characters of traditional and literary Chinese (關係, 食物), and are left alone elsewhere.
"""
from __future__ import annotations

import re

# Words found only in written Cantonese: their presence says the clause is Cantonese.
_MARKERS = re.compile(r"喺|嘅|咗|冇|唔|佢|屋企|返工|放工|揸|哋|钟意|鍾意|乜嘢|咩|啲|嚟|睇")

# Longer words first, so 屋企喺 is read before 屋企 and 喺. Every replacement has the length of its word.
_WORDS = (
    ("屋企喺", "家住在"), ("住喺", "住在"), ("屋企", "家里"), ("返工", "上班"), ("放工", "下班"), ("返学", "上学"),
    ("返屋企", "回家里"), ("揸车", "开车"), ("钟意", "喜欢"), ("鍾意", "喜歡"), ("我哋", "我们"), ("佢哋", "他们"),
    ("唔食", "不吃"), ("食唔", "吃不"), ("食素", "吃素"), ("食咗", "吃了"), ("做嘢", "工作"),
    ("喺", "在"), ("嘅", "的"), ("咗", "了"), ("冇", "没"), ("唔", "不"), ("佢", "他"), ("係", "是"), ("睇", "看"),
)

_WORD = re.compile("|".join(re.escape(word) for word, _ in _WORDS))
_MANDARIN = dict(_WORDS)


def as_mandarin(clause: str) -> str:
    """`clause` in Mandarin words, of the same length; unchanged unless it is written Cantonese."""
    if not _MARKERS.search(clause):
        return clause
    return _WORD.sub(lambda word: _MANDARIN[word.group()], clause)


def as_said(value, mandarin: str, clause: str):
    """`value`, read from the Mandarin reading of `clause`, in the user's own words."""
    if not isinstance(value, str) or not value or mandarin == clause:
        return value
    at = mandarin.find(value)
    return clause[at:at + len(value)] if at >= 0 else value
