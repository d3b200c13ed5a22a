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
    "user.age": KeySpec("fact", 0.6, "User is {v} years old.", "用户{v}岁。"),
    "user.birthday": KeySpec("fact", 0.7, "User's birthday is {v}.", "用户的生日是{v}。"),
    "user.anniversary": KeySpec("fact", 0.6, "User's anniversary is {v}.", "用户的纪念日是{v}。"),
    "user.home_city": KeySpec("fact", 0.75, "User lives in {v}.", "用户住在{v}。"),
    "user.work_city": KeySpec("fact", 0.7, "User works in {v}.", "用户在{v}工作。"),
    "user.hometown": KeySpec("fact", 0.6, "User is from {v}.", "用户来自{v}。"),
    "user.employer": KeySpec("fact", 0.7, "User works at {v}.", "用户在{v}工作。"),
    "user.former_employer": KeySpec("fact", 0.5, "User used to work at {v}.", "用户以前在{v}工作。"),
    "user.occupation": KeySpec("fact", 0.7, "User works as {v}.", "用户的职业是{v}。"),
    "user.education": KeySpec("fact", 0.6, "User's education: {v}.", "用户的教育经历：{v}。"),
    "user.languages": KeySpec("fact", 0.6, "User speaks {v}.", "用户会说{v}。"),
    "user.likes": KeySpec("preference", 0.5, "User likes {v}.", "用户喜欢{v}。"),
    "user.dislikes": KeySpec("preference", 0.5, "User dislikes {v}.", "用户不喜欢{v}。"),
    "user.diet": KeySpec("preference", 0.8, "User's diet: {v}.", "用户的饮食习惯：{v}。"),
    "user.food_restrictions": KeySpec("preference", 0.8, "User doesn't eat {v}.", "用户不吃{v}。"),
    "user.allergies": KeySpec("fact", 0.95, "User is allergic to {v}.", "用户对{v}过敏。"),
    "user.health_conditions": KeySpec("fact", 0.9, "User has {v}.", "用户患有{v}。"),
    "user.medications": KeySpec("fact", 0.9, "User takes {v}.", "用户在服用{v}。"),
    "user.habits": KeySpec("preference", 0.5, "User's habit: {v}.", "用户的习惯：{v}。"),
    "user.contact_preference": KeySpec("preference", 0.6, "User's contact preference: {v}.", "用户的联系偏好：{v}。"),
    "user.plan": KeySpec("event", 0.5, "User plans: {v}.", "用户的计划：{v}。"),
    "user.relationship": KeySpec("fact", 0.7, "User's {role} is {v}.", "用户的{role}叫{v}。"),
    "user.pet": KeySpec("fact", 0.6, "User's {role} is called {v}.", "用户的{role}叫{v}。"),
}
# An unnamed person or pet ("my dad", "两只仓鼠") is still worth keeping.
UNNAMED = {"user.relationship": ("User has a {role}.", "用户有{role}。"),
           "user.pet": ("User has a {role}.", "用户养了{role}。")}
# How each attribute reads inside the content, so search finds "Emma 7" and "朵朵 7岁".
_ATTR_EN = {"age": "age {}", "birthday": "birthday {}", "occupation": "works as {}", "likes": "likes {}",
            "school": "at {}", "breed": "{}", "degree": "{}", "field": "{}", "status": "{}", "level": "{}",
            "time": "{}", "weekdays": "{}", "frequency": "{}", "date": "{}", "destination": "{}", "dose": "{}",
            "schedule": "{}", "type": "{}"}
_ATTR_ZH = {"age": "{}岁", "birthday": "生日{}", "occupation": "职业{}", "likes": "喜欢{}", "school": "在{}",
            "breed": "{}", "degree": "{}", "field": "{}", "status": {"studying": "在读", "graduated": "已毕业"},
            "level": {"native": "母语", "fluent": "流利", "learning": "在学", "basic": "入门"},
            "time": "{}", "weekdays": "{}", "frequency": "{}", "date": "{}", "destination": "{}", "dose": "{}",
            "schedule": "{}", "type": "{}"}
_WEEKDAY_ZH = {"mon": "周一", "tue": "周二", "wed": "周三", "thu": "周四", "fri": "周五", "sat": "周六", "sun": "周日"}

# Free-form notes the user explicitly asked to remember ("remember that …") have no key; the
# content says whose words they are, since "my" inside them means the user, not the reader.
NOTE = KeySpec("fact", 0.6, "User asked to remember: {v}", "用户让记住：{v}")

ROLE_ZH = {
    "wife": "妻子", "husband": "丈夫", "son": "儿子", "daughter": "女儿", "mother": "母亲", "father": "父亲",
    "brother": "兄弟", "sister": "姐妹", "older_brother": "哥哥", "younger_brother": "弟弟",
    "older_sister": "姐姐", "younger_sister": "妹妹", "girlfriend": "女朋友", "boyfriend": "男朋友",
    "partner": "伴侣", "child": "孩子", "boss": "老板", "dog": "狗", "cat": "猫", "grandmother": "奶奶",
    "grandfather": "爷爷", "baby": "宝宝", "fiance": "未婚夫", "fiancee": "未婚妻", "best_friend": "闺蜜/好友",
    "colleague": "同事", "roommate": "室友", "rabbit": "兔子", "parrot": "鹦鹉", "bird": "鸟", "hamster": "仓鼠",
    "fish": "鱼", "turtle": "乌龟", "gecko": "守宫", "chinchilla": "龙猫", "guinea_pig": "豚鼠",
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


def _attribute_text(attributes: dict, *, lang: str) -> str:
    parts = []
    table = _ATTR_ZH if lang == "zh" else _ATTR_EN
    for name, template in table.items():
        value = attributes.get(name)
        if value in (None, "", [], True, False):
            continue
        if name == "weekdays" and isinstance(value, (list, tuple)):
            value = "、".join(_WEEKDAY_ZH.get(d, d) for d in value) if lang == "zh" else ", ".join(value)
        if isinstance(template, dict):
            parts.append(template.get(str(value), str(value)))
        else:
            parts.append(template.format(value))
    return ("，" if lang == "zh" else ", ").join(dict.fromkeys(parts))


def render_content(memory_key: str | None, value: str, *, lang: str, attributes: dict | None = None) -> str:
    """"User's daughter is Emma (age 7)." / "用户的女儿叫朵朵（7岁）。": the attributes said travel
    in the content too, so a search for the age or the date finds the memory."""
    spec = spec_for(memory_key)
    role = memory_key.rsplit(".", 1)[-1] if memory_key and memory_key.count(".") >= 2 else ""
    family = ".".join(memory_key.split(".")[:2]) if memory_key else ""
    en, zh = spec.en, spec.zh
    if not value and family in UNNAMED:
        en, zh = UNNAMED[family]
    if lang == "zh":
        text = zh.format(v=value, role=ROLE_ZH.get(role, role.replace("_", " ")))
    else:
        text = en.format(v=value, role=role.replace("_", " "))
    extra = _attribute_text({k: v for k, v in (attributes or {}).items() if k not in ("lang", "correction", "inferred", "category", "note", "origin")}, lang=lang)
    if not extra:
        return text
    if lang == "zh":
        return f"{text[:-1]}（{extra}）。" if text.endswith("。") else f"{text}（{extra}）"
    return f"{text[:-1]} ({extra})." if text.endswith(".") else f"{text} ({extra})"
