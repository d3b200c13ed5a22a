"""Offline detection of conditional preferences in what a user says (zh and en).

"Avoid highways unless I'm going to the airport", "only take the highway when I'm heading to the airport",
"不要辣，但火锅可以微辣", "只有去机场才走高速", "除了去机场的时候，别走高速", "keep the music low, but
navigation can be louder" each hold a general preference and an exception under a condition. The sentence is
cut into clauses at commas and at the condition markers; each clause says a value of a preference topic,
names condition dimensions, or both (layers/long_term/conditions/lexicon.py). An "unless"/"except" clause
that names no value takes the opposite of the general one; an "only when" clause makes the general value the
opposite of its own; a "when"/"if" clause with no value takes the next clause's.

A sentence yields nothing when it is a one-off request ("这次按价格从高到低排", "take the highway this
time"), a question, or names no preference topic; without a condition marker it yields variants only when it
says a preference cue ("I usually …", "平时…") or sets two facets apart ("music low, navigation louder").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from layers.long_term.conditions.frames import frame_variants
from layers.long_term.conditions.lexicon import TOPIC_BY_KEY
from layers.long_term.conditions.condition import condition_normalise, condition_text
from layers.long_term.conditions.reading import dimensions_heard, values_heard

EXCEPT, ONLY, BUT, WHEN = "except", "only", "but", "when"

_MARKERS = (
    (EXCEPT, re.compile(r"\b(?:unless|except(?:\s+(?:when|if|for|on|to))?|other\s+than|apart\s+from)\b"
                        r"|除非|除了|否则|除外|例外", re.I)),
    (ONLY, re.compile(r"\bonly\b(?:\s+\w+){0,6}?\s+(?:when|if|for|on|during|at|to|going|heading|driving)\b|只有|只在|仅在|仅当|只要是", re.I)),
    (BUT, re.compile(r"\b(?:but|though|however)\b|但是|但|不过|可是", re.I)),
    (WHEN, re.compile(r"\b(?:when(?:ever)?|if|while|during|for)\b|如果|要是|假如|的话|的时候|时候", re.I)),
)
# Where a clause ends: punctuation, and the markers that open a new clause inside one sentence.
_CUT = re.compile(r"[,，;；、]|\s(?=(?:unless|except|but|and|only\s+(?:when|if))\b)|(?=除非|除了|但是|不过|可是)"
                  r"|(?<=[\u4e00-\u9fff])(?=但(?!是))", re.I)
_SENTENCE = re.compile(r"(?<=[.!?。！？\n])\s*")
_ONE_OFF = re.compile(r"\b(?:this\s+time|just\s+this\s+once|for\s+now|today|tonight|right\s+now|this\s+trip)\b"
                      r"|这次|这一次|这回|今天|今晚|现在|这趟|临时", re.I)
_QUESTION = re.compile(r"[?？]\s*$|^(?:can|could|would|will|do|does|is|are|should|what|why|how)\b|吗[。！]?$|呢[。！]?$",
                       re.I)
_HYPOTHETICAL = re.compile(r"\bif\s+i\s+(?:were|was|had)\b|\bimagine\b|假设我|要是我是", re.I)
_PREFERENCE_CUE = re.compile(r"\b(?:i\s+(?:usually|always|generally|normally|prefer|like|want|never)|my\s+rule"
                             r"|in\s+general|as\s+a\s+rule|by\s+default)\b"
                             r"|平时|一般|通常|习惯|总是|喜欢|我都|默认|向来|从来", re.I)
# An exception that names no value but allows ("…, but to the airport they're fine"): the general value's opposite.
_ALLOWING = re.compile(r"\b(?:fine|ok(?:ay)?|allowed|acceptable|an\s+exception)\b|可以|没问题|没关系|也行|除外|例外", re.I)
# "其他时候别走", "otherwise no": the rest of the time, the opposite of the exception said before.
_OTHERWISE = re.compile(r"\b(?:otherwise|other\s+times|the\s+rest\s+of\s+the\s+time|any\s+other\s+time)\b"
                        r"|其他时候|其余时候|别的时候|其它时候|平时|否则|不然", re.I)
_NEGATION = re.compile(r"\b(?:no|not|never|don'?t)\b|不|别|没", re.I)


@dataclass(frozen=True)
class Variant:
    memory_key: str
    value: str
    condition: dict | None
    lang: str
    sentence: str

    @property
    def content(self) -> str:
        topic = TOPIC_BY_KEY.get(self.memory_key)
        if topic is None:  # a topic read by its frame (frames.py): the key's own words and the value as said
            name = self.memory_key.removeprefix("user.preference.").replace("_", " ")
            if self.lang == "zh":
                return (f"用户偏好（{name}，{condition_text(self.condition)}时）：{self.value}。" if self.condition
                        else f"用户偏好（{name}）：{self.value}。")
            return (f"User's preference ({name}) when {condition_text(self.condition)}: {self.value}."
                    if self.condition else f"User's preference ({name}): {self.value}.")
        en, zh = (topic.render or {}).get(self.value, (self.value, self.value))
        if self.lang == "zh":
            return (f"用户偏好（{condition_text(self.condition)}时）：{zh}。" if self.condition
                    else f"用户偏好：{zh}。")
        return (f"User's preference when {condition_text(self.condition)}: {en}." if self.condition
                else f"User's preference: {en}.")

    def attributes(self) -> dict:
        return {"value": self.value, "lang": self.lang, **({"condition": self.condition} if self.condition else {})}


@dataclass
class _Clause:
    text: str
    marker: str | None
    values: dict = field(default_factory=dict)  # memory_key -> value
    dims: dict = field(default_factory=dict)


def _lang(text: str) -> str:
    return "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"


def _marker(text: str) -> str | None:
    head = text.strip()
    for name, pattern in _MARKERS:
        match = pattern.search(head)
        # "only when" and zh markers may sit inside the clause ("take highways only when …", "去机场的时候")
        if match and (match.start() <= 1 or name in (ONLY, WHEN) or re.match(r"[\u4e00-\u9fff]", match.group(0))):
            return name
    return None


def _clauses(sentence: str) -> list[_Clause]:
    out = []
    for piece in _CUT.split(sentence):
        piece = (piece or "").strip()
        if not piece:
            continue
        heard = values_heard(piece)
        dims = dimensions_heard(piece, exclude=tuple((h.start, h.end) for h in heard.values()))
        out.append(_Clause(piece, _marker(piece), {key: h.value for key, h in heard.items()}, dims))
    return out


def _variants_for(key: str, clauses: list[_Clause], sentence: str, lang: str, marked: bool) -> list[Variant]:
    topic = TOPIC_BY_KEY[key]
    general: str | None = None
    conditional: list[tuple[dict, str | None, str | None]] = []  # (dims, value, marker)
    for index, clause in enumerate(clauses):
        value = clause.values.get(key)
        if not clause.dims:
            if value is None:
                if general is None and conditional and conditional[-1][1] and _OTHERWISE.search(clause.text) \
                        and _NEGATION.search(clause.text):
                    general = topic.opposites.get(conditional[-1][1])
                continue
            # a value after a "when …" clause that had none is that clause's consequence
            if conditional and conditional[-1][1] is None and conditional[-1][2] in (WHEN, BUT):
                dims, _, marker = conditional[-1]
                conditional[-1] = (dims, value, marker)
            elif general is None:
                general = value
            continue
        if value is None and clause.marker == ONLY:
            # "只有去机场才走高速": the value sits after 才 in the same clause; "… only when" takes the previous
            before = [c.values.get(key) for c in clauses[:index] if c.values.get(key) and not c.dims]
            value = before[-1] if before else None
            if value is not None and general == value:
                general = None
        conditional.append((clause.dims, value, clause.marker))
    variants: list[Variant] = []
    for dims, value, marker in conditional:
        if value is None and marker in (BUT, WHEN, None) and _ALLOWING.search(clause.text):
            marker = EXCEPT
        if value is None and marker == EXCEPT:
            # the opposite of what holds otherwise: the general value, else the exception before this one
            base = general if general is not None else next(
                (v for d, v, _ in reversed(conditional[:conditional.index((dims, value, marker))]) if v), None)
            value = topic.opposites.get(base) if base else None
        if value is None:
            continue
        if marker == ONLY and general is None:
            general = topic.opposites.get(value)
        condition = condition_normalise({d: list(v) for d, v in dims.items()
                                         if not topic.facets or d in topic.facets or marker})
        if condition:
            variants.append(Variant(key, value, condition, lang, sentence))
    if not variants:
        return []
    facet_pair = len({json_key(v.condition) for v in variants}) >= 2 and topic.facets
    if not marked and not facet_pair and not _PREFERENCE_CUE.search(sentence):
        return []
    if general is not None and general not in {v.value for v in variants if v.condition is None}:
        variants.insert(0, Variant(key, general, None, lang, sentence))
    return variants


def json_key(condition: dict | None) -> str:
    return repr(sorted((condition or {}).items()))


def conditional_preferences_parse(text: str) -> list[Variant]:
    """The general preference and its conditional variants each sentence of `text` states, in order."""
    found: list[Variant] = []
    for sentence in _SENTENCE.split(text or ""):
        sentence = sentence.strip()
        if not sentence or _QUESTION.search(sentence) or _HYPOTHETICAL.search(sentence) or _ONE_OFF.search(sentence):
            continue
        clauses = _clauses(sentence)
        keys = list(dict.fromkeys(key for clause in clauses for key in clause.values))
        if not keys:
            # No topic of the lexicon says a value: the condition frame, whatever the topic (frames.py).
            lang = _lang(sentence)
            for key, value, condition in frame_variants(sentence):
                condition = condition_normalise(condition) if condition else None
                if not any(v.memory_key == key and v.condition == condition for v in found):
                    found.append(Variant(key, value, condition, lang, sentence))
            continue
        marked = any(clause.marker in (EXCEPT, ONLY, BUT, WHEN) or _ALLOWING.search(clause.text)
                     for clause in clauses if clause.dims)
        lang = _lang(sentence)
        for key in keys:
            for variant in _variants_for(key, clauses, sentence, lang, marked):
                if not any(v.memory_key == variant.memory_key and v.condition == variant.condition for v in found):
                    found.append(variant)
    return found
