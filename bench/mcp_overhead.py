#!/usr/bin/env python3
"""What the MCP transport costs over REST: the same search and the same write, through
`POST /api/v1/...` and through `tools/call` on the streamable HTTP endpoint `/mcp/`.

A tool call runs its REST operation in-process (memoryhub/mcp/operations.py), so the difference is the
MCP layer alone: the JSON-RPC envelope, one event loop and SDK session manager per request, and the
inner request through Django's handler. Calls alternate REST / MCP so both see the same load. Each MCP
answer is checked against REST's (the same memory ids in the same order), so the figure is for equal work.
Then `--clients` threads search through each path in turn, for throughput under concurrency.

    .venv/bin/python bench/mcp_overhead.py --base-url http://127.0.0.1:8000 --api-key mh_... --json /tmp/mcp.json
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, Client, OVERHEAD_QUERIES, latency_summary, resolve_api_key  # noqa: E402
from scale import user_memories  # noqa: E402

WARM_UP = 3


def _tool(client: Client, name: str, arguments: dict, call_id: int) -> tuple[dict, float]:
    body, ms = client.post("/mcp/", {"jsonrpc": "2.0", "id": call_id, "method": "tools/call",
                                     "params": {"name": name, "arguments": arguments}})
    if "error" in body:
        raise SystemExit(f"MCP {name}: JSON-RPC error {body['error']}")
    result = body["result"]
    if result.get("isError"):
        raise SystemExit(f"MCP {name}: tool error {result.get('structuredContent')}")
    return result["structuredContent"], ms


def _concurrent(client: Client, user: str, queries: list[str], *, clients: int, calls: int) -> dict:
    """`clients` threads, each with its own connection, making `calls` searches through one path, then the
    other: throughput and latency under concurrency (the MCP path holds a worker thread per call like REST)."""
    out = {}
    for path in ("rest_search", "mcp_recall"):
        latencies: list[float] = []
        lock = threading.Lock()

        def work(worker: int, count: int = calls, timed: bool = True) -> None:
            for index in range(count):
                query = {"user_id": user, "query": queries[(worker + index) % len(queries)], "top_k": 10}
                if path == "rest_search":
                    _, ms = client.post("/api/v1/memories/search", query)
                else:
                    _, ms = _tool(client, "recall", query, index)
                if timed:
                    with lock:
                        latencies.append(ms)

        # Every thread's connection reaches a warm worker (each gunicorn worker loads its models on first use).
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(lambda worker: work(worker, WARM_UP, False), range(clients)))
        started = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(work, range(clients)))
        seconds = time.perf_counter() - started
        out[path] = {**latency_summary(latencies), "per_second": round(len(latencies) / seconds, 1), "clients": clients}
    return out


def run(client: Client, *, memories: int, calls: int, clients: int = 1) -> dict:
    user = f"mcp-bench-{uuid.uuid4().hex[:8]}"
    items = user_memories(random.Random(7), memories)  # bench/scale.py's zh/en templates
    for start in range(0, len(items), 100):
        client.post("/api/v1/memories", {"memories": [
            {"user_id": user, "kind": "fact", "content": content, "client_id": f"{user}-{start + offset}"}
            for offset, content in enumerate(items[start:start + 100])]})
    queries = OVERHEAD_QUERIES
    times = {"rest_search": [], "mcp_recall": [], "rest_write": [], "mcp_remember": []}
    call_id = 0
    for index in range(WARM_UP + calls):
        query = {"user_id": user, "query": queries[index % len(queries)], "top_k": 10}
        rest, rest_ms = client.post("/api/v1/memories/search", query)
        call_id += 1
        mcp, mcp_ms = _tool(client, "recall", query, call_id)
        if [hit["id"] for hit in mcp["results"]] != [hit["id"] for hit in rest["results"]]:
            raise SystemExit(f"recall and REST search disagree on {query['query']!r}")
        memory = {"user_id": user, "kind": "event", "content": f"{user} booked table {index} for Friday"}
        _, rest_write_ms = client.post("/api/v1/memories", {**memory, "client_id": f"rest-{index}"})
        call_id += 1
        _, mcp_write_ms = _tool(client, "remember", {"memories": [
            {**memory, "content": memory["content"] + " (mcp)", "client_id": f"mcp-{index}"}]}, call_id)
        if index >= WARM_UP:
            times["rest_search"].append(rest_ms)
            times["mcp_recall"].append(mcp_ms)
            times["rest_write"].append(rest_write_ms)
            times["mcp_remember"].append(mcp_write_ms)
    result = {name: latency_summary(values) for name, values in times.items()}
    if clients > 1:
        result["concurrent"] = _concurrent(client, user, queries, clients=clients, calls=calls)
    result["overhead_ms"] = {
        "search_p50": round(result["mcp_recall"]["p50_ms"] - result["rest_search"]["p50_ms"], 2),
        "write_p50": round(result["mcp_remember"]["p50_ms"] - result["rest_write"]["p50_ms"], 2)}
    result["memories"], result["user_id"] = len(items), user
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", default=None, help="a key with read and write (default: $MEMORYHUB_API_KEY)")
    parser.add_argument("--memories", type=int, default=500, help="memories of the one user searched")
    parser.add_argument("--calls", type=int, default=200, help="measured calls per path")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients for the throughput part")
    parser.add_argument("--smoke", action="store_true", help="tiny run: 20 memories, 5 calls, 2 clients")
    parser.add_argument("--json", default=None, help="also write the result here")
    args = parser.parse_args(argv)
    if args.smoke:
        args.memories, args.calls, args.clients = 20, 5, 2
    client = Client(args.base_url, resolve_api_key(args.api_key))
    client.wait_healthy()
    result = run(client, memories=args.memories, calls=args.calls, clients=args.clients)
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
