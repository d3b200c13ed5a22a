"""Writes habits_dev.yaml and habits_test.yaml: request sequences with crafted times and the habits they make.

Run once (`python tests/layers/formation/corpora/make_habits.py`); the YAML files are the corpus. The two
parts share the kinds of sequence (daily, weekdays, weekends, one weekday, across midnight, gaps, two habits
at once, and negatives: random times, too few days, questions and negations, a different request each day)
but draw phrasings, objects, times and seeds from separate pools, so the test part holds sentences the
reader was never developed on.
"""
from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
NOW = datetime(2026, 11, 29, 23, 59)  # a Sunday night, UTC

# (action, object) → phrasings. Dev and test never share a sentence.
DEV = {
    ("play", "white_noise"): ["播放白噪音", "放点白噪音", "来点白噪声", "play white noise", "put on some white noise"],
    ("open", "curtains"): ["开窗帘", "把窗帘拉开", "打开窗帘", "open the curtains", "open the blinds please"],
    ("play", "news"): ["play the news", "播放新闻", "放一下新闻", "could you play the news", "来点新闻"],
    ("turn_on", "lights"): ["开灯", "打开灯", "turn on the lights", "switch on the lights", "把灯打开"],
    ("turn_on", "air_conditioner"): ["打开空调", "开空调", "turn on the AC", "switch on the air conditioner"],
    ("check", "weather"): ["查一下天气", "看看天气", "check the weather", "查查天气预报"],
    ("play", "music"): ["放点音乐", "播放音乐", "play some music", "put on music"],
    ("turn_off", "lights"): ["关灯", "把灯关了", "turn off the lights", "switch the lights off"],
}
TEST = {
    ("play", "white_noise"): ["给我放个白噪音吧", "白噪音放起来", "能不能播一下白噪音", "white noise please, play it",
                              "can you play white noise for me"],
    ("open", "curtains"): ["帮我开一下窗帘", "窗帘拉开吧", "请打开窗帘", "pull open the curtains", "open my curtains"],
    ("play", "news"): ["我想听新闻", "播一下今日新闻", "play today's headlines", "put the news on", "play me the news"],
    ("turn_on", "lights"): ["帮我开一下灯", "请把灯光打开", "turn the lights on", "lights on please, turn them on"],
    ("turn_on", "heater"): ["打开暖气", "开一下暖气", "turn on the heater", "switch the heating on"],
    ("check", "schedule"): ["看一下日程", "查查今天的日程", "check my schedule", "show me my calendar"],
    ("play", "podcast"): ["放一下播客", "我想听播客", "play a podcast", "play my podcast"],
    ("turn_on", "coffee_machine"): ["打开咖啡机", "开咖啡机", "start the coffee machine", "turn on the coffee maker"],
}
DISTRACTORS = {
    "dev": ["今天天气怎么样", "谢谢", "I'm tired today", "明天提醒我买牛奶", "白噪音是什么", "what's on tv tonight",
            "帮我写一封邮件", "how do I reset the router", "好的", "nice, thanks"],
    "test": ["你好呀", "刚下班", "what time is it", "remind me to call mum tomorrow", "窗帘是什么颜色的",
             "I love this song", "给我讲个笑话", "why is the sky blue", "ok", "晚安"],
}
NEGATED = {
    "dev": {("play", "white_noise"): ["别放白噪音", "白噪音是什么", "don't play white noise", "不要播放白噪音"]},
    "test": {("open", "curtains"): ["不要开窗帘", "窗帘怎么打开", "don't open the curtains", "别把窗帘拉开"]},
}
TIMES = {"dev": [(22, 0), (7, 0), (7, 30), (19, 15), (21, 30), (8, 10), (6, 45), (12, 20)],
         "test": [(22, 30), (6, 50), (7, 40), (18, 30), (23, 0), (9, 0), (20, 10), (13, 0)]}


def _at(day: datetime, hour: int, minute: int, jitter: int, rng: random.Random) -> datetime:
    return day.replace(hour=hour, minute=minute) + timedelta(minutes=rng.randint(-jitter, jitter))


def _window(hour: int, minute: int, jitter: int) -> list[str]:
    centre = hour * 60 + minute
    return [f"{(centre - jitter) % 1440 // 60:02d}:{(centre - jitter) % 60:02d}",
            f"{(centre + jitter) % 1440 // 60:02d}:{(centre + jitter) % 60:02d}"]


def _days(kind: str, count: int, weekday: int | None = None) -> list[datetime]:
    """The last `count` days of the kind up to NOW's date (daily, weekdays, weekends, or one weekday)."""
    days, day = [], NOW.replace(hour=0, minute=0)
    while len(days) < count:
        if (kind == "daily" or (kind == "weekdays" and day.weekday() < 5) or (kind == "weekends" and day.weekday() >= 5)
                or (kind == "weekly" and day.weekday() == weekday)):
            days.append(day)
        day -= timedelta(days=1)
    return sorted(days)


def _habit(rng, pools, key, kind, count, hour, minute, jitter=15, weekday=None, skip=()):
    texts = pools[key]
    requests = []
    days = _days(kind, count, weekday)
    for index, day in enumerate(days):
        if index in skip:
            continue
        moment = _at(day, hour, minute, jitter, rng)
        if moment > NOW:
            moment = NOW - timedelta(minutes=1)
        requests.append([moment.strftime("%Y-%m-%dT%H:%M"), rng.choice(texts)])
    weekdays = {"daily": list(range(7)), "weekdays": [0, 1, 2, 3, 4], "weekends": [5, 6], "weekly": [weekday]}[kind]
    expect = {"action": key[0], "object": key[1], "pattern": kind, "weekdays": weekdays,
              "window": _window(hour, minute, jitter)}
    return requests, expect


def _noise(rng, part, count):
    start = NOW - timedelta(days=21)
    return [[(start + timedelta(minutes=rng.randrange(21 * 1440))).strftime("%Y-%m-%dT%H:%M"),
             rng.choice(DISTRACTORS[part])] for _ in range(count)]


def sequences(part: str, seed: int) -> list[dict]:
    rng = random.Random(seed)
    pools = DEV if part == "dev" else TEST
    keys = list(pools)
    times = TIMES[part]
    out = []

    def add(note, requests, expect):
        out.append({"id": f"{part}-{len(out) + 1:03d}", "note": note, "now": NOW.strftime("%Y-%m-%dT%H:%M"),
                    "requests": sorted(requests), "expect": expect})

    for i, key in enumerate(keys):  # daily, 5-8 days
        hour, minute = times[i % len(times)]
        requests, expect = _habit(rng, pools, key, "daily", rng.randint(5, 8), hour, minute)
        add("daily", requests + _noise(rng, part, 6), [expect])
    for i, key in enumerate(keys[:4]):  # weekdays, two weeks
        hour, minute = times[(i + 1) % len(times)]
        requests, expect = _habit(rng, pools, key, "weekdays", 10, hour, minute)
        add("weekdays", requests + _noise(rng, part, 5), [expect])
    for i, key in enumerate(keys[4:7]):  # weekends, three of them
        hour, minute = times[(i + 3) % len(times)]
        requests, expect = _habit(rng, pools, key, "weekends", 6, hour, minute)
        add("weekends", requests + _noise(rng, part, 5), [expect])
    for i, key in enumerate(keys[:5]):  # one weekday, 3-4 weeks
        hour, minute = times[(i + 2) % len(times)]
        weekday = rng.randrange(7)
        requests, expect = _habit(rng, pools, key, "weekly", rng.randint(3, 4), hour, minute, weekday=weekday)
        add("weekly", requests + _noise(rng, part, 5), [expect])
    for key in keys[5:7]:  # daily with one evening missed
        requests, expect = _habit(rng, pools, key, "daily", 8, *times[0], skip=(3,))
        add("daily, one day missed", requests, [expect])
    key = keys[0]  # across midnight
    requests, expect = _habit(rng, pools, key, "daily", 6, 0, 0, jitter=15)
    add("daily around midnight", requests, [expect])
    a, b = keys[1], keys[2]  # two habits at once
    first, expect_a = _habit(rng, pools, a, "daily", 6, *times[1])
    second, expect_b = _habit(rng, pools, b, "daily", 6, *times[3])
    add("two habits", first + second, sorted([expect_a, expect_b], key=lambda e: (e["action"], e["object"])))
    # negatives
    for key in keys[:5]:  # the same request at random times
        start = NOW - timedelta(days=20)
        requests = [[(start + timedelta(minutes=rng.randrange(20 * 1440))).strftime("%Y-%m-%dT%H:%M"),
                     rng.choice(pools[key])] for _ in range(rng.randint(6, 10))]
        add("negative: random times", requests, [])
    for key in keys[:4]:  # too few days
        requests, _ = _habit(rng, pools, key, "daily", 2, *times[2])
        add("negative: two days only", requests + _noise(rng, part, 4), [])
    for key, texts in NEGATED[part].items():  # asked about or refused, at regular times
        for count in (5, 7):
            days = _days("daily", count)
            requests = [[_at(day, *times[0], 10, rng).strftime("%Y-%m-%dT%H:%M"), rng.choice(texts)] for day in days]
            add("negative: questions and refusals", requests, [])
    for _ in range(3):  # a different request every evening
        days = _days("daily", 7)
        requests = [[_at(day, *times[0], 10, rng).strftime("%Y-%m-%dT%H:%M"), rng.choice(pools[key])]
                    for day, key in zip(days, rng.sample(keys, 7))]
        add("negative: a different request each evening", requests, [])
    add("negative: chatter only", _noise(rng, part, 20), [])
    return out


def main() -> None:
    for part, seed in (("dev", 1402), ("test", 2914)):
        data = {"part": part, "sequences": sequences(part, seed)}
        with open(HERE / f"habits_{part}.yaml", "w", encoding="utf-8") as handle:
            yaml.safe_dump(data, handle, allow_unicode=True, sort_keys=False, width=120)
        print(part, len(data["sequences"]))


if __name__ == "__main__":
    main()
