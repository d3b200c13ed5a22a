#!/usr/bin/env python3
"""What the Python client (clients/python, memoryhub_client) costs over a bare HTTP call: the same
search and the same one-memory write, through bench/_client.py (stdlib, JSON in and out) and through
MemoryhubClient (request validation, typed pydantic answers, client ids, the retry loop).

Calls alternate bare / client so both see the same load, and each client answer is checked against the
bare one (the same memory ids in the same order), so the figure is for equal work.

    .venv/bin/python bench/client_overhead.py --base-url http://127.0.0.1:8000 --api-key mh_... --json /tmp/c.json
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, Client, OVERHEAD_QUERIES, latency_summary, resolve_api_key  # noqa: E402
from memoryhub_client import MemoryhubClient  # noqa: E402
from scale import user_memories  # noqa: E402

WARM_UP = 3


def _timed(call):
    started = time.perf_counter()
    answer = call()
    return answer, (time.perf_counter() - started) * 1000


def run(bare: Client, typed: MemoryhubClient, *, memories: int, calls: int) -> dict:
    user = f"client-bench-{uuid.uuid4().hex[:8]}"
    items = user_memories(random.Random(7), memories)  # bench/scale.py's zh/en templates
    for start in range(0, len(items), 100):
        typed.create_memories([{"user_id": user, "kind": "fact", "content": content}
                               for content in items[start:start + 100]])
    queries = OVERHEAD_QUERIES
    times = {"bare_search": [], "client_search": [], "bare_write": [], "client_write": []}
    for index in range(WARM_UP + calls):
        query = {"user_id": user, "query": queries[index % len(queries)], "top_k": 10}
        (plain, _), bare_ms = _timed(lambda: bare.post("/api/v1/memories/search", query))
        answer, client_ms = _timed(lambda: typed.search_memories(**query))
        if [hit.id for hit in answer.results] != [hit["id"] for hit in plain["results"]]:
            raise SystemExit(f"the client and the bare call disagree on {query['query']!r}")
        memory = {"user_id": user, "kind": "event", "content": f"{user} booked table {index} for Friday"}
        _, bare_write_ms = _timed(lambda: bare.post("/api/v1/memories", {**memory, "client_id": f"bare-{index}"}))
        _, client_write_ms = _timed(lambda: typed.create_memory({**memory, "content": memory["content"] + " (typed)"}))
        if index >= WARM_UP:
            times["bare_search"].append(bare_ms)
            times["client_search"].append(client_ms)
            times["bare_write"].append(bare_write_ms)
            times["client_write"].append(client_write_ms)
    result = {name: latency_summary(values) for name, values in times.items()}
    result["overhead_ms"] = {
        "search_p50": round(result["client_search"]["p50_ms"] - result["bare_search"]["p50_ms"], 2),
        "write_p50": round(result["client_write"]["p50_ms"] - result["bare_write"]["p50_ms"], 2)}
    result["memories"], result["user_id"] = len(items), user
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", default=None, help="a key with read and write (default: $MEMORYHUB_API_KEY)")
    parser.add_argument("--memories", type=int, default=500, help="memories of the one user searched")
    parser.add_argument("--calls", type=int, default=200, help="measured calls per path")
    parser.add_argument("--smoke", action="store_true", help="tiny run: 20 memories, 5 calls")
    parser.add_argument("--json", default=None, help="also write the result here")
    args = parser.parse_args(argv)
    if args.smoke:
        args.memories, args.calls = 20, 5
    api_key = resolve_api_key(args.api_key)
    bare = Client(args.base_url, api_key)
    bare.wait_healthy()
    with MemoryhubClient(args.base_url, api_key, timeout=60) as typed:
        result = run(bare, typed, memories=args.memories, calls=args.calls)
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
