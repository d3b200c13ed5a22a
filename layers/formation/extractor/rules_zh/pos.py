"""Part-of-speech tags for the Chinese rules, from jieba.posseg (jieba 0.42.1, requirements.txt).

The tokenizer, its dictionary and the cached tagger are the keyword layer's
(memoryhub/providers/keywords.py `pos_tags`: loaded once per process, under a lock; posseg's tag table
loads on first import, which Python's import lock makes safe across threads). A clause is tagged once
and the tags cached, since several families ask about the same clause. Measured on the corpus: about 0.3 ms per clause.

What the tags decide here: time words (jieba's ``t``: 下个月, 周末, 今年, 晚上) are never a person's
name, a place or a value, and are skipped when looking for who the subject is.
"""
from __future__ import annotations

import re

from memoryhub.providers.keywords import pos_tags


def tags(text: str) -> tuple[tuple[str, str], ...]:
    """(word, flag) pairs for `text`, from the keyword layer's one cached tagger."""
    return pos_tags(text)


# jieba tags some calendar words as nouns or numerals; these pieces join them back into one time word.
_TIME_PIECE = re.compile(r"^(?:[下上这本每个周星期礼拜月号日初底旬一二三四五六七八九十两天末\d]|中旬)+$")


def is_time_word(value: str) -> bool:
    """Whether `value` is nothing but time words ("周末", "下个月", "今年", "每周二晚上")."""
    value = value.strip()
    if not value:
        return False
    pairs = tags(value)
    return any(flag == "t" for _, flag in pairs) and all(flag == "t" or _TIME_PIECE.match(word) for word, flag in pairs)


def drop_time_words(text: str) -> str:
    """`text` without the words jieba tags as time words."""
    return "".join(word for word, flag in tags(text) if flag != "t")


_HEAD_NOUNS = {"蛋白", "制品", "类", "粉", "过敏原", "成分", "提取物"}


def split_compound(text: str) -> list[str]:
    """"海鲜啤酒", "米饭面条", "猫毛狗毛": nouns said one after another with no 和 or 、 between them."""
    if len(text) < 4:
        return [text]
    if re.fullmatch(r"[葱姜蒜辣醋糖盐油酒肉蛋奶虾蟹鱼葱韭]{2,4}", text):
        return list(text)  # "葱姜蒜": single-character foods said in a row
    if len(text) == 4 and text[1] == text[3]:
        return [text[:2], text[2:]]  # 猫毛狗毛: two words sharing their second character
    pairs = tags(text)
    # "牛奶蛋白", "乳制品", "坚果类": a head noun makes one compound of what comes before it.
    if pairs and pairs[-1][0] in _HEAD_NOUNS:
        return [text]
    if len(pairs) >= 2 and all(flag.startswith("n") and len(word) >= 2 for word, flag in pairs):
        return [word for word, _ in pairs]
    return [text]
