#!/usr/bin/env python3
"""Bytes per memory on disk: writes `--users` × `--per-user` memories (bench/scale.py's synthetic
contents) through the service's own write path (memory_create_batch: validation, embedding, history,
one audit event per batch) into tenant `--tenant` of DATABASE_URL, then prints the size of every
relation and of the database as JSON (docs/deploy.md, "Sizes per million memories").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mh_sizes REDIS_URL=redis://127.0.0.1:6379/14 \
        .venv/bin/python bench/storage_sizes.py --users 200 --per-user 100 > sizes.json

It writes real rows: point it at a database of its own.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenant", default="sizes")
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--per-user", type=int, default=100)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)

    import django
    django.setup()
    from django.db import connection
    from scale import user_memories

    from layers.long_term.services.create import memory_create_batch
    from memoryhub.core.actors import Actor
    from memoryhub.tenancy.services import tenant_get_or_create

    tenant, _ = tenant_get_or_create(slug=args.tenant)
    rng = random.Random(args.seed)
    started = time.monotonic()
    for user in range(args.users):
        items = [{"user_id": f"user{user}", "kind": "fact", "content": content, "client_id": f"s{user}-{i}"}
                 for i, content in enumerate(user_memories(rng, args.per_user))]
        memory_create_batch(tenant=tenant, actor=Actor.system("storage sizes"), items=items)
    seconds = time.monotonic() - started
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM long_term_memory")
        memories = cursor.fetchone()[0]
        cursor.execute("""SELECT c.relname, c.relkind, pg_total_relation_size(c.oid), pg_relation_size(c.oid)
                          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i') ORDER BY 3 DESC LIMIT 25""")
        relations = [{"name": name, "kind": kind, "total": total, "main": main}
                     for name, kind, total, main in cursor.fetchall()]
        cursor.execute("SELECT pg_database_size(current_database()), version()")
        database, version = cursor.fetchone()
    print(json.dumps({"memories": memories, "written": args.users * args.per_user, "seconds": round(seconds, 1),
                      "database_bytes": database, "server": version, "relations": relations}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
