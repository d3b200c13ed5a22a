#!/usr/bin/env python3
"""LoCoMo end to end through sessions: what formation keeps, served by the context endpoint.

Each conversation is replayed once per speaker, as that speaker's own user (fresh ids per run): every
LoCoMo session becomes one memoryhub session, the speaker's turns role `user` and the other's
`assistant`, each with the session's date as `occurred_at` and its dia_id as `client_id`; then the
session is ended and formation runs (the server's own worker, offline default). Every category 1-4
question is then asked through `POST /api/v1/context` (default budget) for the speaker it names (both
when it names both or neither). A question's evidence turn counts as represented when the returned
context drew on a memory whose provenance covers it (same session, turn range) or when the context
holds the turn's words. Reported: evidence coverage (mean share of a question's evidence represented,
and the share of questions fully covered), per category; tokens used; context latency p50/p95.
`--compare FILE` puts the raw-turn benchmark's figures (bench/locomo_retrieval.py --json) beside them.

    .venv/bin/python bench/locomo_sessions.py --data ../shared/bench/locomo/locomo_dev.json \\
        --base-url http://127.0.0.1:8000 --api-key mh_... --json /tmp/locomo_sessions.json

`--smoke` replays the built-in synthetic conversation of bench/locomo_retrieval.py and asks its
questions, then erases its users if the key may. HTTP only: no Django, nothing of the project.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
import uuid
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, ApiError, Client, percentile, resolve_api_key  # noqa: E402
from locomo_retrieval import (  # noqa: E402
    _EVIDENCE_RE, DEFAULT_DATA, SMOKE_SAMPLE, conversation_questions,
)

TURN_BATCH = 100
# Formation is done for a user when their memory count stayed the same this long (seconds).
SETTLE_SECONDS = 4.0
SETTLE_TIMEOUT = 900.0
_WORDS = re.compile(r"\w+", re.UNICODE)


def locomo_date(text: str) -> str | None:
    """"1:56 pm on 8 May, 2023" → an ISO 8601 time in UTC (LoCoMo gives no zone)."""
    match = re.match(r"\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", text or "", re.I)
    if not match:
        return None
    hour, minute, half, day, month, year = match.groups()
    moment = datetime.strptime(f"{day} {month} {year} {int(hour) % 12 + (12 if half.lower() == 'pm' else 0)}:{minute}",
                               "%d %B %Y %H:%M").replace(tzinfo=timezone.utc)
    return moment.isoformat()


def sessions_of(sample: dict) -> list[dict]:
    """[{number, date, turns: [{dia_id, speaker, text, turn}]}] in order."""
    conv = sample["conversation"]
    keys = sorted((k for k in conv if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1]))
    out = []
    for key in keys:
        turns = []
        for turn in conv[key]:
            said, caption = (turn.get("text") or "").strip(), (turn.get("blip_caption") or "").strip()
            text = said + (f" [image: {caption}]" if caption else "")
            match = _EVIDENCE_RE.match(turn["dia_id"])
            if text and match:
                turns.append({"dia_id": turn["dia_id"], "speaker": turn.get("speaker"), "text": text,
                              "turn": int(match.group(2))})
        out.append({"number": int(key.split("_")[1]), "date": locomo_date(conv.get(f"{key}_date_time", "")),
                    "turns": turns})
    return out


def speakers_named(question: str, speakers: list[str]) -> list[str]:
    named = [s for s in speakers if re.search(rf"\b{re.escape(s)}\b", question, re.I)]
    return named if len(named) == 1 else speakers


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORDS.findall(text or "") if len(w) > 2}


class Replay:
    def __init__(self, client: Client, run_id: str):
        self.client, self.run_id = client, run_id
        self.users: dict[tuple[str, str], str] = {}
        self.turn_index: dict[tuple[str, str], tuple[str, int]] = {}  # (user, dia_id) -> (session_id, seq)
        self.texts: dict[tuple[str, str], str] = {}  # (sample id, dia_id) -> text: dia_ids repeat across conversations

    def user_id(self, sample_id: str, speaker: str) -> str:
        return self.users.setdefault((sample_id, speaker), f"locomo-{self.run_id}-{sample_id}-{speaker}".lower())

    def replay(self, sample: dict) -> None:
        conv = sample["conversation"]
        speakers = [conv["speaker_a"], conv["speaker_b"]]
        for session in sessions_of(sample):
            for turn in session["turns"]:
                self.texts[(sample["sample_id"], turn["dia_id"])] = turn["text"]
            for speaker in speakers:
                user = self.user_id(sample["sample_id"], speaker)
                session_id = f"{user}-s{session['number']}"
                self.client.post("/api/v1/sessions", {"session_id": session_id, "user_id": user})
                items = [{"role": "user" if turn["speaker"] == speaker else "assistant", "content": turn["text"],
                          "client_id": turn["dia_id"], **({"occurred_at": session["date"]} if session["date"] else {})}
                         for turn in session["turns"]]
                for start in range(0, len(items), TURN_BATCH):
                    body, _ = self.client.post(f"/api/v1/sessions/{session_id}/turns",
                                               {"turns": items[start:start + TURN_BATCH]})
                    for item, stored in zip(items[start:start + TURN_BATCH], body["turns"]):
                        self.turn_index[(user, item["client_id"])] = (session_id, stored["seq"])
                self.client.post(f"/api/v1/sessions/{session_id}/end", {})

    def settle(self, users: list[str]) -> dict[str, int]:
        """Wait until formation has stopped adding memories for every user (the newest memory id of each
        stayed the same for SETTLE_SECONDS); the number of memories each ended with."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        newest: dict[str, object] = {user: None for user in users}
        stable_since = time.monotonic()
        while time.monotonic() < deadline:
            changed = False
            for user in users:
                body, _ = self.client.request("GET", f"/api/v1/memories?user_id={user}&limit=1")
                top = body["results"][0]["id"] if body["results"] else None
                if top != newest[user]:
                    newest[user], changed = top, True
            if changed:
                stable_since = time.monotonic()
            elif all(newest.values()) and time.monotonic() - stable_since >= SETTLE_SECONDS:
                break
            time.sleep(0.5)
        return {user: self._count(user) for user in users}

    def _count(self, user: str) -> int:
        total, cursor = 0, None
        while True:
            body, _ = self.client.request(
                "GET", f"/api/v1/memories?user_id={user}&limit=200" + (f"&cursor={cursor}" if cursor else ""))
            total += len(body["results"])
            cursor = body.get("next_cursor")
            if not cursor:
                return total


def _provenance(client: Client, memory_id: str, cache: dict) -> tuple[str | None, int | None, int | None]:
    if memory_id not in cache:
        try:
            body, _ = client.request("GET", f"/api/v1/memories/{memory_id}")
            cache[memory_id] = (body.get("source_session_id"), body.get("source_turn_from"), body.get("source_turn_to"))
        except ApiError:
            cache[memory_id] = (None, None, None)
    return cache[memory_id]


def represented(sample_id: str, dia_id: str, user: str, context: dict, replay: Replay, client: Client,
                cache: dict) -> bool:
    where = replay.turn_index.get((user, dia_id))
    ids = [source for block in context["blocks"] for source in block.get("source_ids", [])]
    if where:
        for source in ids:
            memory_id = str(source).removeprefix("memory:")  # blocks name their sources "memory:<id>"
            if not memory_id.isdigit():
                continue
            session_id, first, last = _provenance(client, memory_id, cache)
            if session_id == where[0] and first is not None and first <= where[1] <= (last or first):
                return True
    words = _words(replay.texts.get((sample_id, dia_id), ""))
    if not words:
        return False
    served = _words(" ".join(block.get("content", "") for block in context["blocks"]))
    return len(words & served) / len(words) >= 0.8


def run(args) -> dict:
    data_path = Path(args.data) if args.data else DEFAULT_DATA
    samples = json.loads(data_path.read_text()) if data_path.exists() and not args.smoke else [SMOKE_SAMPLE]
    if args.limit:
        samples = samples[:args.limit]
    client = Client(args.base_url, resolve_api_key(args.api_key))
    client.wait_healthy()
    replay = Replay(client, uuid.uuid4().hex[:8])
    started = time.monotonic()
    for sample in samples:
        replay.replay(sample)
    replay_seconds = time.monotonic() - started
    counts = replay.settle(sorted(replay.users.values()))
    formation_seconds = time.monotonic() - started - replay_seconds

    per_category: dict[int, list[float]] = defaultdict(list)
    full: list[bool] = []
    tokens, latencies, cache = [], [], {}
    for sample in samples:
        conv = sample["conversation"]
        speakers = [conv["speaker_a"], conv["speaker_b"]]
        known = {turn["dia_id"] for session in sessions_of(sample) for turn in session["turns"]}
        questions, _skipped = conversation_questions(sample, known)
        for question in questions:
            shares = []
            contexts = []
            for speaker in speakers_named(question["question"], speakers):
                user = replay.user_id(sample["sample_id"], speaker)
                body, elapsed = client.post("/api/v1/context", {"user_id": user, "query": question["question"]})
                latencies.append(elapsed)  # the client measures milliseconds
                tokens.append(body.get("token_count", 0))
                contexts.append((user, body))
            for dia_id in question["evidence"]:
                shares.append(any(represented(sample["sample_id"], dia_id, user, body, replay, client, cache)
                                  for user, body in contexts))
            share = sum(shares) / len(shares)
            per_category[question["category"]].append(share)
            full.append(all(shares))
    everything = [share for shares in per_category.values() for share in shares]
    report = {
        "data": str(data_path) if not args.smoke else "smoke", "conversations": len(samples),
        "users": len(replay.users), "memories_formed": sum(counts.values()),
        "replay_seconds": round(replay_seconds, 1), "formation_settle_seconds": round(formation_seconds, 1),
        "questions": len(everything),
        "evidence_coverage": round(sum(everything) / len(everything), 4) if everything else None,
        "questions_fully_covered": round(sum(full) / len(full), 4) if full else None,
        "per_category": {str(c): {"questions": len(v), "coverage": round(sum(v) / len(v), 4)}
                         for c, v in sorted(per_category.items())},
        "context_tokens": {"mean": round(sum(tokens) / len(tokens), 1) if tokens else None,
                           "p95": percentile(tokens, 95)},
        "context_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95)},
    }
    if args.compare:
        raw = json.loads(Path(args.compare).read_text())
        report["raw_turns"] = {mode: raw[mode]["overall"] for mode in ("keyword", "vector", "hybrid") if mode in raw}
    if args.smoke or args.cleanup:
        for user in replay.users.values():
            try:
                client.request("DELETE", f"/api/v1/users/{user}")
            except ApiError:
                pass  # the key may lack `admin`; the run's user ids are fresh anyway
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", help="API key with write scope (default $MEMORYHUB_API_KEY)")
    parser.add_argument("--data", help=f"LoCoMo JSON (default {DEFAULT_DATA})")
    parser.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    parser.add_argument("--compare", help="JSON of bench/locomo_retrieval.py to report beside")
    parser.add_argument("--cleanup", action="store_true", help="erase the run's users afterwards (admin key)")
    parser.add_argument("--smoke", action="store_true", help="the built-in tiny conversation only")
    parser.add_argument("--json", help="write the report here")
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps(report, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    if args.smoke and not report["questions"]:
        print("smoke: no question was asked", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
