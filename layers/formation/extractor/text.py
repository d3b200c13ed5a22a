"""Sentence and clause handling for the rule-based extractor (Chinese and English).

Rules only ever see one clause of one user sentence, already folded (NFKC, zero-width removed),
with lead-ins ("actually", "其实") stripped and quoted speech blanked, so each rule can stay a
plain first-person pattern.
"""
from __future__ import annotations

import re

from memoryhub.safety.normalise import fold_text

CJK = re.compile(r"[\u3400-\u9fff]")

# A full stop ends a sentence unless it ends a title or common abbreviation ("Dr. Wang").
_SENTENCE_END = re.compile(
    r"(?<=[。！？!?；;\n])|(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\bvs\.)(?<!\betc\.)"
    r"(?<=\.)(?=\s|$)")
# A comma starts a new clause only when what follows has its own first-person subject or a
# connective; "peanuts, shellfish and milk" stays one list.
_CLAUSE_BREAK = re.compile(
    r"\s*[,，]\s*(?=(?:and\s+|but\s+|so\s+|also\s+|actually\s+|now\s+)?(?:i\b|i'm\b|i've\b|i'll\b|my\b)"
    r"|(?:但是?|不过|而且|所以|现在|其实|另外|还有|并且)?我)"
    r"|\s+(?:and|but|so)\s+(?=(?:i\b|i'm\b|i've\b|i'll\b|my\b))"
    r"|(?:但是|不过|而且|并且)(?=我)", re.IGNORECASE)

_LEAD_IN = re.compile(
    r"^(?:(?:oh|well|ok|okay|so|and|but|also|btw|by the way|actually|in fact|correction|sorry|"
    r"to be honest|honestly|just so you know|fyi|hey|hi|hello|yes|yeah|no|nope|right|um|uh|"
    r"其实|对了|另外|顺便说一下|顺便说|顺便|纠正一下|更正一下|更正|纠正|哦|嗯|还有|而且|不过|但是|所以|"
    r"是的|对|不对|不是|说错了|我说错了|好的|好吧|哈哈|嘿|你好|告诉你)[\s,，:：!！.。、~～-]*)+", re.IGNORECASE)
CORRECTION_MARK = re.compile(
    r"\b(?:actually|correction|i meant|not anymore|no longer|anymore|moved|relocated)\b|其实|更正|纠正|不对|说错了|搬", re.IGNORECASE)

_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"")

_QUESTION_START_EN = re.compile(
    r"^(?:do|does|did|am|is|are|was|were|can|could|would|will|should|shall|have|has|where|what|when|"
    r"who|whom|whose|why|how|which|isn't|aren't|don't|didn't|won't|wouldn't|shouldn't)\b", re.IGNORECASE)
_QUESTION_END_ZH = re.compile(r"(?:吗|呢|么|嘛|没有|是不是|对不对|好不好|行不行)[。.~～]*$")
_QUESTION_WORD_ZH = re.compile(r"哪里|哪儿|哪个|什么|谁|怎么|为什么|几个|多少|是否")

_HYPOTHETICAL_EN = re.compile(
    r"^(?:if|suppose|supposing|imagine|assuming|what if|in case|pretend|let's say|say)\b"
    r"|\b(?:if|wish|as if|as though|unless|even if)\s+i\b|\bi\s+(?:wish|would|could)\b|\bi'd\b",
    re.IGNORECASE)
_HYPOTHETICAL_ZH = re.compile(r"如果|假如|要是|假设|万一|倘若|假使|想象|幻想|要不是|但愿|希望我|想要|我想|梦想")


def is_cjk(text: str) -> bool:
    return bool(CJK.search(text))


def split_sentences(text: str) -> list[str]:
    folded = fold_text(text)
    return [part.strip() for part in _SENTENCE_END.split(folded) if part and part.strip()]


def split_clauses(sentence: str) -> list[str]:
    return [part.strip() for part in _CLAUSE_BREAK.split(sentence) if part and part.strip()]


def strip_lead_in(clause: str) -> str:
    return _LEAD_IN.sub("", clause).strip()


def blank_quotes(text: str) -> str:
    """Quoted speech is someone else's words; keep positions, lose content."""
    return _QUOTED.sub(lambda m: " " * len(m.group()), text)


def is_question(sentence: str) -> bool:
    stripped = sentence.strip()
    if stripped.endswith(("?", "？")):
        return True
    core = strip_lead_in(stripped)
    if _QUESTION_START_EN.match(core):
        return True
    return bool(is_cjk(core) and _QUESTION_END_ZH.search(core))


def has_question_word_zh(value: str) -> bool:
    return bool(_QUESTION_WORD_ZH.search(value))


_CONDITIONAL_START = re.compile(r"^(?:if|suppose|supposing|imagine|assuming|what if|in case|let's say)\b|^(?:如果|假如|要是|假设|万一|倘若|假使)",
                                re.IGNORECASE)


def is_hypothetical(clause: str) -> bool:
    core = strip_lead_in(clause)
    return bool(_HYPOTHETICAL_EN.search(core) or _HYPOTHETICAL_ZH.search(core))


def starts_conditional(sentence: str) -> bool:
    """"If I lived in Paris, I would …": the consequent clause is hypothetical too."""
    return bool(_CONDITIONAL_START.search(strip_lead_in(sentence)))


def tidy_value(value: str) -> str:
    value = value.strip().strip(" \t.,;:!?，。；：！？~～、\"'“”()（）")
    return re.sub(r"\s+", " ", value)
