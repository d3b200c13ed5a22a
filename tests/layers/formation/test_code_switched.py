"""Code-switched and loosely typed Chinese (layers/formation/extractor/text.py `CodeSwitched`): the Chinese rules
read 我在 Google 做 PM as 我在Google做PM, a space between Chinese words as a pause, and give values back as written."""
from __future__ import annotations

import pytest

from layers.formation.extractor import TranscriptTurn, extract_memories
from layers.formation.extractor.text import CodeSwitched


def _facts(text: str) -> set[tuple]:
    result = extract_memories([TranscriptTurn(1, "user", text)], user_id="u1")
    return {(i.memory_key, i.value) for i in result.items if i.memory_key}


@pytest.mark.parametrize(("text", "want"), [
    ("我在 Google 做 PM", {("user.employer", "Google"), ("user.occupation", "PM")}),
    ("我 based in 上海，但 hometown 是哈尔滨", {("user.home_city", "上海"), ("user.hometown", "哈尔滨")}),
    ("我入职 Airbnb 了", {("user.employer", "Airbnb")}),
    ("被 layoff 了，之前在 Meta 做 recruiter", {("user.former_employer", "Meta")}),
    ("我在协和当麻醉医生 夜班多 回消息会慢点哈", {("user.employer", "协和"), ("user.occupation", "麻醉医生")}),
])
def test_code_switched_and_spaced_chinese_is_read(text, want):
    assert want <= _facts(text)


def test_values_come_back_in_the_users_words():
    items = extract_memories([TranscriptTurn(1, "user", "下个月 relocate 到 Tokyo，公司 sponsor 的")]).items
    plan = next(i for i in items if i.memory_key == "user.plan")
    assert plan.value == "relocate 到 Tokyo" and plan.attributes["destination"] == "Tokyo"
    switched = CodeSwitched("我下个月 move 到深圳")
    assert switched.text == "我下个月搬到深圳" and switched.original("搬到深圳") == "move 到深圳"


def test_a_blanked_quotation_stays_apart():
    """Three or more spaces are a quotation text.blank_quotes emptied, not a pause or a code-switch gap."""
    assert CodeSwitched("那句      我现在").text == "那句      我现在"
    assert _facts("电视剧里那句“我命由我不由天”我现在天天挂嘴边") == set()


@pytest.mark.parametrize(("text", "key", "value"), [
    ("周末去 gym", "user.habits", "gym"),
    ("每天早上空腹吃优甲乐50微克", "user.medications", "优甲乐"),
    ("十点以后的消息我一概不回", "user.contact_preference", "十点以后"),
])
def test_ordinary_phrasings(text, key, value):
    assert (key, value) in _facts(text)


@pytest.mark.parametrize("text", ["周末要陪我妈去医院", "周末别找我，我要陪孩子", "我朋友周末去 gym"])
def test_this_weekend_and_other_people_are_no_habit(text):
    assert not any(key == "user.habits" for key, _ in _facts(text))


@pytest.mark.parametrize(("text", "want"), [
    ("我下个月 join Airbnb 了，做 data scientist", {("user.employer", "Airbnb"), ("user.occupation", "data scientist")}),
    ("我在 Amazon 上班，做 SDE", {("user.employer", "Amazon"), ("user.occupation", "SDE")}),
    ("我 quit 了字节", {("user.former_employer", "字节")}),
    ("有事 WeChat 我", {("user.contact_preference", "WeChat")}),
    ("urgent 的事直接 call 我，其他的 Slack 就好", {("user.contact_preference", "call"), ("user.contact_preference", "Slack")}),
    ("我的 birthday 是 3月5号", {("user.birthday", "3月5号")}),
])
def test_english_words_in_a_chinese_frame(text, want):
    assert want <= _facts(text)


def test_a_person_described_in_english_keeps_the_attribute():
    items = extract_memories([TranscriptTurn(1, "user", "我 husband 叫 Kevin，他是 pilot，经常不在家")]).items
    husband = next(i for i in items if i.memory_key == "user.relationship.husband")
    assert husband.value == "Kevin" and husband.attributes.get("occupation") == "pilot"


def test_a_bare_name_said_after_a_pet_is_the_pets_not_the_users():
    facts = _facts("去年领养了一只橘猫，名字叫 Lucky，超级 clingy")
    assert ("user.pet.cat", "Lucky") in facts
    assert not any(key == "user.name" for key, _ in facts)


@pytest.mark.parametrize(("text", "want"), [
    ("我在 Microsoft 苏州做 QA", {("user.employer", "Microsoft"), ("user.occupation", "QA")}),
    ("背景一下：我 28，在 Deloitte 上海做 audit", {("user.age", "28"), ("user.employer", "Deloitte"), ("user.occupation", "audit")}),
])
def test_a_latin_employer_followed_by_its_offices_city(text, want):
    facts = _facts(text)
    assert want <= facts
    # the city is no part of the employer's name
    assert {v for k, v in facts if k == "user.employer"} == {v for k, v in want if k == "user.employer"}


def test_a_latin_place_before_a_study_verb_is_the_plans_destination():
    result = extract_memories([TranscriptTurn(1, "user", "明年秋天去 Edinburgh 读 MBA")], user_id="u1")
    plans = [i for i in result.items if i.memory_key == "user.plan"]
    assert plans and plans[0].attributes.get("destination") == "Edinburgh"
