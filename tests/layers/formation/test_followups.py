"""Follow-ups across turns (layers/formation/extractor/followups.py), context turns, and one fact read twice
in a code-switched clause (offline._contained_once)."""
from __future__ import annotations

import pytest

from layers.formation.extractor import TranscriptTurn, extract_memories
from layers.formation.services import session_extract
from layers.formation.spans import SPAN_EXTRACTOR
from layers.long_term.models import Memory


def _facts(*texts: str, context: int = 0) -> list[tuple]:
    """The keyed items of the last turn, the first `context` turns passed as context."""
    turns = [TranscriptTurn(i + 1, "user", text, context=i < context) for i, text in enumerate(texts)]
    result = extract_memories(turns, user_id="u1")
    return [(i.source_turn_seq, i.memory_key, i.value, {k: v for k, v in i.attributes.items() if k != "lang"})
            for i in result.items if i.memory_key]


@pytest.mark.parametrize(("earlier", "later", "want"), [
    ("我有两个孩子", "大的叫毛毛，今年六岁", ("user.relationship.child", "毛毛", {"age": 6})),
    ("我家有两个娃", "老二叫豆豆", ("user.relationship.child", "豆豆", {})),
    ("我有个弟弟", "他叫小明，今年十岁", ("user.relationship.younger_brother", "小明", {"age": 10})),
    ("我家养了只猫", "它叫咪咪", ("user.pet.cat", "咪咪", {})),
    ("我女儿叫朵朵", "她今年五岁了", ("user.relationship.daughter", "朵朵", {"age": 5})),
    ("I have two kids", "the older one is Sam", ("user.relationship.child", "Sam", {})),
    ("I have a dog", "his name is Rex, he's 4", ("user.pet.dog", "Rex", {"age": 4})),
    ("I've got one sister", "she's a dentist out in Perth", ("user.relationship.sister", "", {"occupation": "dentist"})),
])
def test_a_follow_up_is_about_the_earlier_turns_person_or_pet(earlier, later, want):
    facts = _facts(earlier, later, context=1)
    assert [fact[1:] for fact in facts] == [want]
    assert facts[0][0] == 2  # the later turn said it


@pytest.mark.parametrize(("earlier", "later"), [
    ("我有个儿子", "她叫小美"),            # a son is no 她
    ("我朋友有只狗", "它叫旺财"),           # the friend's dog is nobody the user introduced
    ("我有两个孩子", "大的今年八岁"),        # several unnamed children: which one is eight stays unknown
    ("I have a son", "she's called Mia"),
    ("my neighbour has a cat", "its name is Tom"),
])
def test_a_follow_up_that_points_at_nobody_the_user_introduced_says_nothing(earlier, later):
    assert _facts(earlier, later, context=1) == []


def test_the_referents_own_age_and_school_are_not_the_users():
    facts = _facts("我有两个孩子", "大的叫毛毛，今年上初一了", context=1)
    assert [(key, value) for _, key, value, _ in facts] == [("user.relationship.child", "毛毛")]
    assert not any(key == "user.age" for _, key, _, _ in _facts("我有个女儿", "她今年七岁", context=1))


def test_context_turns_emit_nothing_and_count_no_drops():
    turns = [TranscriptTurn(1, "user", "我对花生过敏，我的密码是 hunter2hunter2", context=True),
             TranscriptTurn(2, "user", "我住在杭州")]
    result = extract_memories(turns, user_id="u1")
    assert [(i.source_turn_seq, i.memory_key, i.value) for i in result.items] == [(2, "user.home_city", "杭州")]
    assert not result.dropped


def test_one_habit_read_by_both_rule_sets_is_kept_once():
    """"周末 usually 去 gym": the Chinese rules read 周末去gym, the English ones gym; one habit, with its weekdays."""
    turns = [TranscriptTurn(1, "user", "周末 usually 去 gym，平时下班太晚真没空")]
    habits = [i for i in extract_memories(turns).items if i.memory_key == "user.habits"]
    assert len(habits) == 1 and "gym" in habits[0].value and habits[0].attributes.get("weekdays") == ["sat", "sun"]


@pytest.mark.django_db
def test_a_later_run_reads_the_earlier_runs_turns_as_context(talk):
    small_talk = [("user", "你好"), ("assistant", "你好！有什么可以帮你？")] * 3
    session = talk("ctx", "alice", small_talk + [("user", "我有两个孩子"), ("assistant", "真好！"), ("user", "嗯"), ("assistant", "还有呢？")])
    assert session_extract(session_pk=session.pk).status == "completed"  # ten turns: the first run
    session = talk("ctx", "alice", [("user", "大的叫毛毛，今年六岁")], end=True)
    assert session_extract(session_pk=session.pk).status == "completed"
    extracted = Memory.objects.exclude(extractor=SPAN_EXTRACTOR).filter(user_id="alice", status="active")
    named = extracted.get(memory_key="user.relationship.child", attributes__age=6)
    assert named.source_turn_from == 11 and "毛毛" in named.content
    # The earlier turn was the first run's: read again as context, written once.
    assert extracted.filter(memory_key="user.relationship.child", source_turn_from=7).count() == 1
    assert not extracted.filter(memory_key="user.age").exists()

