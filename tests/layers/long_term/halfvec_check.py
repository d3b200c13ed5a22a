"""(In-process, beside the tests: bench/ scripts only speak HTTP.) Does storing vectors at half precision (pgvector halfvec) change what the vector path returns?

Embeds every LoCoMo dev turn and question with the configured provider (memoryhub/providers/embeddings.py)
and ranks each question's conversation by cosine twice: with the float32 vectors, and with query and
memory vectors rounded to float16 as halfvec stores them (pgvector computes the distance in float32 from the
half values, as numpy does here). Reports the share of questions whose top 10 is the same list (same ids in
the same order) and the same set, the largest cosine difference, and vector-only Recall@10 both ways.

    EMBEDDING_PROVIDER=local .venv/bin/python tests/layers/long_term/halfvec_check.py --data ../shared/bench/locomo/locomo_dev.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

import django  # noqa: E402

django.setup()

from locomo_retrieval import conversation_memories, conversation_questions  # noqa: E402
from memoryhub.providers.embeddings import get_embedder  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(REPO.parent / "shared" / "bench" / "locomo" / "locomo_dev.json"))
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    embedder = get_embedder()
    same_list = same_set = questions = 0
    max_diff = 0.0
    recall = {"float32": 0.0, "halfvec": 0.0}
    for sample in json.loads(Path(args.data).read_text()):
        memories = conversation_memories(sample)
        qs, _skipped = conversation_questions(sample, {m["dia_id"] for m in memories})
        passages = embedder.embed([m["content"] for m in memories])
        queries = embedder.embed([q["question"] for q in qs])
        full = queries @ passages.T
        half = queries.astype(np.float16).astype(np.float32) @ passages.astype(np.float16).astype(np.float32).T
        max_diff = max(max_diff, float(np.abs(full - half).max()))
        for index, q in enumerate(qs):
            top_full = list(np.argsort(-full[index], kind="stable")[:10])
            top_half = list(np.argsort(-half[index], kind="stable")[:10])
            same_list += top_full == top_half
            same_set += set(top_full) == set(top_half)
            evidence = set(q["evidence"])
            for name, top in (("float32", top_full), ("halfvec", top_half)):
                recall[name] += len({memories[i]["dia_id"] for i in top} & evidence) / len(evidence)
            questions += 1
    report = {"embedder": embedder.name, "questions": questions,
              "top10_same_order": round(same_list / questions, 4), "top10_same_set": round(same_set / questions, 4),
              "max_cosine_difference": round(max_diff, 5),
              "vector_only_recall@10": {name: round(value / questions, 4) for name, value in recall.items()}}
    print(json.dumps(report, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
