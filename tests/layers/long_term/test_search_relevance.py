"""Calibration of the default cutoff on the labelled relevance corpus (corpora/RELEVANCE.md).

The dev part is the one tuned on; its test prints per-group figures (and, with RELEVANCE_DUMP set, writes
every query's scored results there for sweeps). The test part is only ever measured: its test prints
aggregate precision and recall at the default `min_score`.

Issue 12 targets recall >= 0.9 at precision >= 0.7 on the test part. Not reached yet: the floors below are
the figures measured when this was written (docs/benchmarks.md, "Retrieval (issue 12)"), held so a change
that loses ground, or over-fits the dev part, fails here; raise them as the figures rise.
"""
import json
import os

import pytest

from layers.long_term.policy import Policy
from tests.layers.long_term import relevance

pytestmark = pytest.mark.django_db
DEV_FLOOR = {"precision": 0.77, "recall": 0.88}  # 0.775 / 0.884 after round 8 (28053e3)
# the dev batch written after the cue words were fitted (relevance.BLIND_DEV_BATCH): how the rules generalise
BLIND_DEV_FLOOR = {"precision": 0.75, "recall": 0.89}  # 0.761 / 0.895 after round 8
# the second blind batch (relevance.DEV2), measured as it came at 72d14fb: P 0.677 R 0.688; 0.745 / 0.891 at
# 10b926d, after rules found on it
DEV2_FLOOR = {"precision": 0.77, "recall": 0.92}  # 0.773 / 0.930 after round 8
# the third batch (relevance.DEV3), measured as it came at b614679: P 0.678 R 0.805; 0.735 / 0.930 after round 6
DEV3_FLOOR = {"precision": 0.74, "recall": 0.95}  # 0.744 / 0.953 after round 8
# the fourth batch (relevance.DEV4), held back during round 7 and measured once after it at e9fa0c8: P 0.759 R 0.791
DEV4_FLOOR = {"precision": 0.80, "recall": 0.88}  # worked in round 8: 0.815 / 0.890 at 28053e3
# the fifth batch (relevance.DEV5), held back during round 8: P 0.683 R 0.698 at 0778960, 0.684 / 0.714 at 28053e3
DEV5_FLOOR = {"precision": 0.68, "recall": 0.78}  # worked after: 0.688 / 0.786 at ceac143
TEST_FLOOR = {"precision": 0.75, "recall": 0.79}  # measured 0.751 / 0.785 at 10b926d, 0.758 / 0.794 at 658cbeb, 0.757 / 0.800 at 28053e3, 0.759 / 0.800 at ceac143


def _report(title, asked, cutoff):
    print()
    print(relevance.table(f"{title} by query language (min_score {cutoff})",
                          relevance.count(asked, cutoff, group=lambda a: a.lang)))
    print(relevance.table(f"{title} by scene", relevance.count(asked, cutoff, group=lambda a: a.scene)))


def test_dev_part_figures(tenant):
    loaded = [persona for path in (relevance.DEV, relevance.DEV2, relevance.DEV3, relevance.DEV4, relevance.DEV5)
              for persona in relevance.load_personas(tenant, path)]
    asked = relevance.ask_all(tenant, loaded, min_score=0.0)
    cutoff = Policy().min_score
    _report("relevance dev", asked, cutoff)
    dump = os.environ.get("RELEVANCE_DUMP")
    if dump:
        with open(dump, "w", encoding="utf-8") as handle:
            json.dump([{**vars(a), "relevant": sorted(a.relevant)} for a in asked], handle, ensure_ascii=False)
    batches = relevance.count(asked, cutoff, group=lambda a: relevance.batch_of(a.persona))
    print(relevance.table("relevance dev by batch", batches))
    for name, floor in (("first", DEV_FLOOR), ("blind", BLIND_DEV_FLOOR), ("dev2", DEV2_FLOOR),
                        ("dev3", DEV3_FLOOR), ("dev4", DEV4_FLOOR), ("dev5", DEV5_FLOOR)):
        counts = batches[name]
        assert counts.recall >= floor["recall"] and counts.precision >= floor["precision"], (
            name, counts.precision, counts.recall)


def test_test_part_at_the_default_cutoff(tenant):
    loaded = relevance.load_personas(tenant, relevance.TEST)
    asked = relevance.ask_all(tenant, loaded)  # the default min_score, as an API client gets it
    _report("relevance test", asked, 0.0)  # results are already cut at the default
    totals = relevance.count(asked, 0.0)["all"]
    assert totals.recall >= TEST_FLOOR["recall"], totals.recall
    assert totals.precision >= TEST_FLOOR["precision"], totals.precision
