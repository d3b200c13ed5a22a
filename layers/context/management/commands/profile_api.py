"""Where an API request's time goes in-process, through the whole stack: `manage.py profile_api TENANT --api-key K`.

`profile_search` and `profile_context` call the selectors; a request also pays the middleware, the API key's
authentication and scope check, the rate limit, the DRF view and its serializers, the access and layer-health
bookkeeping and the JSON rendering. This command sends `POST /api/v1/memories/search` or `POST /api/v1/context`
through Django's test client (the WSGI handler and every middleware, no socket), with bodies like
bench/scale.py's (the tenant's users; queries made of words of the user's own memories; contexts for users with
a session), and reports per request: time, SQL statements and their time (timed at the driver), Redis round
trips, and with --top N the hottest functions and the time by package (cProfile); with --floors, what the same
work costs with nothing around it: each request's search statement run again directly and its query embedded
alone. The figures other than time do not depend on the machine's load. Speed claims come from bench/ over HTTP;
this says where to look.
"""
from __future__ import annotations

import json
import random
import re
import time
from collections import defaultdict
from pathlib import Path

import psycopg
from django.core.management.base import BaseCommand, CommandError
from django.test import Client
from pgvector import HalfVector
from pgvector.psycopg.halfvec import HalfVectorBinaryDumper

from layers.long_term.models import Memory
from layers.short_term.models import Session
from memoryhub.core.pgquery import CachedStatementCursor
from memoryhub.core.profiling import api_key_given, calls_profiled, ms_summary
from memoryhub.providers.embeddings import get_embedder, query_text
from memoryhub.tenancy.selectors import tenant_named

PATHS = {"search": "/api/v1/memories/search", "context": "/api/v1/context"}
ROOT = str(Path(__file__).resolve().parents[4]) + "/"


def _package(filename: str, function: str) -> str:
    """Where a function's own time goes: the installed package (django, rest_framework, psycopg, redis, numpy…),
    the project's room or package (layers/long_term, memoryhub/api…), or a builtin by what it is (a socket wait,
    a C method of psycopg's)."""
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    if filename.startswith(ROOT):
        parts = filename[len(ROOT):].split("/")
        return "/".join(parts[:2]) if len(parts) > 2 else parts[0]
    if filename == "~":
        return "builtin " + (function.split("'")[1].split(".")[0] if "'" in function else function)
    return "python " + Path(filename).stem


def _floors(statements: list[tuple], queries: list[str]) -> dict:
    """The search statements the requests ran, run again directly (the SQL floor), and their queries embedded
    alone without the query cache (the embedding floor), in ms per request."""
    from django.db import connection

    connection.ensure_connection()
    sql_ms = []
    with CachedStatementCursor(connection.connection) as cursor:
        cursor.adapters.register_dumper(HalfVector, HalfVectorBinaryDumper)
        for query, params in statements[-len(queries):]:
            t0 = time.perf_counter()
            cursor.execute(query, params, prepare=True)
            cursor.fetchall()
            sql_ms.append((time.perf_counter() - t0) * 1000)
    embedder = get_embedder()
    embed_ms = []
    for text in queries:
        t0 = time.perf_counter()
        embedder.embed([query_text(text, embedder)])
        embed_ms.append((time.perf_counter() - t0) * 1000)
    return {"search_sql_direct_ms": ms_summary(sql_ms), "statements_replayed": len(sql_ms),
            "query_embedding_alone_ms": ms_summary(embed_ms), "embedder": embedder.name}


class Command(BaseCommand):
    help = "Profile search or context requests in-process through the whole Django stack."

    def add_arguments(self, parser):
        parser.add_argument("tenant", help="tenant slug (the API key's)")
        parser.add_argument("--api-key", help="an API key of the tenant with read scope (default $MEMORYHUB_API_KEY)")
        parser.add_argument("--kind", choices=sorted(PATHS), default="search")
        parser.add_argument("--requests", type=int, default=200)
        parser.add_argument("--top", type=int, default=0, help="print the N functions with most cumulative time")
        parser.add_argument("--floors", action="store_true",
                            help="also the floors of each request: its long-term search statement run again directly "
                                 "(prepared, on the same connection) and its query embedded alone (no cache)")

    def _bodies(self, tenant, kind: str, count: int) -> list[dict]:
        rng = random.Random(0)
        if kind == "context":
            owners = list(Session.objects.filter(tenant=tenant).order_by("id").values_list("user_id", "session_id")[:200])
            if not owners:
                raise CommandError("the tenant has no sessions to assemble contexts for")
        else:
            owners = [(user, None) for user in Memory.objects.filter(tenant=tenant).order_by("?")
                      .values_list("user_id", flat=True)[:200]]
            if not owners:
                raise CommandError("the tenant has no memories to search")
        contents: dict[str, list[str]] = {}
        bodies = []
        for _ in range(max(1, count)):
            user_id, session_id = rng.choice(owners)
            if user_id not in contents:
                contents[user_id] = list(Memory.objects.filter(tenant=tenant, user_id=user_id).order_by("id")
                                         .values_list("content", flat=True)[:100]) or ["what do you know about me?"]
            words = re.findall(r"\w+", rng.choice(contents[user_id]))
            query = " ".join(rng.sample(words, min(4, len(words)))) or "what do you know about me?"
            if kind == "search":
                bodies.append({"user_id": user_id, "query": query, "top_k": 10})
            else:
                bodies.append({"user_id": user_id, "session_id": session_id, "query": query, "token_budget": 1500})
        return bodies

    def handle(self, *args, **options):
        tenant = tenant_named(options["tenant"])
        key = api_key_given(options["api_key"])
        path = PATHS[options["kind"]]
        bodies = self._bodies(tenant, options["kind"], options["requests"])
        client = Client(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_HOST="127.0.0.1")

        def send(body):
            response = client.post(path, data=json.dumps(body), content_type="application/json")
            if response.status_code != 200:
                raise CommandError(f"POST {path} -> {response.status_code}: {response.content[:300]!r}")

        statements: list[tuple] = []
        if options["floors"]:
            def kept(cursor, query, params=None, **kwargs):
                if kwargs.get("prepare"):  # the search statement (layers/long_term/selectors/search.py)
                    statements.append((query, params))
                # looked up at each call, so the SQL timer's patch of psycopg.Cursor still sees the statement
                return psycopg.Cursor.execute(cursor, query, params, **kwargs)

            CachedStatementCursor.execute = kept
        try:
            figures = calls_profiled(send, bodies, top=options["top"], warm_up=5)
        finally:
            if options["floors"]:
                del CachedStatementCursor.execute  # inherited from psycopg.Cursor again
        floors = _floors(statements, [body["query"] for body in bodies]) if options["floors"] else None
        by_package: dict[str, float] = defaultdict(float)
        if options["top"]:
            for (filename, _line, name), (_cc, _nc, tottime, _ct, _callers) in figures["stats"].stats.items():
                by_package[_package(filename, name)] += tottime * 1000 / len(bodies)
        self.stdout.write(json.dumps({
            "kind": options["kind"], "requests": len(bodies), "ms": figures["ms"], "sql_per_request": figures["sql"],
            "redis_round_trips_per_request": figures["redis_round_trips"],
            **({"floors": floors} if floors else {}),
            **({"own_ms_by_package_under_cprofile": {name: round(ms, 3) for name, ms in sorted(
                by_package.items(), key=lambda item: -item[1])[:20]}} if by_package else {}),
        }, indent=2))
        top = figures.get("top")
        if top:
            self.stdout.write(top)
