"""The labelled conditional-preference corpus (corpora/dev.jsonl, corpora/test.jsonl; written once and split
at random by corpora/split.py): `parse` cases read a statement into the general preference and its
conditional variants (negatives: one-off requests, questions, hypotheticals, conditions about something else
yield nothing); `serve` cases store variants, make a request and check which variants the context serves and
which conflicts it reports. A case is right only when the whole set is. Work on dev only; the test part is
measured (docs/benchmarks.md)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from memoryhub.core.actors import Actor
from tests.support.conditions import serve_case_play, variant_key, variants_read

pytestmark = pytest.mark.django_db
CORPORA = Path(__file__).parent / "corpora"
ACTOR = Actor.system("tests.conditions")
TEST_ACCURACY_FLOOR = 0.75


def _load(part: str) -> list[dict]:
    """A part's cases; dev also holds dev_more.jsonl, phrasings probed while working (dev only)."""
    cases = []
    for name in (f"{part}.jsonl", *(("dev_more.jsonl",) if part == "dev" else ())):
        with open(CORPORA / name, encoding="utf-8") as handle:
            cases += [json.loads(line) for line in handle if line.strip()]
    return cases


def _parse_case(case: dict) -> tuple[bool, object]:
    found = {variant_key(v) for v in variants_read(case["text"])}
    return found == {variant_key(v) for v in case["expect"]}, sorted(found)


def _serve_case(case: dict, tenant) -> tuple[bool, object]:
    served, got_conflicts = serve_case_play(case, tenant, actor=ACTOR, user_id=f"corpus-{case['id']}")
    want = set(case["expect_served"]), {(c["index"], c["requested"]) for c in case["expect_conflicts"]}
    return (served, got_conflicts) == want, (sorted(served), sorted(got_conflicts))


def evaluate(part: str, tenant) -> dict:
    result = {"cases": 0, "correct": 0, "parse": [0, 0], "serve": [0, 0], "negatives": 0, "false_variants": 0,
              "misses": []}
    for case in _load(part):
        right, found = _parse_case(case) if case["type"] == "parse" else _serve_case(case, tenant)
        result["cases"] += 1
        result["correct"] += right
        result[case["type"]][0] += right
        result[case["type"]][1] += 1
        if case["type"] == "parse" and not case["expect"]:
            result["negatives"] += 1
            result["false_variants"] += bool(found)
        if not right:
            result["misses"].append((case, found))
    return result


def report(part: str, result: dict) -> str:
    (pc, pn), (sc, sn) = result["parse"], result["serve"]
    return (f"conditions {part}: accuracy {result['correct'] / result['cases']:.3f} "
            f"({result['correct']}/{result['cases']}); parse {pc}/{pn}, serve+conflicts {sc}/{sn}; "
            f"variants made on {result['negatives']} negatives: {result['false_variants']}")


def test_dev_part(tenant, capsys):
    result = evaluate("dev", tenant)
    with capsys.disabled():
        print("\n" + report("dev", result))
        for case, found in result["misses"]:
            print(f"  {case['id']} {case.get('text') or case.get('query')!r}: found {found}")
    assert result["cases"] == 38 + 20
    assert result["correct"] / result["cases"] >= 0.9
    assert result["false_variants"] == 0


def test_test_part(tenant, capsys):
    result = evaluate("test", tenant)
    with capsys.disabled():
        print("\n" + report("test", result))
    assert result["cases"] == 26
    assert result["correct"] / result["cases"] >= TEST_ACCURACY_FLOOR
