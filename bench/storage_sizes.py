#!/usr/bin/env python3
"""Bytes per memory on disk: writes `--users` × `--per-user` memories (bench/scale.py's synthetic
contents) through the running service's API (POST /api/v1/memories: validation, embedding, history,
audit), then reads the size of every relation and of the database straight from PostgreSQL
(`--database-url`, the server's own DATABASE_URL) and prints them as JSON (docs/deploy.md, "Sizes per
million memories"). HTTP and SQL only: nothing of the project is imported.

    .venv/bin/python bench/storage_sizes.py --base-url http://127.0.0.1:8000 --api-key mh_... \\
        --database-url postgres://postgres@127.0.0.1:5432/mh_sizes --users 200 --per-user 100 --json sizes.json

It writes real rows: point it at a service with a database of its own.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, Client, resolve_api_key  # noqa: E402
from scale import user_memories  # noqa: E402

BATCH = 100  # the memories API's largest batch


def relation_sizes(database_url: str) -> dict:
    import psycopg

    with psycopg.connect(database_url) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM long_term_memory")
        memories = cursor.fetchone()[0]
        cursor.execute("""SELECT c.relname, c.relkind, pg_total_relation_size(c.oid), pg_relation_size(c.oid)
                          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i') ORDER BY 3 DESC LIMIT 25""")
        relations = [{"name": name, "kind": kind, "total": total, "main": main}
                     for name, kind, total, main in cursor.fetchall()]
        cursor.execute("SELECT pg_database_size(current_database()), version()")
        database, version = cursor.fetchone()
    return {"memories": memories, "database_bytes": database, "server": version, "relations": relations}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", default=None, help="a key with write (default: $MEMORYHUB_API_KEY)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                        help="the service's database, read for sizes only (default: $DATABASE_URL)")
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--per-user", type=int, default=100)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--smoke", action="store_true", help="tiny run: 2 users × 20 memories")
    parser.add_argument("--json", default=None, help="also write the result here")
    args = parser.parse_args(argv)
    if not args.database_url:
        parser.error("--database-url (or DATABASE_URL) is needed to read the sizes")
    if args.smoke:
        args.users, args.per_user = 2, 20

    client = Client(args.base_url, resolve_api_key(args.api_key))
    client.wait_healthy()
    rng = random.Random(args.seed)
    run = uuid.uuid4().hex[:8]
    started = time.monotonic()
    for user in range(args.users):
        items = [{"user_id": f"sizes-{run}-{user}", "kind": "fact", "content": content, "client_id": f"{run}-{user}-{i}"}
                 for i, content in enumerate(user_memories(rng, args.per_user))]
        for start in range(0, len(items), BATCH):
            client.post("/api/v1/memories", {"memories": items[start:start + BATCH]})
    seconds = time.monotonic() - started
    result = {"written": args.users * args.per_user, "seconds": round(seconds, 1),
              **relation_sizes(args.database_url)}
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
