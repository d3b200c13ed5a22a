"""Scoring of the reference corpus (tests/layers/transient/corpora/REFERENCES.md, "Suggested scoring")."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import yaml

from layers.transient.references.resolve import Registry, references_resolve_text

CORPORA = Path(__file__).parent / "corpora"


def load(part: str) -> list[dict]:
    with open(CORPORA / f"references_{part}.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)["cases"]


def _matches(predicted: str, gold: list[str]) -> bool:
    low = predicted.lower()
    return any(low in g.lower() or g.lower() in low for g in gold)


def predict(case: dict):
    registry = Registry(size=50)
    for index, turn in enumerate(case["turns"], start=1):
        registry.update(index, turn["role"], turn["content"])
    utterance, mention = case["utterance"], case["mention"]
    start = utterance.find(mention)
    end = start + len(mention)
    resolutions = references_resolve_text(registry, utterance)
    # The resolution whose span overlaps the scored mention most.
    best, overlap = None, 0
    for resolution in resolutions:
        common = min(end, resolution.end) - max(start, resolution.start)
        if common > overlap:
            best, overlap = resolution, common
    return best


def correct(case: dict, resolution) -> bool:
    expected = case["expected"]
    if expected is None:
        return resolution is None or not resolution.resolved
    if resolution is None or not resolution.resolved:
        return False
    entity = expected["entity"]
    aliases = expected.get("aliases", [])
    if isinstance(entity, list):
        if len(entity) == 1:
            gold = [entity[0], *aliases]
            return all(any(_matches(s, gold) for s in e.surfaces()) for e in resolution.entities)
        members = [[m] for m in entity]
        hit = [any(any(_matches(s, m) for s in e.surfaces()) for e in resolution.entities) for m in members]
        extra = [e for e in resolution.entities if not any(any(_matches(s, m) for s in e.surfaces()) for m in members)]
        return all(hit) and not extra
    gold = [entity, *aliases]
    return len(resolution.entities) == 1 and any(_matches(s, gold) for s in resolution.entities[0].surfaces())


def evaluate(part: str, *, verbose: bool = False) -> dict:
    cases = load(part)
    by_type, by_lang = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0])
    right, failures, null_fp, null_n = 0, [], 0, 0
    for case in cases:
        resolution = predict(case)
        ok = correct(case, resolution)
        right += ok
        for table, key in ((by_type, case["type"]), (by_lang, case["lang"])):
            table[key][0] += ok
            table[key][1] += 1
        if case["expected"] is None:
            null_n += 1
            null_fp += not ok
        if not ok:
            got = None if resolution is None else ([e.name for e in resolution.entities], resolution.confidence)
            failures.append(f"{case['id']} {case['type']}: {case['utterance']!r} [{case['mention']}] "
                            f"want {case['expected'] and case['expected']['entity']} got {got}")
    return {"accuracy": right / len(cases), "cases": len(cases), "correct": right,
            "by_type": {k: (v[0], v[1]) for k, v in sorted(by_type.items())},
            "by_lang": {k: (v[0], v[1]) for k, v in sorted(by_lang.items())},
            "null_false_positive_rate": null_fp / null_n if null_n else 0.0,
            "failures": failures if verbose else []}


def report(part: str, result: dict) -> str:
    lines = [f"references {part}: accuracy {result['accuracy']:.3f} ({result['correct']}/{result['cases']}), "
             f"no_antecedent false-positive rate {result['null_false_positive_rate']:.2f}"]
    lines += [f"  {k:20s} {a}/{n}" for k, (a, n) in result["by_type"].items()]
    lines += [f"  lang {k:15s} {a}/{n}" for k, (a, n) in result["by_lang"].items()]
    return "\n".join(lines)
