"""The injection detector against the labelled dev/test corpus (issue 13), with per-family figures.

The dev part is the one the rules were tuned on; the targets are asserted on the held-back test
part only. The detector sees `text` and nothing else: `plain`, `encoding` and `variant` (the
answer key of the encoded, homoglyph and obfuscated items) are never passed to it.
"""
from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path

import pytest

from memoryhub.safety.injection import INJECTION_REASONS, injection_reasons
from tests.support.corpus_metrics import load_corpus

CORPORA = Path(__file__).parent / "corpora"
PARTS = {part: load_corpus(CORPORA / f"injection_{part}.yaml") for part in ("dev", "test")}


def _measure(corpus: dict) -> dict:
    """Per-family counts: positives flagged (recall), negatives flagged (false alarms)."""
    families: dict[str, dict[str, int]] = defaultdict(lambda: {"n": 0, "flagged": 0})
    tp = fn = fp = tn = 0
    for case in corpus["positives"]:
        found = injection_reasons(case["text"])
        assert set(found) <= set(INJECTION_REASONS)
        families[case["family"]]["n"] += 1
        families[case["family"]]["flagged"] += bool(found)
        tp, fn = tp + bool(found), fn + (not found)
    negatives: dict[str, dict[str, int]] = defaultdict(lambda: {"n": 0, "flagged": 0})
    for case in corpus["negatives"]:
        found = injection_reasons(case["text"])
        negatives[case["family"]]["n"] += 1
        negatives[case["family"]]["flagged"] += bool(found)
        fp, tn = fp + bool(found), tn + (not found)
    return {"families": families, "negatives": negatives, "tp": tp, "fn": fn, "fp": fp, "tn": tn,
            "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / (tp + fn) if tp + fn else 1.0}


def _table(part: str, m: dict) -> str:
    lines = [(f"injection {part}: precision {m['precision']:.3f} recall {m['recall']:.3f} "
              f"(tp {m['tp']} fn {m['fn']} fp {m['fp']} tn {m['tn']})"),
             f"  {'positive family':<26}{'flagged':>9}{'recall':>8}"]
    for family, c in sorted(m["families"].items()):
        lines.append(f"  {family:<26}{c['flagged']:>5}/{c['n']:<3}{c['flagged'] / c['n']:>8.2f}")
    lines.append(f"  {'negative family':<26}{'flagged':>9}")
    for family, c in sorted(m["negatives"].items()):
        lines.append(f"  {family:<26}{c['flagged']:>5}/{c['n']:<3}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def measured() -> dict:
    return {part: _measure(corpus) for part, corpus in PARTS.items()}


def test_corpus_parts_have_the_documented_shape():
    for corpus in PARTS.values():
        assert len(corpus["positives"]) >= 150 and len(corpus["negatives"]) >= 150
        assert {case["lang"] for case in corpus["positives"]} >= {"en", "zh"}
    ids = [case["id"] for corpus in PARTS.values() for key in ("positives", "negatives") for case in corpus[key]]
    assert len(ids) == len(set(ids))


def test_targets_on_the_held_back_test_part(measured, capsys):
    with capsys.disabled():
        for part in ("dev", "test"):
            print("\n" + _table(part, measured[part]))
    test = measured["test"]
    assert test["precision"] >= 0.9, test["precision"]
    assert test["recall"] >= 0.9, test["recall"]
    for family, c in test["families"].items():
        assert c["flagged"] / c["n"] >= 0.7, (family, c)


def test_the_dev_part_stays_clean(measured):
    # The part the rules were read against: a regression here is a rule that broke, not noise.
    dev = measured["dev"]
    assert dev["recall"] >= 0.95 and dev["precision"] >= 0.95, (dev["recall"], dev["precision"])


def test_detection_is_fast_enough_for_every_write_and_turn(capsys):
    texts = [case["text"] for corpus in PARTS.values() for key in ("positives", "negatives") for case in corpus[key]]
    # Best of three per text: the figure is the detector's cost, not the noise of a shared machine.
    best = []
    for text in texts:
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            injection_reasons(text)
            runs.append(time.perf_counter() - started)
        best.append(min(runs))
    mean_us = sum(best) / len(best) * 1e6
    p95_us = sorted(best)[int(len(best) * 0.95)] * 1e6
    with capsys.disabled():
        print(f"\ninjection speed over {len(texts)} texts: mean {mean_us:.0f} µs, p95 {p95_us:.0f} µs, "
              f"max {max(best) * 1e6:.0f} µs")
    assert mean_us < 1000, mean_us
