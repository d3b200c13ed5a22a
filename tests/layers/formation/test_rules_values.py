"""What a value never is (text.is_no_value): the rest of the predicate read after a rule's cue, decided once
for the rules of both languages, through the extractor itself."""
from __future__ import annotations

import pytest

from layers.formation.extractor import extract_memories
from layers.formation.extractor.text import is_no_value


def _facts(text: str) -> set[tuple[str, str]]:
    result = extract_memories([{"seq": 1, "role": "user", "content": text}], user_id="u1")
    return {(i.memory_key, i.value) for i in result.items if i.memory_key and not i.quarantine}


@pytest.mark.parametrize("key, value", [
    ("user.dislikes", "死"), ("user.dislikes", "去"), ("user.food_restrictions", "一天"), ("user.food_restrictions", "两个月"),
    ("user.food_restrictions", "浑身难受"), ("user.food_restrictions", "睡不着"), ("user.food_restrictions", "周末不去"),
    ("user.allergies", "木有啥"), ("user.medications", "三毫克"), ("user.medications", "75 mcg"), ("user.likes", "seriously"),
    ("user.likes", "unreasonably"), ("user.food_restrictions", "driving"), ("user.food_restrictions", "flying whenever i can"),
    ("user.habits", "up to the cabin"), ("user.habits", "in back-to-back meetings"),
])
def test_the_rest_of_a_predicate_is_no_value(key, value):
    assert is_no_value(key, value)


@pytest.mark.parametrize("key, value", [
    ("user.dislikes", "冷"), ("user.food_restrictions", "香菜"), ("user.food_restrictions", "pudding"),
    ("user.food_restrictions", "anything with eggs"), ("user.likes", "hiking"), ("user.habits", "yoga"),
    ("user.habits", "work out at the gym"), ("user.medications", "胰岛素"), ("user.employer", "一天"),
])
def test_things_stay_values(key, value):
    assert not is_no_value(key, value)


def test_a_complement_leaves_the_thing_it_follows():
    assert _facts("我最讨厌排队了，烦死") == {("user.dislikes", "排队")}
    assert ("user.food_restrictions", "三天") not in _facts("我超爱吃榴莲，三天不吃就馋")
    assert _facts("I really love hiking, like seriously") == {("user.likes", "hiking")}
    assert not any(key == "user.food_restrictions" for key, _ in _facts("I gave up drinking in January"))


def test_an_age_read_as_a_name_is_the_age():
    result = extract_memories([{"seq": 1, "role": "user", "content": "狗狗拉肚子了肿么办，我家金毛才两岁"}], user_id="u1")
    dogs = [i for i in result.items if i.memory_key == "user.pet.dog"]
    assert [(d.value, d.attributes.get("age"), d.attributes.get("breed")) for d in dogs] == [("", 2, "金毛")]
