#!/usr/bin/env python3
"""LoCoMo retrieval benchmark through memoryhub's HTTP API.

Each conversation becomes one user (a fresh user id per run, so reruns never mix); each turn becomes one
memory whose content is `[session date] speaker: text` plus ` [image: caption]` when the turn shared an
image, with `dia_id` and the sample id kept in `attributes` and the turn's place in its session sent as
provenance (`source_session_id`, `source_turn_from/to`). Every question of categories 1-4 is asked through
`POST /api/v1/memories/search` (top_k 10, min_score 0) in each mode; Recall@k is the share of a question's
evidence turns found in the first k results, averaged over questions.

    .venv/bin/python bench/locomo_retrieval.py --data ../shared/bench/locomo/locomo_dev.json \\
        --base-url http://127.0.0.1:8000 --api-key mh_... --json /tmp/locomo.json

`--smoke` loads the first two sessions of one conversation and asks a handful of questions about them (a built-in synthetic conversation when
--data is absent), then erases its users if the key may.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, ApiError, Client, percentile, resolve_api_key  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "bench" / "locomo" / "locomo_dev.json"
CATEGORIES = (1, 2, 3, 4)
MODES = ("keyword", "vector", "hybrid")
BATCH = 100
TOP_K = 10
SMOKE_QUESTIONS = 6
SMOKE_SESSIONS = 2

# A tiny conversation in LoCoMo's format, written for the smoke run (CI must not depend on the dataset).
SMOKE_SAMPLE = {
    "sample_id": "smoke-1",
    "conversation": {
        "speaker_a": "Ada", "speaker_b": "Ben",
        "session_1_date_time": "9:00 am on 3 March, 2024",
        "session_1": [
            {"speaker": "Ada", "dia_id": "D1:1", "text": "Morning Ben! I finally adopted a grey cat called Pixel."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Congrats! I spent the weekend hiking near Lake Tahoe."},
            {"speaker": "Ada", "dia_id": "D1:3", "text": "I am allergic to peanuts, so the trail mix was a no."},
            {"speaker": "Ben", "dia_id": "D1:4", "text": "My sister moved to Lisbon for a new job in design.",
             "img_url": ["x"], "blip_caption": "a photo of a tram on a hill"},
        ],
        "session_2_date_time": "6:30 pm on 20 March, 2024",
        "session_2": [
            {"speaker": "Ada", "dia_id": "D2:1", "text": "Pixel knocked my violin off the shelf yesterday."},
            {"speaker": "Ben", "dia_id": "D2:2", "text": "I started learning to bake sourdough bread."},
            {"speaker": "Ada", "dia_id": "D2:3", "text": "We should visit your sister in Portugal this summer."},
        ],
    },
    "qa": [
        {"question": "What is the name of Ada's cat?", "answer": "Pixel", "evidence": ["D1:1"], "category": 4},
        {"question": "What food is Ada allergic to?", "answer": "peanuts", "evidence": ["D1:3"], "category": 4},
        {"question": "Where does Ben's sister live?", "answer": "Lisbon", "evidence": ["D1:4; D2:3"], "category": 1},
        {"question": "When did Ben go hiking?", "answer": "early March 2024", "evidence": ["D:1:2"], "category": 2},
        {"question": "Which instrument might Ada play?", "answer": "violin", "evidence": ["D2:1"], "category": 3},
        {"question": "What is Ben learning to bake?", "answer": "sourdough", "evidence": ["D2:2"], "category": 4},
        {"question": "Did Ada mention a dog?", "adversarial_answer": "no", "evidence": [], "category": 5},
    ],
}

_EVIDENCE_RE = re.compile(r"^D:?(\d+):(\d+)$")


def normalise_evidence(evidence: list[str], known: set[str]) -> list[str]:
    """Split lists such as "D8:6; D9:17", repair "D:11:26", keep only ids of turns that exist."""
    out: list[str] = []
    for item in evidence:
        for part in re.split(r"[;,\s]+", str(item)):
            match = _EVIDENCE_RE.match(part.strip())
            if match:
                dia_id = f"D{int(match.group(1))}:{int(match.group(2))}"
                if dia_id in known and dia_id not in out:
                    out.append(dia_id)
    return out


def conversation_memories(sample: dict) -> list[dict]:
    conv = sample["conversation"]
    sessions = sorted((k for k in conv if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1]))
    out = []
    for key in sessions:
        number = int(key.split("_")[1])
        date = conv.get(f"{key}_date_time", "")
        for turn in conv[key]:
            said, caption = (turn.get("text") or "").strip(), (turn.get("blip_caption") or "").strip()
            if not said and not caption:
                continue  # nothing to remember (its id then counts as unknown evidence)
            text = f"[{date}] {turn.get('speaker', '?')}: {said}"
            if caption:
                text += f" [image: {caption}]"
            match = _EVIDENCE_RE.match(turn["dia_id"])
            turn_no = int(match.group(2)) if match else None
            out.append({"dia_id": turn["dia_id"], "session": number, "turn": turn_no, "content": text})
    return out


def conversation_questions(sample: dict, known: set[str]) -> tuple[list[dict], int]:
    questions, skipped = [], 0
    for qa in sample.get("qa", []):
        if qa.get("category") not in CATEGORIES:
            continue
        evidence = normalise_evidence(qa.get("evidence", []), known)
        if not evidence:
            skipped += 1
            continue
        questions.append({"question": qa["question"], "category": qa["category"], "evidence": evidence})
    return questions, skipped


class Loader:
    """Writes one conversation as one user, batch by batch; maps memory id -> dia_ids it stands for."""

    def __init__(self, client: Client, run_id: str, provenance: bool):
        self.client, self.run_id, self.provenance = client, run_id, provenance
        self.refused: list[str] = []
        self.not_active: list[str] = []
        self.ingest_ms: list[float] = []

    def user_id(self, sample_id: str) -> str:
        return f"locomo-{self.run_id}-{sample_id}"

    def _item(self, user_id: str, sample_id: str, mem: dict) -> dict:
        item = {
            "user_id": user_id, "content": mem["content"], "kind": "episode", "source": "imported",
            "client_id": f"{user_id}-{mem['dia_id']}",
            "attributes": {"dia_id": mem["dia_id"], "sample_id": sample_id, "session": mem["session"]},
        }
        if self.provenance and mem["turn"] is not None:
            item.update(source_session_id=f"{sample_id}-S{mem['session']}",
                        source_turn_from=mem["turn"], source_turn_to=mem["turn"])
        return item

    def load(self, sample_id: str, memories: list[dict]) -> dict[str, set[str]]:
        user_id = self.user_id(sample_id)
        id_to_dia: dict[str, set[str]] = defaultdict(set)
        for start in range(0, len(memories), BATCH):
            chunk = memories[start:start + BATCH]
            items = [self._item(user_id, sample_id, m) for m in chunk]
            for attempt in range(20):
                try:
                    body, elapsed = self.client.post("/api/v1/memories", {"memories": items})
                    self.ingest_ms.append(elapsed)
                    break
                except ApiError as exc:
                    failing = _failing_indexes(exc)
                    if exc.status != 400 or not failing:
                        raise
                    # The batch is all-or-nothing: drop the items the service refuses (e.g. a turn that
                    # looks like a secret), note them, and write the rest.
                    for index in sorted(failing, reverse=True):
                        self.refused.append(chunk[index]["dia_id"])
                        del items[index]
                        chunk = chunk[:index] + chunk[index + 1:]
                    if not items:
                        body = {"results": []}
                        break
            else:
                raise SystemExit("could not write a batch after 20 attempts")
            for mem, written in zip(chunk, body["results"]):
                id_to_dia[str(written["id"])].add(mem["dia_id"])
                status = written.get("status", "active")
                if status != "active":
                    self.not_active.append(f"{mem['dia_id']}:{status}")
        return id_to_dia


def _failing_indexes(exc: ApiError) -> list[int]:
    try:
        items = exc.body["error"]["details"]["items"]
        return sorted({int(item["index"]) for item in items})
    except (KeyError, TypeError, ValueError):
        return []


def ask(client: Client, user_id: str, question: str, mode: str) -> tuple[list[dict], float]:
    body, elapsed = client.post("/api/v1/memories/search", {
        "user_id": user_id, "query": question, "top_k": TOP_K, "mode": mode, "min_score": 0})
    return body["results"], elapsed


def run(args) -> dict:
    data_path = Path(args.data) if args.data else DEFAULT_DATA
    if data_path.exists():
        samples = json.loads(data_path.read_text())
    elif args.smoke:
        samples = [SMOKE_SAMPLE]
    else:
        raise SystemExit(f"no data at {data_path} (pass --data)")
    if args.smoke:
        samples = samples[:1]
    if args.limit_conversations:
        samples = samples[:args.limit_conversations]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for mode in modes:
        if mode not in MODES:
            raise SystemExit(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")

    client = Client(args.base_url, resolve_api_key(args.api_key), timeout=args.timeout)
    client.wait_healthy()
    run_id = time.strftime("%Y%m%d%H%M%S") + "-" + uuid.uuid4().hex[:6]
    loader = Loader(client, run_id, provenance=not args.no_provenance)

    prepared = []
    skipped_total = 0
    for sample in samples:
        memories = conversation_memories(sample)
        questions, skipped = conversation_questions(sample, {m["dia_id"] for m in memories})
        if args.smoke:
            # The first sessions only (a few dozen turns) and questions answered inside them: quick in CI.
            memories = [m for m in memories if m["session"] <= SMOKE_SESSIONS]
            kept = {m["dia_id"] for m in memories}
            questions = [q for q in questions if set(q["evidence"]) <= kept][:SMOKE_QUESTIONS]
        skipped_total += skipped
        prepared.append((sample["sample_id"], memories, questions, skipped))

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.load_clients)) as pool:
        maps = list(pool.map(lambda p: loader.load(p[0], p[1]), prepared))
    load_s = time.perf_counter() - started
    n_memories = sum(len(p[1]) for p in prepared)
    print(f"run {run_id}: loaded {n_memories} memories for {len(prepared)} users in {load_s:.1f}s "
          f"({n_memories / load_s:.0f}/s); refused {len(loader.refused)} {loader.refused[:10]}; "
          f"not active {len(loader.not_active)} {loader.not_active[:10]}", flush=True)

    jobs = []
    for (sample_id, _memories, questions, _skipped), id_to_dia in zip(prepared, maps):
        for q in questions:
            jobs.append((loader.user_id(sample_id), id_to_dia, q))

    report: dict = {}
    errors = 0
    for mode in modes:
        per_cat: dict = defaultdict(lambda: {"hits5": 0.0, "hits10": 0.0, "n": 0})
        latencies: list[float] = []

        def one(job, mode=mode):
            user_id, id_to_dia, q = job
            results, elapsed = ask(client, user_id, q["question"], mode)
            ranked: list[set[str]] = [id_to_dia.get(str(r["id"]), set()) for r in results]
            evidence = set(q["evidence"])
            found5 = set().union(*ranked[:5]) & evidence if ranked else set()
            found10 = set().union(*ranked[:10]) & evidence if ranked else set()
            return q["category"], len(found5) / len(evidence), len(found10) / len(evidence), elapsed

        with ThreadPoolExecutor(max_workers=max(1, args.clients)) as pool:
            futures = [pool.submit(one, job) for job in jobs]
            for fut in futures:
                try:
                    cat, r5, r10, elapsed = fut.result()
                except (ApiError, OSError) as exc:
                    errors += 1
                    print(f"  error: {exc}", file=sys.stderr)
                    continue
                latencies.append(elapsed)
                for key in (str(cat), "overall"):
                    per_cat[key]["hits5"] += r5
                    per_cat[key]["hits10"] += r10
                    per_cat[key]["n"] += 1

        def summary(v):
            n = v["n"]
            return {"recall@5": round(v["hits5"] / n, 4) if n else None,
                    "recall@10": round(v["hits10"] / n, 4) if n else None, "questions": n}

        overall = summary(per_cat["overall"])
        overall["skipped"] = skipped_total
        report[mode] = {
            "overall": overall,
            "per_category": {str(c): summary(per_cat[str(c)]) for c in CATEGORIES if per_cat[str(c)]["n"]},
            "latency_ms": {"p50": _round(percentile(latencies, 50)), "p95": _round(percentile(latencies, 95))},
        }
        print_mode(mode, report[mode])

    if args.smoke or args.cleanup:
        for sample_id, *_ in prepared:
            try:
                client.request("DELETE", f"/api/v1/users/{loader.user_id(sample_id)}")
            except (ApiError, OSError) as exc:
                print(f"  cleanup of {loader.user_id(sample_id)} skipped: {exc}", file=sys.stderr)
    if errors:
        print(f"{errors} search request(s) failed", file=sys.stderr)
    report_errors = {"errors": errors, "refused": loader.refused, "not_active": loader.not_active}
    return report, report_errors


def _round(value):
    return None if value is None else round(value, 2)


def print_mode(mode: str, r: dict) -> None:
    o = r["overall"]
    cats = "  ".join(f"c{c} {v['recall@5']:.3f}/{v['recall@10']:.3f} (n={v['questions']})"
                     for c, v in r["per_category"].items())
    lat = r["latency_ms"]
    print(f"{mode:8s} R@5 {o['recall@5']:.3f}  R@10 {o['recall@10']:.3f}  questions {o['questions']} "
          f"skipped {o['skipped']} | per category R@5/R@10: {cats} | latency p50 {lat['p50']} ms "
          f"p95 {lat['p95']} ms", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", help=f"LoCoMo JSON (default {DEFAULT_DATA})")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", help="API key with write scope (default $MEMORYHUB_API_KEY)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--json", help="write the figures to this path")
    parser.add_argument("--smoke", action="store_true", help="one conversation, a handful of questions")
    parser.add_argument("--clients", type=int, default=1, help="concurrent search clients (default 1)")
    parser.add_argument("--load-clients", type=int, default=2, help="concurrent users being loaded")
    parser.add_argument("--limit-conversations", type=int, default=0)
    parser.add_argument("--no-provenance", action="store_true",
                        help="do not send source_session_id / source_turn_from / source_turn_to")
    parser.add_argument("--cleanup", action="store_true", help="erase the run's users afterwards (admin scope)")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args(argv)
    report, problems = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
        print(f"wrote {args.json}")
    if problems["errors"]:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
