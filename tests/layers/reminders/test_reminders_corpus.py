"""The reminder-intent parser (layers/reminders/parser/) on the labelled corpus (corpora/REMINDERS.md).
The dev part was tuned on; the test part is only measured (its cases are never printed)."""
from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from layers.reminders.parser import reminder_intent
from tests.support.corpus_metrics import load_corpus

CORPORA = Path(__file__).parent / "corpora"
# What the parser reaches on the held-back part today (docs/benchmarks.md).
TEST_ACCURACY_FLOOR = 0.95


def _norm(text: str) -> str:
    return re.sub(r"[\s\W_]+", "", (text or "").lower())


def evaluate(part: str) -> dict:
    corpus = load_corpus(CORPORA / f"reminders_{part}.yaml")
    zone = ZoneInfo(corpus["time_zone"])
    now = datetime.strptime(corpus["now_local"], "%Y-%m-%d %H:%M").replace(tzinfo=zone)
    counts, misses = Counter(), []
    for case in corpus["cases"]:
        expected = case["expected"]
        intent = reminder_intent(case["text"], now=now, time_zone=zone.key)
        kind = intent.kind if intent else "none"
        counts["cases"] += 1
        counts[f"{expected['kind']}_cases"] += 1
        ok = kind == expected["kind"]
        counts["kind_correct"] += ok
        if expected["kind"] == "none" and kind == "create":
            counts["false_creates"] += 1
        if ok and kind == "create":
            counts["create_kind_correct"] += 1
            due = intent.due_at.astimezone(zone).strftime("%Y-%m-%d %H:%M")
            time_ok = due == expected.get("due_local") and intent.recurrence == expected.get("recurrence", "")
            text_ok = "text" not in expected or _norm(intent.text) == _norm(expected["text"])
            counts["time_correct"] += time_ok
            counts["text_correct"] += text_ok
            ok = time_ok and text_ok
        counts["correct"] += ok
        if not ok:
            misses.append((case, kind, intent))
    counts["misses"] = misses
    return counts


def report(part: str, result: dict) -> str:
    cases = result["cases"]
    creates = result["create_kind_correct"] or 1
    return (f"reminders {part}: accuracy {result['correct'] / cases:.3f} ({result['correct']}/{cases}); "
            f"intent {result['kind_correct'] / cases:.3f}; due time+rule {result['time_correct'] / creates:.3f} "
            f"and text {result['text_correct'] / creates:.3f} of the creates recognised; "
            f"false creates on {result['none_cases']} negatives: {result['false_creates']}")


def test_dev_part(capsys):
    result = evaluate("dev")
    with capsys.disabled():
        print("\n" + report("dev", result))
        for case, kind, intent in result["misses"]:
            found = intent and (intent.kind, intent.text, intent.due_at and intent.due_at.astimezone(
                ZoneInfo("Asia/Shanghai")).strftime("%Y-%m-%d %H:%M"), intent.recurrence)
            print(f"  {case['id']} {case['text']!r}: expected {case['expected']}, found {found}")
    assert result["correct"] / result["cases"] >= 0.95
    assert result["false_creates"] == 0


def test_test_part(capsys):
    result = evaluate("test")
    with capsys.disabled():
        print("\n" + report("test", result))
    assert result["cases"] == 82
    assert result["correct"] / result["cases"] >= TEST_ACCURACY_FLOOR
    assert result["false_creates"] <= 2
