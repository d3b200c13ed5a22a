"""Writes dev.jsonl and test.jsonl from cases.py: each case goes to the test part with probability 0.4, by a
seeded shuffle made once (seed 14). Run from this folder; the output is committed, the split never redone."""
import json
import random

from cases import PARSE, SERVE


def _variant(v):
    return {"memory_key": v[0], "value": v[1], **({"condition": v[2]} if v[2] else {})}

cases = [{"id": f"parse-{i:02d}", "type": "parse", "text": text, "expect": [_variant(v) for v in expect]}
         for i, (text, expect) in enumerate(PARSE)]
cases += [{"id": f"serve-{i:02d}", "type": "serve", "stored": [_variant(v) for v in stored], "query": query,
           **extra, "expect_served": served, "expect_conflicts": [{"index": i2, "requested": r} for i2, r in conflicts]}
          for i, (stored, query, extra, served, conflicts) in enumerate(SERVE)]
rng = random.Random(14)
rng.shuffle(cases)
cut = round(len(cases) * 0.6)
for name, part in (("dev", cases[:cut]), ("test", cases[cut:])):
    with open(f"{name}.jsonl", "w", encoding="utf-8") as out:
        for case in sorted(part, key=lambda c: c["id"]):
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
print(len(cases), cut)
