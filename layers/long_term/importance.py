"""Importance when the writer gives none: inferred from the kind, the key and the content, so that
memories written through the API are forgotten and served (core facts) like extracted ones.

The ladder in layers/long_term/policy.py turns importance into a TTL (≥ 0.9 never, ≥ 0.7 90 days,
≥ 0.4 30 days, else 7 days) and `core_profile_min_importance` (0.9) decides which memories join every
context. So the numbers here say, per family of personal fact, how long it should live and whether an
agent must always see it: health and safety facts (allergies, conditions, medication) are core;
identity, family, work and home last months; tastes and plans live weeks. A writer that knows better
passes `importance` explicitly; a tenant may override the table (`policy.long_term.importance_by_key`).
"""
from __future__ import annotations

import re

# By memory_key family (the first two dotted segments: "user.allergies", "user.relationship").
IMPORTANCE_BY_KEY_FAMILY: dict[str, float] = {
    "user.allergies": 0.95,
    "user.health_conditions": 0.9,
    "user.medications": 0.9,
    "user.diet": 0.8,
    "user.food_restrictions": 0.8,
    "user.name": 0.8,
    "user.home_city": 0.75,
    "user.birthday": 0.75,
    "user.relationship": 0.7,
    "user.employer": 0.7,
    "user.occupation": 0.7,
    "user.work_city": 0.7,
    "user.languages": 0.7,
    "user.anniversary": 0.7,
    "user.contact_preference": 0.7,
    "user.education": 0.65,
    "user.hometown": 0.6,
    "user.pet": 0.6,
    "user.habits": 0.6,
    "user.age": 0.6,
    "user.former_employer": 0.5,
    "user.likes": 0.5,
    "user.dislikes": 0.5,
    "user.plan": 0.5,
}

# Without a key: the content's words, zh and en, by family (first match wins, strongest first).
_CONTENT_CUES: tuple[tuple[float, re.Pattern], ...] = (
    (0.95, re.compile(r"allerg|anaphyla|epipen|过敏", re.IGNORECASE)),
    (0.9, re.compile(
        r"\b(?:diabet\w*|asthma\w*|epilep\w*|hypertension|high blood pressure|heart (?:condition|disease)|pregnan\w*|"
        r"coeliac|celiac|insulin|medication|medicine|pills?|prescri\w+|chronic|disorder|surgery)\b"
        r"|糖尿病|哮喘|高血压|心脏病|怀孕|孕期|癫痫|用药|吃药|服药|药物|处方|慢性|手术", re.IGNORECASE)),
    (0.8, re.compile(r"\b(?:vegetarian|vegan|pescatarian|halal|kosher|gluten|lactose|dairy-free|keto)\b"
                     r"|素食|吃素|不吃|忌口|清真|乳糖", re.IGNORECASE)),
    (0.7, re.compile(r"\b(?:wife|husband|daughter|son|mother|father|mom|dad|partner|boyfriend|girlfriend|birthday|"
                     r"works? (?:at|for|as)|job|live[sd]? in|moved to)\b"
                     r"|妻子|老婆|丈夫|老公|女儿|儿子|妈妈|爸爸|母亲|父亲|生日|工作|上班|住在|搬到", re.IGNORECASE)),
)

BY_KIND: dict[str, float] = {"fact": 0.5, "preference": 0.5, "event": 0.5, "episode": 0.4}
DEFAULT = 0.5


def importance_infer(*, kind: str, memory_key: str | None, content: str,
                     by_key_family: dict[str, float] | None = None) -> float:
    """The importance of a memory whose writer named none."""
    table = by_key_family if by_key_family is not None else IMPORTANCE_BY_KEY_FAMILY
    if memory_key:
        family = ".".join(memory_key.split(".")[:2])
        if memory_key in table:
            return table[memory_key]
        if family in table:
            return table[family]
    for importance, cue in _CONTENT_CUES:
        if cue.search(content or ""):
            return importance
    return BY_KIND.get(kind, DEFAULT)
