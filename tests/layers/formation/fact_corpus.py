"""The personal-fact corpus (corpora/FACTS.md) scored through the offline extractor: loading a part, the
lenient matcher and the per-family counts, shared by test_fact_corpus.py and learned_eval.py.

A predicted item matches a labelled fact when the key is equal, the values match leniently (case and
punctuation folded, containment either way) and every labelled attribute is present with a matching value.
Every keyed item the extractor emits for the utterance counts: one that matches nothing is a false positive.
"""
from __future__ import annotations

import re
import time
import unicodedata
from collections import defaultdict
from pathlib import Path

import yaml

from layers.formation.extractor import extract_memories

CORPORA = Path(__file__).parent / "corpora"


def load(part: str) -> list[dict]:
    # A part may grow by later batches (facts_dev.yaml, facts_dev_en2.yaml, ...): each batch was
    # written blind to the rules of its day, so a new batch measures generalisation before it is
    # worked on. The test part is never extended this way.
    cases = []
    for path in sorted(CORPORA.glob(f"facts_{part}*.yaml")):
        with open(path, encoding="utf-8") as handle:
            cases.extend(yaml.safe_load(handle)["cases"])
    return cases


def norm(value) -> str:
    text = unicodedata.normalize("NFKC", str(value)).casefold()
    text = re.sub(r"[\W_]+", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def _loose(gold, predicted) -> bool:
    g, p = norm(gold), norm(predicted)
    if not g:
        return True
    return bool(p) and (g in p or p in g or g.replace(" ", "") in p.replace(" ", "")
                        or p.replace(" ", "") in g.replace(" ", ""))


def attr_matches(name: str, gold, predicted) -> bool:
    if predicted is None:
        return False
    if name == "weekdays":
        return isinstance(predicted, (list, tuple)) and set(predicted) == set(gold)
    if name == "age":
        try:
            return int(predicted) == int(gold)
        except (TypeError, ValueError):
            return False
    return _loose(gold, predicted)


def matches(fact: dict, item) -> bool:
    if item.memory_key != fact["key"] or not _loose(fact.get("value") or "", item.value or ""):
        return False
    attrs = item.attributes or {}
    return all(attr_matches(name, want, attrs.get(name)) for name, want in (fact.get("attrs") or {}).items())


def family(key: str | None) -> str:
    return key.split(".")[1] if key else "note"


def predict(case: dict):
    turns = [{"seq": i + 1, "role": "user", "content": text} for i, text in enumerate(case.get("context") or [])]
    turns.append({"seq": len(turns) + 1, "role": "user", "content": case["text"]})
    result = extract_memories(turns, user_id="u1")
    last = turns[-1]["seq"]
    return [i for i in result.items if i.source_turn_seq == last and not i.quarantine]


def score(part: str) -> dict:
    """{"families": {family: [tp, fp, fn]}, "total": [tp, fp, fn], "errors": [...], "ms": per utterance}."""
    families: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    errors: list[str] = []
    cases = load(part)
    started = time.perf_counter()
    predictions = [predict(case) for case in cases]
    elapsed = time.perf_counter() - started
    for case, items in zip(cases, predictions):
        unused = list(items)
        for fact in case["facts"]:
            hit = next((item for item in unused if matches(fact, item)), None)
            if hit is None:
                families[family(fact["key"])][2] += 1
                errors.append(f"MISS {case['id']} {fact['key']}={fact.get('value')!r} {fact.get('attrs') or ''} "
                              f"| {case['text']!r} | got {[(i.memory_key, i.value) for i in items]}")
            else:
                unused.remove(hit)
                families[family(fact["key"])][0] += 1
        for item in unused:
            families[family(item.memory_key)][1] += 1
            errors.append(f"FP   {case['id']} {item.memory_key}={item.value!r} {item.attributes} "
                          f"| {case['text']!r} ({case.get('negative') or 'positive'})")
    total = [sum(v[i] for v in families.values()) for i in range(3)]
    return {"families": dict(families), "total": total, "errors": errors,
            "ms": 1000 * elapsed / max(1, len(cases)), "cases": len(cases)}


def precision_recall(tp: int, fp: int, fn: int) -> tuple[float, float]:
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def table(part: str, result: dict) -> str:
    lines = [f"fact corpus [{part}] {result['cases']} utterances, {result['ms']:.2f} ms/utterance",
             f"{'family':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}"]
    for name in sorted(result["families"]):
        tp, fp, fn = result["families"][name]
        precision, recall = precision_recall(tp, fp, fn)
        lines.append(f"{name:<22}{tp:>5}{fp:>5}{fn:>5}{precision:>11.3f}{recall:>8.3f}")
    tp, fp, fn = result["total"]
    precision, recall = precision_recall(tp, fp, fn)
    lines.append(f"{'ALL':<22}{tp:>5}{fp:>5}{fn:>5}{precision:>11.3f}{recall:>8.3f}")
    return "\n".join(lines)
