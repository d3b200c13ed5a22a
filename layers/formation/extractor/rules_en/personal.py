"""Personal facts and dates: name, age, birthday, anniversary."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import (
    _IM,
    _NAME,
    _NOT_NAMES,
    _f,
    _proper,
    value_rule,
)
from layers.formation.extractor.rules_en.languages import _LANGS
from layers.formation.extractor.text import tidy_value


def _b_age(m, clause):
    age = A.plausible_age(A.en_int(m.group("v")), low=5)
    return [_f("user.age", str(age))] if age else []


def _b_date(key, **fixed):
    def build(m, clause):
        value = tidy_value(m.group("v"))
        if not value or not (A.en_date(value) or re.search(r"\d", value)):
            return []
        extra = dict(fixed)
        if key == "user.anniversary" and "type" not in extra and re.search(r"(?i)wedding|married", clause):
            extra["type"] = "wedding"
        return [_f(key, value, **extra)]
    return build


# What follows "I'm" with a capital that is not a name: nationalities, faiths, states of mind.
_NOT_A_NAME = (r"(?i)american|canadian|british|english|scottish|irish|welsh|australian|chinese|japanese|korean|indian|"
               r"german|french|italian|spanish|mexican|brazilian|dutch|swedish|russian|polish|turkish|greek|"
               r"vietnamese|thai|filipino|nigerian|kenyan|egyptian|pakistani|iranian|israeli|jewish|muslim|christian|"
               r"catholic|buddhist|hindu|asian|european|african|latino|latina|hispanic|vegan|vegetarian|fine|good|"
               r"great|okay|ok|sorry|back|home|here|done|ready|sure|tired|new|single|married|pregnant|retired|"
               r"busy|free|sick|ill|bored|happy|sad|excited|nervous|confused|lost|late|early|allergic|diabetic")


def _b_name(m, clause):
    value = _proper(m.group("v"))
    if not value or value in _NOT_NAMES or re.match(_LANGS, value) or re.fullmatch(_NOT_A_NAME, value):
        return []
    return [_f("user.name", value)]


_legacy_name = value_rule("user.name", _proper)


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?:^|\b)(?i:my\s+name\s+is|my\s+name's|call\s+me|you\s+can\s+call\s+me|i\s+go\s+by)\s+{_NAME}"), _legacy_name),
    (re.compile(rf"{_IM}\s+(?i:called)\s+{_NAME}"), _legacy_name),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(r"(?i:i\s+was\s+born|born)\s+(?i:on)\s+(?P<v>[A-Za-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+[A-Za-z]+|\d{1,2}/\d{1,2})"), _b_date("user.birthday")),
    # "I'm Sarah, nice to meet you", "hey, I'm Tom here": a self-introduction.
    (re.compile(r"^(?:(?i:hi|hey|hello|hiya)[,!\s]+(?:(?i:there|all|everyone)[,!\s]+)?)?(?i:i'm|im|i\s+am)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)(?=\s*(?:[,!.]|$|\s+(?i:here|btw|by\s+the\s+way|and)\b))"), _b_name),
    (re.compile(rf"(?i:just\s+turned|i\s+turned|turned)\s+(?P<v>{A.EN_NUMBER})\b(?!\s*(?i:min|mins|minutes|hours|%|am|pm|degrees|km|miles))"), _b_age),
    (re.compile(rf"(?i:i'm|im|i\s+am)\s+(?P<v>{A.EN_NUMBER})(?=\s*(?:,|$|\.|!|\s+and\b|\s+(?i:years?|yrs?|y/o|yo)\b|\s+(?i:now|this\s+year|today)\b))"), _b_age),
    (re.compile(rf"(?:^|,\s*)(?P<v>\d{{1,2}}|(?i:{A.EN_NUMBER}))\s+(?i:years?\s+(?:old|young)|yrs?\s+old|y/o)"), _b_age),
    (re.compile(r"(?i:birthday|b-day|bday)(?:'s|\s+is|\s*:)?\s*(?:(?i:on)\s+)?(?P<v>(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+[A-Za-z]+|[A-Za-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}/\d{1,2})"), _b_date("user.birthday")),
    (re.compile(r"(?i:my\s+birthday)\s+(?P<v>(?i:today|tomorrow))|(?i:it's\s+(?:actually\s+)?my\s+birthday)\s+(?P<w>(?i:today))"), lambda m, c: [_f("user.birthday", (m.group("v") or m.group("w")).lower())]),
    (re.compile(r"(?:(?i:our|my)\s+(?:\d+(?:st|nd|rd|th)\s+)?(?:(?i:wedding|dating|engagement)\s+)?)?(?i:anniversary)\s+(?i:is|'s|:)\s+(?:(?i:on)\s+)?(?P<v>[^,.;!?]+?)(?=\s*(?:,|$|\.|!|\s+(?:so|and|dont|don't|if)\b))"), _b_date("user.anniversary")),
    (re.compile(r"(?i:got\s+married|were\s+married|married)\s+(?i:on|in)\s+(?P<v>[^,.;!?]+)"), _b_date("user.anniversary", type="wedding")),
    (re.compile(r"(?i:i'm|im|i\s+am)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)(?=\s*,\s*\d)"), _b_name),
    (re.compile(r"^(?i:name\s+is|name's|the\s+name's)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)"), _b_name),
]
