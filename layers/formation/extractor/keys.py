"""The memory keys extraction may write, with their kind, importance and sentence templates.

Extraction writes only under `user.` (the session's own user). Whether a key is single-valued
(a new value supersedes) is long-term policy configuration, not decided here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ALLOWED_KEY = re.compile(r"^user\.[a-z0-9_]+(?:\.[a-z0-9_]+)*$")
# Prefixes no extractor may ever touch, whatever it is told.
FORBIDDEN_PREFIXES = ("permanent", "system", "policy", "global", "tenant", "admin", "persona", "safety", "tool")


@dataclass(frozen=True)
class KeySpec:
    kind: str
    importance: float
    en: str  # content template, {v} = value, {role} = relation
    zh: str


KEYS: dict[str, KeySpec] = {
    "user.name": KeySpec("fact", 0.8, "User's name is {v}.", "用户的名字是{v}。"),
    "user.home_city": KeySpec("fact", 0.75, "User lives in {v}.", "用户住在{v}。"),
    "user.work_city": KeySpec("fact", 0.7, "User works in {v}.", "用户在{v}工作。"),
    "user.hometown": KeySpec("fact", 0.6, "User is from {v}.", "用户来自{v}。"),
    "user.employer": KeySpec("fact", 0.7, "User works at {v}.", "用户在{v}工作。"),
    "user.occupation": KeySpec("fact", 0.7, "User works as {v}.", "用户的职业是{v}。"),
    "user.likes": KeySpec("preference", 0.5, "User likes {v}.", "用户喜欢{v}。"),
    "user.dislikes": KeySpec("preference", 0.5, "User dislikes {v}.", "用户不喜欢{v}。"),
    "user.diet": KeySpec("preference", 0.8, "User's diet: {v}.", "用户的饮食习惯：{v}。"),
    "user.allergies": KeySpec("fact", 0.95, "User is allergic to {v}.", "用户对{v}过敏。"),
    "user.health_conditions": KeySpec("fact", 0.9, "User has {v}.", "用户患有{v}。"),
    "user.plan": KeySpec("event", 0.5, "User plans: {v}.", "用户的计划：{v}。"),
    "user.relationship": KeySpec("fact", 0.7, "User's {role} is {v}.", "用户的{role}叫{v}。"),
    "user.pet": KeySpec("fact", 0.6, "User's {role} is called {v}.", "用户的{role}叫{v}。"),
}
# Free-form notes the user explicitly asked to remember ("remember that …") have no key; the
# content says whose words they are, since "my" inside them means the user, not the reader.
NOTE = KeySpec("fact", 0.6, "User asked to remember: {v}", "用户让记住：{v}")

ROLE_ZH = {
    "wife": "妻子", "husband": "丈夫", "son": "儿子", "daughter": "女儿", "mother": "母亲", "father": "父亲",
    "brother": "兄弟", "sister": "姐妹", "older_brother": "哥哥", "younger_brother": "弟弟",
    "older_sister": "姐姐", "younger_sister": "妹妹", "girlfriend": "女朋友", "boyfriend": "男朋友",
    "partner": "伴侣", "child": "孩子", "boss": "老板", "dog": "狗", "cat": "猫", "grandmother": "奶奶",
    "grandfather": "爷爷", "baby": "宝宝", "fiance": "未婚夫", "fiancee": "未婚妻",
}


def spec_for(memory_key: str | None) -> KeySpec:
    if memory_key is None:
        return NOTE
    if memory_key in KEYS:
        return KEYS[memory_key]
    family = ".".join(memory_key.split(".")[:2])
    return KEYS.get(family, NOTE)


def key_allowed(memory_key: str | None) -> bool:
    """Extraction may write no key (a note) or a well-formed key under `user.`; never a permanent,
    system or policy key, however it is spelled."""
    if memory_key is None:
        return True
    lowered = memory_key.strip().lower()
    if any(lowered.startswith(prefix) for prefix in FORBIDDEN_PREFIXES):
        return False
    return bool(ALLOWED_KEY.match(memory_key))


def render_content(memory_key: str | None, value: str, *, lang: str) -> str:
    spec = spec_for(memory_key)
    role = memory_key.rsplit(".", 1)[-1] if memory_key and memory_key.count(".") >= 2 else ""
    if lang == "zh":
        return spec.zh.format(v=value, role=ROLE_ZH.get(role, role))
    return spec.en.format(v=value, role=role.replace("_", " "))
