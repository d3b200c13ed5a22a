"""(In-process, so it lives with the tests, not in bench/, whose scripts only speak HTTP.) Fit the search's fusion weights and candidate pool on the LoCoMo dev split, in-process, with
leave-one-conversation-out, and check each setting on the relevance dev part (the labelled cutoff corpus).

Loads the five dev conversations as five users of a fresh tenant (the same memories, provenance and
questions as bench/locomo_retrieval.py, written with memory_create_batch) and the relevance dev personas,
then runs every policy setting of the grid over every question through `memory_search` (hybrid, top 10,
min_score 0, the policy passed in). For each conversation held out, the setting with the best Recall@10 on
the other four is picked and measured on the held-out one: the mean of those held-out figures is what a
fitted setting is expected to give on conversations it was not fitted on, and it is compared with the
defaults measured the same way. The relevance dev part is measured at the default min_score for each
setting (precision, recall), since the cutoff's meaning must not move.

    DATABASE_URL=... EMBEDDING_PROVIDER=local .venv/bin/python tests/layers/long_term/fusion_fit.py \\
        --data ../shared/bench/locomo/locomo_dev.json --json /tmp/fusion.json

Never give it the test part of either corpus: they are only measured.
"""
from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

import django  # noqa: E402

django.setup()

from layers.long_term.policy import Policy  # noqa: E402
from layers.long_term.selectors import memory_search  # noqa: E402
from layers.long_term.services.create import memory_create_batch  # noqa: E402
from locomo_retrieval import conversation_memories, conversation_questions  # noqa: E402
from memoryhub.core.actors import Actor  # noqa: E402
from memoryhub.core.errors import InvalidInput  # noqa: E402
from memoryhub.providers.embeddings import get_embedder  # noqa: E402
from memoryhub.tenancy.models import Tenant  # noqa: E402
from tests.layers.long_term import relevance  # noqa: E402

ACTOR = Actor.system("bench.fusion_fit")
BATCH = 100


def load_locomo(tenant, samples) -> list[tuple[str, list[dict], dict[int, set[str]]]]:
    loaded = []
    for sample in samples:
        sample_id = sample["sample_id"]
        memories = conversation_memories(sample)
        questions, _skipped = conversation_questions(sample, {m["dia_id"] for m in memories})
        user_id = f"locomo-{sample_id}"
        pk_to_dia: dict[int, set[str]] = defaultdict(set)
        for start in range(0, len(memories), BATCH):
            chunk = memories[start:start + BATCH]
            items = [{"user_id": user_id, "content": m["content"], "kind": "episode", "source": "imported",
                      "attributes": {"dia_id": m["dia_id"], "sample_id": sample_id, "session": m["session"]},
                      **({"source_session_id": f"{sample_id}-S{m['session']}", "source_turn_from": m["turn"],
                          "source_turn_to": m["turn"]} if m["turn"] is not None else {})} for m in chunk]
            while items:
                try:
                    writes = memory_create_batch(tenant=tenant, actor=ACTOR, items=items)
                    break
                except InvalidInput as exc:  # drop the refused items (a turn that looks like a secret)
                    failing = {int(item["index"]) for item in (exc.details or {}).get("items", [])}
                    if not failing:
                        raise
                    items = [item for index, item in enumerate(items) if index not in failing]
                    chunk = [m for index, m in enumerate(chunk) if index not in failing]
            for m, write in zip(chunk, writes):
                pk_to_dia[write.memory.pk].add(m["dia_id"])
        loaded.append((user_id, questions, pk_to_dia))
    return loaded


def locomo_recall(tenant, loaded, policy) -> dict[str, dict]:
    """Per conversation: summed R@5 and R@10 and the question count."""
    out = {}
    for user_id, questions, pk_to_dia in loaded:
        r5 = r10 = 0.0
        for q in questions:
            results = memory_search(tenant=tenant, user_id=user_id, query=q["question"], top_k=10, mode="hybrid",
                                    min_score=0, policy=policy)
            ranked = [pk_to_dia.get(r.memory.pk, set()) for r in results]
            evidence = set(q["evidence"])
            r5 += len(set().union(*ranked[:5]) & evidence) / len(evidence) if ranked else 0
            r10 += len(set().union(*ranked[:10]) & evidence) / len(evidence) if ranked else 0
        out[user_id] = {"r5": r5, "r10": r10, "n": len(questions)}
    return out


def relevance_dev(tenant, loaded, policy) -> dict:
    """Precision and recall at the default min_score, overall and by query language."""
    totals: dict[str, relevance.Counts] = defaultdict(relevance.Counts)
    for persona, ids in loaded:
        for query in persona["queries"]:
            results = memory_search(tenant=tenant, user_id=f"rel-{persona['id']}", query=query["q"], top_k=10,
                                    policy=policy)
            kept = {ids[r.memory.pk] for r in results}
            for name in ("all", query["lang"]):
                totals[name].tp += len(kept & set(query["relevant"]))
                totals[name].fp += len(kept - set(query["relevant"]))
                totals[name].fn += len(set(query["relevant"]) - kept)
    out = {"precision": round(totals["all"].precision, 4), "recall": round(totals["all"].recall, 4),
           "tp": totals["all"].tp, "fp": totals["all"].fp, "fn": totals["all"].fn}
    out["by_lang"] = {name: [round(c.precision, 3), round(c.recall, 3)] for name, c in sorted(totals.items())
                      if name != "all"}
    return out


def pooled(per_conv: dict, users) -> tuple[float, float]:
    n = sum(per_conv[u]["n"] for u in users)
    return (sum(per_conv[u]["r5"] for u in users) / n, sum(per_conv[u]["r10"] for u in users) / n)


def grid(spec: dict[str, list]) -> list[dict]:
    names = list(spec)
    return [dict(zip(names, values)) for values in itertools.product(*(spec[name] for name in names))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(REPO.parent / "shared" / "bench" / "locomo" / "locomo_dev.json"))
    parser.add_argument("--grid", help="JSON {policy field: [values]}; default: the grid below")
    parser.add_argument("--json", help="write every setting's figures here")
    parser.add_argument("--no-relevance", action="store_true", help="skip the relevance dev part")
    parser.add_argument("--no-locomo", action="store_true", help="the relevance dev part only")
    args = parser.parse_args(argv)
    spec = json.loads(args.grid) if args.grid else {
        "vector_cosine_low": [0.15, 0.2, 0.25], "vector_cosine_high": [0.5, 0.6, 0.7],
        "hybrid_vector_share": [0.5, 0.7], "vector_only_share": [1.0], "rerank_pool": [30],
    }
    samples = json.loads(Path(args.data).read_text())
    tenant = Tenant.objects.create(slug=f"fusionfit-{uuid.uuid4().hex[:8]}", name="fusion fit")
    started = time.perf_counter()
    locomo = [] if args.no_locomo else load_locomo(tenant, samples)
    rel = [] if args.no_relevance else relevance.load_personas(tenant, relevance.DEV)
    print(f"embedder {get_embedder().name}; loaded in {time.perf_counter() - started:.0f}s; load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    users = [user for user, *_ in locomo]
    settings_list = [{}] + grid(spec)  # {} = the defaults
    rows = []
    for overrides in settings_list:
        policy = dataclasses.replace(Policy(), **overrides)
        per_conv = locomo_recall(tenant, locomo, policy)
        r5, r10 = pooled(per_conv, users) if users else (0.0, 0.0)
        row = {"overrides": overrides, "per_conversation": per_conv, "r5": round(r5, 4), "r10": round(r10, 4)}
        if rel:
            row["relevance_dev"] = relevance_dev(tenant, rel, policy)
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "per_conversation"}), flush=True)

    if not users:
        if args.json:
            Path(args.json).write_text(json.dumps({"rows": rows}, indent=1))
        return 0
    # leave one conversation out: pick on four, measure on the fifth
    held_out = []
    for user in users:
        rest = [u for u in users if u != user]
        best = max(rows, key=lambda row: pooled(row["per_conversation"], rest)[1])
        default = rows[0]
        held_out.append({"held_out": user, "picked": best["overrides"],
                         "picked_r10": round(pooled(best["per_conversation"], [user])[1], 4),
                         "default_r10": round(pooled(default["per_conversation"], [user])[1], 4)})
    n = {user: rows[0]["per_conversation"][user]["n"] for user in users}
    total = sum(n.values())
    summary = {
        "embedder": get_embedder().name,
        "loco": held_out,
        "loco_r10": round(sum(h["picked_r10"] * n[h["held_out"]] for h in held_out) / total, 4),
        "default_r10": round(sum(h["default_r10"] * n[h["held_out"]] for h in held_out) / total, 4),
        "best_all": max(rows, key=lambda row: row["r10"])["overrides"],
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
