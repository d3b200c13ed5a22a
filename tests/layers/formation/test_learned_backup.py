"""The learned recall back-up of the offline extractor (layers/formation/extractor/learned.py).

The committed model was trained on the dev part of the fact corpus only; the phrasings below are in
neither part. The back-up adds what the rules missed and nothing where the rules' own checks (someone
else, a conditional, a past state, a question) say nothing is the user's.
"""
from __future__ import annotations

import pytest

from layers.formation.extractor import extract_memories, learned
from layers.formation.extractor.learned_train import dev_files, read_cases, train
from layers.formation.policy import FormationPolicy


def _items(text: str, *, backup: bool):
    return extract_memories([{"seq": 1, "role": "user", "content": text}], user_id="u1", learned_backup=backup).items


def test_the_model_is_committed_and_loads():
    assert learned.model_available()
    assert learned.tag("I'm on metoprolol these days")  # loads lazily, once


def test_it_finds_a_hometown_the_rules_miss_in_an_unseen_phrasing():
    text = "本人重庆妹子"
    assert not [i for i in _items(text, backup=False) if i.memory_key == "user.hometown"]
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
    assert "user.medications" not in learned.BACKUP_KEYS
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
    on = [i for i in extract_memories([{"seq": 1, "role": "user", "content": text}]).items if i.attributes.get("learned")]
    assert bool(on) is default
    with learned.backup_forced(not default):
        flipped = [i for i in extract_memories([{"seq": 1, "role": "user", "content": text}]).items if i.attributes.get("learned")]
    assert bool(flipped) is (not default)


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
