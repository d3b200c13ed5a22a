"""The labelled habit corpus (tests/layers/formation/corpora/habits_*.yaml, made by make_habits.py): request
sequences with crafted times, read and clustered exactly as the job does (policy defaults, UTC). A found habit
counts when its action, object, pattern and weekdays are the labelled ones and its window overlaps the
labelled window. Work happens on the dev part; the test part is measured only (docs/benchmarks.md)."""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

import pytest

from layers.formation.habits.patterns import minute_label, pattern_detect
from layers.formation.habits.requests import request_read
from layers.formation.policy import FormationPolicy
from layers.formation.services.habits import habit_thresholds
from tests.support.corpus_metrics import load_corpus

CORPORA = Path(__file__).parent / "corpora"
# dev: what the reader and the detector were developed on; test: measured, never tuned to
FLOORS = {"dev": {"precision": 0.95, "recall": 0.9, "sequences": 0.9},
          "test": {"precision": 0.85, "recall": 0.7, "sequences": 0.7}}


def _minutes(label: str) -> int:
    hours, minutes = label.split(":")
    return int(hours) * 60 + int(minutes)


def _overlaps(found: dict, expected: list[str]) -> bool:
    def spans(start, end):
        return [(start, end)] if start <= end else [(start, 1440), (0, end)]
    got = spans(_minutes(found["start"]), _minutes(found["end"]))
    want = spans(_minutes(expected[0]), _minutes(expected[1]))
    return any(a < d and c < b for a, b in got for c, d in want)


def detect(sequence: dict) -> list[dict]:
    thresholds = habit_thresholds(FormationPolicy())
    groups = defaultdict(list)
    for moment, text in sequence["requests"]:
        request = request_read(text)
        if request is not None:
            groups[(request.action, request.object)].append(datetime.fromisoformat(moment).replace(tzinfo=timezone.utc))
    found = []
    for (action, obj), moments in sorted(groups.items()):
        pattern = pattern_detect(moments, thresholds)
        if pattern is not None:
            found.append({"action": action, "object": obj, "pattern": pattern.pattern, "weekdays": list(pattern.weekdays),
                          "window": {"start": minute_label(pattern.start_minute), "end": minute_label(pattern.end_minute)}})
    return found


def score(part: str) -> dict:
    corpus = load_corpus(CORPORA / f"habits_{part}.yaml")
    tp = fp = fn = exact = 0
    wrong = []
    for sequence in corpus["sequences"]:
        found = detect(sequence)
        matched = []
        for expected in sequence["expect"]:
            hit = next((f for f in found if f not in matched and all(f[k] == expected[k] for k in
                        ("action", "object", "pattern", "weekdays")) and _overlaps(f["window"], expected["window"])), None)
            if hit is None:
                fn += 1
            else:
                matched.append(hit)
                tp += 1
        fp += len(found) - len(matched)
        if len(matched) == len(sequence["expect"]) == len(found):
            exact += 1
        else:
            wrong.append(sequence["id"])
    total = len(corpus["sequences"])
    return {"sequences": total, "precision": tp / (tp + fp) if tp + fp else 1.0,
            "recall": tp / (tp + fn) if tp + fn else 1.0, "exact": exact / total, "wrong": wrong}


@pytest.mark.parametrize("part", ["dev", "test"])
def test_habit_corpus(part):
    result = score(part)
    print(f"\nhabits {part}: {result['sequences']} sequences, precision {result['precision']:.3f}, "
          f"recall {result['recall']:.3f}, sequences exact {result['exact']:.3f}"
          + (f", wrong {result['wrong']}" if part == "dev" else ""))
    floors = FLOORS[part]
    assert result["precision"] >= floors["precision"] and result["recall"] >= floors["recall"]
    assert result["exact"] >= floors["sequences"]
