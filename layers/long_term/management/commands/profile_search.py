"""Where a search's time goes, in-process: embedding, SQL, and the rest of the service, per search.

Moved here from `bench/scale.py --profile` (bench talks HTTP only and imports neither Django nor the
project). Queries are words drawn from the tenant's own stored memories, so it measures what a real
user's searches touch. Speed claims come from bench/ over HTTP; this says where to look.
"""
from __future__ import annotations

import json
import random
import re
import time

from django.core.management.base import BaseCommand, CommandError

from layers.long_term.models import Memory
from layers.long_term.selectors import memory_search
from memoryhub.core.profiling import driver_sql_timed, percentile
from memoryhub.providers.embeddings import get_embedder
from memoryhub.tenancy.selectors import tenant_named


class Command(BaseCommand):
    help = "Profile hybrid search in-process for one tenant: mean time in embedding, SQL and the rest."

    def add_arguments(self, parser):
        parser.add_argument("tenant", help="tenant slug")
        parser.add_argument("--searches", type=int, default=200)
        parser.add_argument("--call-tree", action="store_true", help="also print a pyinstrument call tree")

    def handle(self, *args, **options):
        tenant = tenant_named(options["tenant"])
        sample = list(Memory.objects.filter(tenant=tenant).order_by("?").values_list("user_id", "content")[:500])
        if not sample:
            raise CommandError("the tenant has no memories to search")
        rng = random.Random(0)
        searches = []
        for _ in range(max(1, options["searches"])):
            user_id, content = rng.choice(sample)
            words = re.findall(r"\w+", content) or [content]
            searches.append((user_id, " ".join(rng.sample(words, min(3, len(words))))))
        timings = {"embedding": 0.0}
        embedder = get_embedder()
        original_embed = embedder.embed

        def timed_embed(texts):
            started = time.perf_counter()
            try:
                return original_embed(texts)
            finally:
                timings["embedding"] += time.perf_counter() - started

        # wrap this process's embedder only; the SQL is timed at the driver (memoryhub/core/profiling.py)
        embedder.embed = timed_embed
        try:
            with driver_sql_timed() as sql:
                for user_id, query in searches[:5]:  # warm up: weights, dictionary, prepared statement
                    memory_search(tenant=tenant, user_id=user_id, query=query)
                timings.update(embedding=0.0)
                sql.update(statements=0, seconds=0.0)
                per_search = []
                started = time.perf_counter()
                for user_id, query in searches:
                    t0 = time.perf_counter()
                    memory_search(tenant=tenant, user_id=user_id, query=query)
                    per_search.append((time.perf_counter() - t0) * 1000)
                total = time.perf_counter() - started
                if options["call_tree"]:
                    from pyinstrument import Profiler

                    profiler = Profiler(interval=0.0005)
                    profiler.start()
                    for user_id, query in searches:
                        memory_search(tenant=tenant, user_id=user_id, query=query)
                    profiler.stop()
                    self.stdout.write(profiler.output_text(unicode=False, color=False, show_all=False))
        finally:
            embedder.embed = original_embed
        n = len(searches)
        self.stdout.write(json.dumps({
            "searches": n,
            "ms": {"mean": round(total / n * 1000, 2), "p50": round(percentile(per_search, 50), 2),
                   "p95": round(percentile(per_search, 95), 2)},
            "mean_ms": {"embedding": round(timings["embedding"] / n * 1000, 2),
                        "sql": round(sql["seconds"] / n * 1000, 2),
                        "rest": round((total - timings["embedding"] - sql["seconds"]) / n * 1000, 2)},
        }, indent=2))
