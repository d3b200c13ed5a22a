"""Conditional preferences about topics the lexicon does not name, read by their frame
(layers/long_term/conditions/frames.py through the parser). Probes written while working (dev only), none from
the blind corpus: a general clause and an exception make two variants whatever the topic; an instruction with
one "when", a habit, a prediction, someone else's preference or a request to pass a message make none."""
from __future__ import annotations

import pytest

from layers.long_term.conditions.parser import conditional_preferences_parse


def _read(text: str) -> set[tuple]:
    return {(v.memory_key, v.value, tuple(sorted((k, tuple(x)) for k, x in (v.condition or {}).items())))
            for v in conditional_preferences_parse(text)}


@pytest.mark.parametrize("text, expected", [
    ("I like my steak medium rare, but when it's fish, make it well done.",
     {("user.preference.steak", "medium rare", ()), ("user.preference.steak", "well done", (("context", ("fish",)),))}),
    ("Summaries should be short, except for legal documents where I want full detail.",
     {("user.preference.summary", "short", ()),
      ("user.preference.summary", "full detail", (("context", ("legal documents",)),))}),
    ("我喝茶一般要绿茶，晚上的时候换成红茶。",
     {("user.preference.茶", "绿茶", ()), ("user.preference.茶", "红茶", (("time", ("night",)),))}),
    ("Reply in English by default, but if I write to you in Japanese, answer in Japanese.",
     {("user.preference.reply_language", "en", ()),
      ("user.preference.reply_language", "ja", (("input_language", ("ja",)),))}),
    ("外卖一般放门口，下雨的时候让骑手送上楼。",
     {("user.preference.delivery", "放门口", ()), ("user.preference.delivery", "让骑手送上楼", (("weather", ("rain",)),))}),
])
def test_a_frame_reads_any_topic(text, expected):
    assert _read(text) == expected


def test_an_exception_to_a_rule_that_asks_for_something_is_its_negation():
    variants = conditional_preferences_parse("I always take the stairs unless it's above the 5th floor.")
    assert [(v.value, bool(v.condition)) for v in variants] == [("take stairs", False), ("not take stairs", True)]


@pytest.mark.parametrize("text", [
    "When it rains I stay home and read.",                # a habit, nothing asked of the assistant
    "If you see Tom, tell him I said hi.",
    "Unless you hear otherwise, the meeting is at 3.",
    "My boss prefers email, except when it's urgent.",    # someone else's preference
    "如果明天下雨，我们就改天再去。",
    "开药的时候记得避开头孢啊，我过敏",                        # one "when": an instruction, no preference with an exception
    "I use a salbutamol inhaler when I run",
    "我青霉素过敏，开药的时候要注意",                          # a reason and an instruction
    "假如我是老板，我就天天放假",
])
def test_what_is_not_a_conditional_preference_makes_none(text):
    assert conditional_preferences_parse(text) == []


def test_a_frame_variant_reads_as_content():
    variants = conditional_preferences_parse("I like my steak medium rare, but when it's fish, make it well done.")
    assert variants[1].content == "User's preference (steak) when context=fish: well done."
