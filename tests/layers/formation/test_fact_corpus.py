"""The offline extractor against the personal-fact corpus (corpora/FACTS.md): dev and test parts.

The rules were tuned on facts_dev.yaml only; facts_test.yaml is scored here and nowhere read by
hand (see FACTS.md "How the split was made"). A predicted item matches a labelled fact when the
key is equal, the values match leniently (case and punctuation folded, containment either way)
and every labelled attribute is present with a matching value. Every keyed item the extractor
emits for the utterance counts: one that matches nothing is a false positive, so the negatives
(questions, hypotheticals, other people …) weigh on precision.
"""
from __future__ import annotations

from collections import Counter

import yaml

from tests.layers.formation.fact_corpus import CORPORA, precision_recall, score, table


# The issue-11 targets on the test part are precision >= 0.90, recall >= 0.80 and no family under
# 0.60 recall. The rules do not reach them yet (docs/benchmarks.md, "Formation: offline extraction
# (issue 11)", has the per-family figures); what is asserted is what they reach, just below the
# measured figures, so a regression fails. Raise these as the rules improve; never tune on the
# test part to do it.
TARGET_PRECISION, TARGET_RECALL, TARGET_FAMILY_RECALL = 0.90, 0.80, 0.60
MIN_PRECISION = 0.81
# Raised to 0.68 at da59a9d (measured 0.796 / 0.693: en 0.799/0.656, zh 0.789/0.754, mixed 0.833/0.600); to
# 0.80 / 0.70 at 07da4d3 (measured 0.811 / 0.708). Recall to 0.71 at 0835f74, the learned recall back-up on by
# default (measured 0.812 / 0.727; rules alone 0.816 / 0.717). Precision to 0.81 at ae41704, rules round 7 with
# the back-up keys chosen by cross-validation (only user.hometown left; measured 0.823 / 0.724); recall to 0.72
# at ceac143 after the en16 / zh18 / mixed5 families were worked (measured 0.827 / 0.727).
MIN_RECALL = 0.72
# Families with at least this many labelled facts in the test part must each reach MIN_FAMILY_RECALL.
MIN_FAMILY_RECALL = 0.48
MIN_FAMILY_FACTS = 5


def test_dev_part_reports(capsys):
    result = score("dev")
    with capsys.disabled():
        print("\n" + table("dev", result))
    precision, recall = precision_recall(*result["total"])
    # The part the rules were tuned on: a regression guard, set below the reached figures. The blind
    # batches (facts_dev_zh2.yaml, facts_dev_en2.yaml) join it unworked, which pulls the union down
    # (0.875 / 0.765 when both had just landed); raise this as they are worked on. With the zh batches
    # zh2..zh7 worked on, the union reached 0.955 / 0.918 at dd915ad; with en9 / zh11 joined and worked on,
    # 0.959 / 0.926 at 5569a4a, 0.965 / 0.938 at 0aa4126 and at 0df48d1 (zh + mixed alone 0.966 / 0.962).
    # The blind en10 / zh12 / mixed1 batches joined at 49cceac..72d14fb and were worked on: 0.964 / 0.927 at da59a9d
    # (en 0.964/0.916, zh 0.964/0.950, mixed 0.955/0.834), so the floor stays where it was.
    # The blind en11 / zh13 / mixed2 batches joined unworked at 9e2d6b7, as they came: en11 0.697/0.525,
    # zh13 0.807/0.706, mixed2 0.920/0.442; the union fell from 0.966 / 0.930 to 0.946 / 0.887. Floor set
    # 0.01 under that; raise it as they are worked on. English round 5 (with facts_dev_en12.yaml, 95 probes of that
    # round): 0.958 / 0.915 at 07da4d3 (en11 0.821/0.696, mixed2 0.976/0.788).
    # The held-back blind en13 / zh15 / mixed3 batches (written during round 5, measured after it at 4863818:
    # en13 0.769/0.522, zh15 0.803/0.635, mixed3 0.875/0.538) joined unworked: the union 0.957 / 0.916 ->
    # 0.945 / 0.882, floor 0.01 under.
    # Round 6 (probes en14probe / zh16probe) and the learned back-up: 0.950 / 0.889 with the probes. The blind
    # en15 / zh17 / mixed4 batches, held back during that work and measured after it at 0964cdd (en15
    # 0.719/0.535, zh17 0.816/0.667, mixed4 0.880/0.579), joined unworked: the union 0.941 / 0.883.
    # Round 7 (probes en16probe / en17probe / zh18probe): 0.956 / 0.898. The blind en16 / zh18 / mixed5 batches,
    # held back during it (0778960 -> ae41704: en16 0.872/0.701 -> 0.883/0.709, zh18 0.808/0.762 -> 0.822/0.790,
    # mixed5 0.742/0.622 -> 0.778/0.568), joined unworked: the union 0.950 / 0.887, floor 0.01 under.
    assert precision >= 0.94 and recall >= 0.877, (precision, recall)


def test_case_ids_are_unique_across_every_file():
    # Probe batches written in parallel once reused a range (p9101.., p9601..); a report names a case by id.
    seen: Counter = Counter()
    for path in sorted(CORPORA.glob("facts_*.yaml")):
        with open(path, encoding="utf-8") as handle:
            seen.update(case["id"] for case in yaml.safe_load(handle)["cases"])
    assert len(seen) > 5000 and not [case_id for case_id, count in seen.items() if count > 1]


def test_test_part_meets_the_targets(capsys):
    result = score("test")
    with capsys.disabled():
        print("\n" + table("test", result))
    precision, recall = precision_recall(*result["total"])
    with capsys.disabled():
        below = [name for name, counts in sorted(result["families"].items())
                 if counts[0] + counts[2] and precision_recall(*counts)[1] < TARGET_FAMILY_RECALL]
        print(f"issue-11 targets: precision {precision:.3f} (target {TARGET_PRECISION}), recall {recall:.3f} "
              f"(target {TARGET_RECALL}); families under {TARGET_FAMILY_RECALL} recall: {', '.join(below) or 'none'}")
    assert precision >= MIN_PRECISION, precision
    assert recall >= MIN_RECALL, recall
    low = {name: round(precision_recall(*counts)[1], 3) for name, counts in result["families"].items()
           if counts[0] + counts[2] >= MIN_FAMILY_FACTS and precision_recall(*counts)[1] < MIN_FAMILY_RECALL}
    assert not low, low
    # The time per utterance is printed, never asserted (speed lives in bench/, not in timed tests): a
    # wall-clock bound failed on a loaded machine with nothing wrong.
    with capsys.disabled():
        print(f"extraction: {result['ms']:.1f} ms per utterance over {result['cases']} cases (printed only)")
