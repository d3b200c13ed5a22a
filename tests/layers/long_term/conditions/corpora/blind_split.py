"""Writes blind_dev.jsonl and blind_test.jsonl from blind_cases.py: a seeded shuffle made once (seed 1405), the
first 40% to the test part. Run from this folder; the output is committed, the split never redone."""
import json
import random

from blind_cases import PARSE, SERVE


def _variant(v):
    return {"memory_key": v[0], "value": v[1], **({"condition": v[2]} if v[2] else {})}

cases = [{"id": f"blind-parse-{i:02d}", "type": "parse", "text": text, "expect": [_variant(v) for v in expect]}
         for i, (text, expect) in enumerate(PARSE)]
cases += [{"id": f"blind-serve-{i:02d}", "type": "serve", "stored": [_variant(v) for v in stored], "query": query,
           **extra, "expect_served": served, "expect_conflicts": [{"index": i2, "requested": r} for i2, r in conflicts]}
          for i, (stored, query, extra, served, conflicts) in enumerate(SERVE)]
rng = random.Random(1405)
rng.shuffle(cases)
cut = round(len(cases) * 0.4)
for name, part in (("blind_test", cases[:cut]), ("blind_dev", cases[cut:])):
    with open(f"{name}.jsonl", "w", encoding="utf-8") as out:
        for case in sorted(part, key=lambda c: c["id"]):
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
print(len(cases), "cases;", cut, "to blind_test")
