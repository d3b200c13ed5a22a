"""The learned recall back-up of the offline extractor (layers/formation/extractor/learned.py).

The committed model was trained on the dev part of the fact corpus only; the phrasings below are in
neither part. The back-up adds what the rules missed and nothing where the rules' own checks (someone
else, a conditional, a past state, a question) say nothing is the user's.
"""
from __future__ import annotations

import json

import pytest

from layers.formation.extractor import extract_memories, learned
from layers.formation.extractor.learned_train import (
    MIN_BACKUP_ITEMS, choose_keys, dev_files, read_cases, train, write_backup_keys,
)
from layers.formation.policy import FormationPolicy


def _items(text: str, *, backup: bool):
    return extract_memories([{"seq": 1, "role": "user", "content": text}], user_id="u1", learned_backup=backup).items


def _writing(*keys: str):
    """The committed tagger, writing `keys` whatever the committed choice is: the tests below are about the
    mechanism, not about which keys cross-validation chose this time."""
    return learned.using_tagger(learned._load_tagger(), keys)


def test_the_model_is_committed_and_loads():
    assert learned.model_available()
    assert learned.tag("I'm on metoprolol these days")  # loads lazily, once


def test_it_finds_a_hometown_the_rules_miss_in_an_unseen_phrasing():
    text = "本人重庆妹子"
    assert not [i for i in _items(text, backup=False) if i.memory_key == "user.hometown"]
    with _writing("user.hometown"):
        found = [i for i in _items(text, backup=True) if i.memory_key == "user.hometown"]
    assert [i.value for i in found] == ["重庆"]
    item = found[0]
    # The same key, template and importance as a rule's item; marked as the back-up's, at a lower confidence.
    assert item.content == "用户来自重庆。"
    assert item.attributes["learned"] is True and item.attributes["lang"] == "zh"
    assert 0 < item.confidence <= 0.6 and item.kind == "fact" and item.importance == 0.6


def test_families_whose_attributes_the_span_lacks_are_left_to_the_rules():
    # The tagger reads the drug, but a medication is its dose and schedule too: no half fact is written.
    text = "fwiw I'm on metoprolol these days"
    assert [s.key for s in learned.tag(text)] == ["user.medications"]
    assert "user.medications" not in learned.backup_keys()
    assert _items(text, backup=True) == _items(text, backup=False)


@pytest.mark.parametrize("text", [
    "my friend is vegetarian",
    "my buddy Raj takes metformin every morning",
    "if I ever get a dog I'll call him Rex",
    "I used to smoke but quit",
    "I used to be on metoprolol",
    "do you think I should learn Spanish?",
    "is metoprolol ok with grapefruit?",
    "我朋友对花生过敏",
    "如果我搬到上海，房租会不会很贵",
    "你会说日语吗？",
])
def test_it_does_not_fire_on_other_people_hypotheticals_past_states_or_questions(text):
    assert _items(text, backup=True) == _items(text, backup=False)
    assert not [i for i in _items(text, backup=True) if i.attributes.get("learned")]


def test_span_filter_reads_subject_and_negation():
    span = learned.Span("user.medications", "metoprolol", 23, 33, 0.9)
    assert learned.span_is_users("fwiw I'm on a dose of metoprolol", learned.Span("user.medications", "metoprolol", 22, 32, 0.9))
    assert not learned.span_is_users("my dad is on a dose of metoprolol", span)
    assert not learned.span_is_users("I'm not on any metoprolol", learned.Span("user.medications", "metoprolol", 15, 25, 0.9))
    # A family said as a negation keeps its span ("I don't eat pork").
    assert learned.span_is_users("I don't eat pork", learned.Span("user.food_restrictions", "pork", 12, 16, 0.9))
    assert not learned.span_is_users("我同事在吃二甲双胍", learned.Span("user.medications", "二甲双胍", 5, 9, 0.9))
    assert learned.span_is_users("最近在吃二甲双胍", learned.Span("user.medications", "二甲双胍", 4, 8, 0.9))


def test_the_setting_is_declared_and_governs_the_default():
    default = FormationPolicy.__dataclass_fields__["learned_backup"].default
    assert isinstance(default, bool)
    text = "本人重庆妹子"
    with _writing("user.hometown"):
        on = [i for i in extract_memories([{"seq": 1, "role": "user", "content": text}]).items if i.attributes.get("learned")]
        assert bool(on) is default
        with learned.backup_forced(not default):
            flipped = [i for i in extract_memories([{"seq": 1, "role": "user", "content": text}]).items if i.attributes.get("learned")]
    assert bool(flipped) is (not default)


# ---- which keys the back-up writes -------------------------------------------------------------

def test_a_key_not_chosen_is_never_written():
    text = "本人重庆妹子"
    assert [s.key for s in learned.tag(text)] == ["user.hometown"]  # the tagger reads it either way
    with _writing("user.hometown"):
        assert [i.value for i in _items(text, backup=True) if i.attributes.get("learned")] == ["重庆"]
    with _writing("user.home_city", "user.allergies"):
        assert not [i for i in _items(text, backup=True) if i.attributes.get("learned")]
    # No override can let in a key whose span is half a fact (a medication without its dose and schedule).
    with _writing("user.medications"):
        assert "user.medications" not in learned.backup_keys()
        assert _items("fwiw I'm on metoprolol these days", backup=True) == _items("fwiw I'm on metoprolol these days", backup=False)


def test_the_committed_keys_are_the_files_and_were_chosen_by_the_rule():
    payload = json.loads(learned.KEYS_PATH.read_text(encoding="utf-8"))
    assert set(learned.backup_keys()) == set(payload["keys"]) <= learned.ELIGIBLE_KEYS
    evidence = payload["evidence"]
    assert set(evidence) == learned.ELIGIBLE_KEYS
    counts = {key: [e["right"], e["wrong"]] for key, e in evidence.items()}
    assert choose_keys(counts, {key: e["rules_precision"] for key, e in evidence.items()}) == payload["keys"]


def test_the_rule_wants_enough_items_at_least_as_precise_as_the_rules():
    precision = {"user.allergies": 0.95, "user.hometown": 0.9, "user.diet": 0.99}
    counts = {"user.allergies": [1, 4],            # wrong more often than right
              "user.hometown": [9, 1],             # 0.9 >= 0.9
              "user.diet": [MIN_BACKUP_ITEMS - 1, 0],  # never wrong, but too few to tell
              "user.name": [MIN_BACKUP_ITEMS, 0],      # the rules wrote none: the back-up must be perfect
              "user.medications": [50, 0]}         # not eligible, however good
    assert choose_keys(counts, precision) == ["user.hometown", "user.name"]
    counts["user.name"] = [MIN_BACKUP_ITEMS, 1]
    assert choose_keys(counts, precision) == ["user.hometown"]


def test_the_keys_file_is_deterministic(tmp_path):
    evidence = {key: {"right": 1, "wrong": 0, "rules_precision": 1.0} for key in sorted(learned.ELIGIBLE_KEYS, reverse=True)}
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    write_backup_keys(["user.name", "user.hometown"], evidence, first)
    write_backup_keys(["user.hometown", "user.name"], dict(reversed(list(evidence.items()))), second)
    assert first.read_bytes() == second.read_bytes()
    assert json.loads(first.read_text(encoding="utf-8"))["keys"] == ["user.hometown", "user.name"]


# ---- what a value can be, and whose ------------------------------------------------------------

def _span(clause: str, value: str, key: str) -> learned.Span:
    start = clause.index(value)
    return learned.Span(key, value, start, start + len(value), 0.9)


@pytest.mark.parametrize("clause, value, key", [
    # a role or a relation is who the sentence is about, in either language, whatever the key
    ("我和男朋友阿杰是七夕那天在一起的，我对花粉过敏", "男朋友", "user.allergies"),
    ("I'm allergic to my boyfriend's cat, lol", "boyfriend", "user.allergies"),
    ("我同事过敏，我不吃海鲜", "同事", "user.food_restrictions"),
    ("I moved here with my sisters", "sisters", "user.home_city"),
    # a pronoun
    ("我对他过敏", "他", "user.allergies"),
    ("I really can't stand them", "them", "user.dislikes"),
    # a time word
    ("我下个月开始不吃肉", "下个月", "user.food_restrictions"),
    # a key whose family the clause never speaks of
    ("penicillin put me in hospital once, full-on reaction", "hospital once", "user.contact_preference"),
    ("I avoid caffeine after lunch, otherwise I don't sleep", "after lunch", "user.contact_preference"),
    ("我和男朋友是七夕那天在一起的", "七夕", "user.allergies"),
    # an age counts years, a birthday names a day of the calendar, a Chinese home is a place
    ("I'm 20 weeks pregnant!", "20", "user.age"),
    ("我儿子才3个月大，我26", "3", "user.age"),
    ("下周六是我生日", "下周六", "user.birthday"),
    ("纪念日快到了，在12月25号", "12月25号", "user.birthday"),
    ("我小时候在农村长大", "农村", "user.hometown"),
])
def test_a_span_of_the_wrong_type_is_no_value(clause, value, key):
    span = _span(clause, value, key)
    assert not learned.value_is_plausible(span, clause)
    assert not learned.span_is_users(clause, span)


@pytest.mark.parametrize("clause, value, key", [
    ("我对花粉过敏", "花粉", "user.allergies"),
    ("I'm allergic to bees", "bees", "user.allergies"),
    ("有事 email 我，群消息太多", "email", "user.contact_preference"),
    ("please text me rather than call", "text", "user.contact_preference"),
    ("我是学生，在读研", "学生", "user.occupation"),  # a word of work is an occupation's value, not a person
    ("turning 30 next week, ugh", "30", "user.age"),
    ("我生日是五月三号", "五月三号", "user.birthday"),
    ("my birthday's on March 3rd", "March 3rd", "user.birthday"),
    ("土生土长的重庆人", "重庆", "user.hometown"),
])
def test_a_span_of_its_keys_type_stays(clause, value, key):
    assert learned.value_is_plausible(_span(clause, value, key), clause)


@pytest.mark.parametrize("clause, value, key", [
    ("隔壁工位的小王对猫毛过敏，一到春天就狂打喷嚏", "猫毛", "user.allergies"),
    ("楼下的老李对海鲜过敏", "海鲜", "user.allergies"),
    ("我表妹张伟对花生过敏", "花生", "user.allergies"),
    ("a guy in my yoga class is allergic to bees", "bees", "user.allergies"),
    ("ugh my coworker is allergic to literally everything, even latex", "latex", "user.allergies"),
    ("I told you, her son is allergic to peanuts", "peanuts", "user.allergies"),
    ("me? my roommate's the vegan one", "vegan", "user.diet"),
])
def test_someone_else_before_the_span_makes_it_theirs(clause, value, key):
    assert not learned.span_is_users(clause, _span(clause, value, key))


def test_the_user_before_the_span_keeps_it():
    assert learned.span_is_users("我对猫毛过敏，一到春天就狂打喷嚏", _span("我对猫毛过敏，一到春天就狂打喷嚏", "猫毛", "user.allergies"))
    assert learned.span_is_users("in my case I'm allergic to bees", _span("in my case I'm allergic to bees", "bees", "user.allergies"))


def test_training_is_deterministic(tmp_path):
    cases = [case for path in dev_files()[:2] for case in read_cases(path)][:160]
    first, second = tmp_path / "a.crfsuite", tmp_path / "b.crfsuite"
    spans = train(cases, first)
    assert spans > 50 and train(cases, second) == spans
    assert first.read_bytes() == second.read_bytes()


def test_training_data_is_the_dev_part_only():
    assert dev_files() and all(path.name.startswith("facts_dev") for path in dev_files())


@pytest.mark.django_db
def test_a_tenants_approved_override_reaches_the_extraction_service(talk, tenant, make_staff):
    with _writing("user.hometown"):
        _override_reaches_the_service(talk, tenant, make_staff)


def _override_reaches_the_service(talk, tenant, make_staff):
    from layers.formation.services import session_extract
    from layers.long_term.models import Memory
    from permanent.services import change_request_approve, change_request_propose

    def hometowns(user_id: str, text: str) -> list[str]:
        session = talk(f"s-{user_id}", user_id, [("user", text)], end=True)
        session_extract(session_pk=session.pk)
        return list(Memory.objects.filter(user_id=user_id, memory_key="user.hometown").values_list("content", flat=True))

    default = FormationPolicy.__dataclass_fields__["learned_backup"].default
    assert bool(hometowns("gia", "本人重庆妹子")) is default
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.formation.learned_backup", action="create",
                                     value=not default, proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    assert bool(hometowns("hal", "本人重庆妹子")) is (not default)
