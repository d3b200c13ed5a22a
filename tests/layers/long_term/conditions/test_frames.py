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
    ("Wake me at 7 on weekdays, but let me sleep until 9 on weekends.",
     {("user.preference.wake", "at 7", (("context", ("weekdays",)),)),
      ("user.preference.wake", "sleep until 9", (("time", ("weekend",)),))}),
    ("打车默认叫快车，下雨的时候叫专车。",
     {("user.preference.transport", "快车", ()), ("user.preference.transport", "专车", (("weather", ("rain",)),))}),
    ("外卖一般放门口，下雨的时候让骑手送上楼。",
     {("user.preference.delivery", "放门口", ()), ("user.preference.delivery", "让骑手送上楼", (("weather", ("rain",)),))}),
])
def test_a_frame_reads_any_topic(text, expected):
    assert _read(text) == expected


def test_an_exception_to_a_rule_that_asks_for_something_is_its_negation():
    variants = conditional_preferences_parse("Show prices in euros unless I'm shopping on a US site.")
    assert [(v.value, bool(v.condition)) for v in variants] == [("show prices", False), ("not show prices", True)]


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
    "I always take the stairs unless it's above the 5th floor.",  # what the user does, asked of no one
    "I always run in the morning unless it rains.",
    "Remind me to buy milk unless it's the weekend.",             # a reminder, not a preference
    "you can call me Theo, nobody uses Theodore except my gran",
])
def test_what_is_not_a_conditional_preference_makes_none(text):
    assert conditional_preferences_parse(text) == []


def test_a_frame_variant_reads_as_content():
    variants = conditional_preferences_parse("I like my steak medium rare, but when it's fish, make it well done.")
    assert variants[1].content == "User's preference (steak) when context=fish: well done."


# Probes of the frame on topics outside the topic table, written while working and scored before the rules were
# changed for them (12/22 first, 21/22 in the first round): (statement, general variants, conditional variants),
# whatever they are named.
FRAME_PROBES = [
    ("I like my eggs scrambled, except on Sundays when I want them poached.", 1, 1),
    ("Use Celsius for the weather unless I'm asking about the US.", 1, 1),
    ("Wake me at 7 on weekdays, but let me sleep until 9 on weekends.", 0, 2),
    ("Keep my emails short, but when it's to a client, make them formal.", 1, 1),
    ("I prefer window blinds open in the morning, closed after sunset.", 0, 2),
    ("Order oat milk for my latte unless they're out, then almond is fine.", 1, 1),
    ("Book economy for short flights, but for anything over six hours I want premium economy.", 1, 1),
    ("I usually tip 15 percent, but if the service is great, make it 20.", 1, 1),
    ("Text me instead of calling if I'm in a meeting.", 0, 0),
    ("Show prices in euros unless I'm shopping on a US site.", 1, 1),
    ("给我推荐电影一般要喜剧，周末晚上的时候可以推荐恐怖片。", 1, 1),
    ("早餐一般要豆浆油条，除非是周末，周末要咖啡和面包。", 1, 1),
    ("理发一般剪短一点，过年的时候留长一点。", 1, 1),
    ("打车默认叫快车，下雨的时候叫专车。", 1, 1),
    ("除了工作日早上，闹钟都别响。", 1, 1),
    ("如果是给长辈买礼物，就选实用的；给朋友的话选有趣的。", 0, 2),
    ("只有出差的时候才订五星级酒店。", 1, 1),
    ("I always run in the morning unless it rains.", 0, 0),   # a habit, nothing asked
    ("If my boss calls, tell him I'm out.", 0, 0),           # a one-time instruction
    ("My wife likes her tea strong unless it's late.", 0, 0), # someone else's
    ("除非下雨，不然我们周六去爬山。", 0, 0),                   # a plan
    ("要是明天还这么热，我就不出门了。", 0, 0),                  # a plan
]


def test_frame_probes_have_the_labelled_shape(capsys):
    right, misses = 0, []
    for text, general, conditional in FRAME_PROBES:
        variants = conditional_preferences_parse(text)
        shape = (sum(not v.condition for v in variants), sum(bool(v.condition) for v in variants))
        right += shape == (general, conditional)
        if shape != (general, conditional):
            misses.append((text, shape))
    with capsys.disabled():
        print(f"\nframe probes: {right}/{len(FRAME_PROBES)} of the labelled shape; misses: {misses}")
    assert right == len(FRAME_PROBES)


# A second set, zh first, scored before the rules were changed for it (11/16 first).
FRAME_PROBES_2 = [
    ("新闻一般给我推送科技类的，周末的话推送体育新闻。", 1, 1),
    ("快递默认放快递柜，贵重物品的话送货上门。", 1, 1),
    ("除了生鲜以外，外卖都可以放门口。", 1, 1),
    ("要是开会，电话就帮我转语音信箱，否则直接接进来。", 1, 1),
    ("平时点奶茶要少糖，生理期的时候要热的。", 1, 1),
    ("行程安排得松一点，但是带老人出门的时候要更松。", 1, 1),
    ("Send me the daily summary at 8 am, except on Mondays when I want it at 7.", 1, 1),
    ("Always book aisle seats, but if the flight is overnight, book a window.", 1, 1),
    ("For work calls use Zoom; for family calls, FaceTime.", 0, 2),
    ("I'd like the room at 21 degrees, unless it's summer, then 24.", 1, 1),
    ("Unless it's an emergency, don't wake me before 8.", 1, 1),
    ("只有下雨天才帮我叫车，其他时候我走路。", 1, 1),
    ("My son prefers pancakes unless it's a school day.", 0, 0),
    ("如果你有空的话，帮我查一下明天的天气。", 0, 0),
    ("Except for the weekend, I'm busy every day.", 0, 0),
    ("除非老板同意，不然这个项目不能上线。", 0, 0),
]


def test_second_frame_probes_have_the_labelled_shape():
    shapes = [(text, (sum(not v.condition for v in variants), sum(bool(v.condition) for v in variants)))
              for text, variants in ((t, conditional_preferences_parse(t)) for t, _, _ in FRAME_PROBES_2)]
    assert [shape for _, shape in shapes] == [(g, c) for _, g, c in FRAME_PROBES_2]
