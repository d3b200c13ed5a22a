"""The blind conditional-preference corpus (corpora/blind_dev.jsonl, corpora/blind_test.jsonl; written by an
engineer who had not read the lexicon or the parser, over topics the first corpus does not use, split once
at random by corpora/blind_split.py). Scored as test_conditions_corpus.py scores its parts (a case is right
only when the whole set is), and also structurally: a `parse` case is structurally right when the parser
finds as many general and conditional variants as labelled (nothing on a negative), whatever it names the
key, value and condition; a `serve` case when the served variants are right, whatever the conflicts.
The keys and values are the writer's names, not the lexicon's (corpora/blind_cases.py), so the strict score
also measures naming. No floor near the figures: this measures generalisation (docs/benchmarks.md,
"Conditional preferences and conflicts"); only the dev part's negatives are held to making no variant."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from memoryhub.core.actors import Actor
from tests.support.conditions import serve_case_play, variant_key, variants_read

pytestmark = pytest.mark.django_db
CORPORA = Path(__file__).parent / "corpora"
ACTOR = Actor.system("tests.conditions.blind")


def _load(part: str) -> list[dict]:
    with open(CORPORA / f"blind_{part}.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _shape(variants) -> list[bool]:
    return sorted(bool(v.get("condition")) for v in variants)


def _parse_case(case: dict) -> tuple[bool, bool, object]:
    found = variants_read(case["text"])
    strict = {variant_key(v) for v in found} == {variant_key(v) for v in case["expect"]}
    return strict, _shape(found) == _shape(case["expect"]), sorted(variant_key(v) for v in found)


def _serve_case(case: dict, tenant) -> tuple[bool, bool, object]:
    served, got_conflicts = serve_case_play(case, tenant, actor=ACTOR, user_id=f"blind-{case['id']}")
    want_conflicts = {(c["index"], c["requested"]) for c in case["expect_conflicts"]}
    served_right = served == set(case["expect_served"])
    return served_right and got_conflicts == want_conflicts, served_right, (sorted(served), sorted(got_conflicts))


def evaluate(part: str, tenant) -> dict:
    result = {"cases": 0, "strict": 0, "structural": 0, "parse": [0, 0, 0], "serve": [0, 0, 0], "negatives": 0,
              "false_variants": 0, "misses": []}
    for case in _load(part):
        if case["type"] == "parse":
            strict, structural, found = _parse_case(case)
        else:
            strict, structural, found = _serve_case(case, tenant)
        result["cases"] += 1
        result["strict"] += strict
        result["structural"] += structural
        counts = result[case["type"]]
        counts[0] += strict
        counts[1] += structural
        counts[2] += 1
        if case["type"] == "parse" and not case["expect"]:
            result["negatives"] += 1
            result["false_variants"] += bool(found)
        if not strict:
            result["misses"].append((case, found))
    return result


def report(part: str, result: dict) -> str:
    (ps, pt, pn), (ss, st, sn) = result["parse"], result["serve"]
    n = result["cases"]
    return (f"conditions blind_{part}: strict {result['strict'] / n:.3f} ({result['strict']}/{n}), structural "
            f"{result['structural'] / n:.3f} ({result['structural']}/{n}); parse strict {ps}/{pn} structural {pt}/{pn}; "
            f"serve+conflicts {ss}/{sn}, served {st}/{sn}; variants made on {result['negatives']} negatives: "
            f"{result['false_variants']}")


@pytest.mark.parametrize("part", ["dev", "test"])
def test_blind_part(part, tenant, capsys):
    result = evaluate(part, tenant)
    with capsys.disabled():
        print("\n" + report(part, result))
        if part == "dev":
            for case, found in result["misses"]:
                print(f"  {case['id']} {case.get('text') or case.get('query')!r}: found {found}")
    assert result["cases"] == {"dev": 35, "test": 23}[part]
    # Recorded, not a target: the figures at the commit that added these files were low because the lexicon
    # does not name these topics (docs/benchmarks.md). On the part one may work on, a negative (a one-off
    # request, a question, another person's habit) must still make no variant; the test part is only measured.
    if part == "dev":
        assert result["false_variants"] == 0, result["false_variants"]
