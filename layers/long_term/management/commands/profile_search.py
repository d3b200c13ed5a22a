"""Where a search's time goes, in-process: embedding, SQL, and the rest of the service, per search.

Moved here from `bench/scale.py --profile` (bench talks HTTP only and imports neither Django nor the
project). Queries are words drawn from the tenant's own stored memories, so it measures what a real
user's searches touch; the memories are drawn by a seeded generator over the tenant's rows in id order, so
two runs (before and after a change) ask the same queries. Speed claims come from bench/ over HTTP; this
says where to look.

The process's CPU per search (`cpu_ms`) is the figure to compare on a shared machine: wall time there
waits for the CPU. It counts every thread of this process (a daemon thread's work is still paid for), and
not PostgreSQL's or Redis's, which run in their own processes. `--batched` runs each search inside
`redis_batched()`, as LatencyMiddleware runs a request (memoryhub/api/metrics.py), so its Redis writes go in
one pipeline as a request's do; `--top N` prints the N functions with most CPU time (cProfile on the process
clock) over a second pass.
"""
from __future__ import annotations

import cProfile
import io
import json
import pstats
import random
import re
import time
from contextlib import nullcontext

from django.core.management.base import BaseCommand, CommandError

from layers.long_term.models import Memory
from layers.long_term.selectors import memory_search
from memoryhub.core.profiling import driver_sql_timed, percentile, redis_round_trips_counted
from memoryhub.core.redis_batch import redis_batched
from memoryhub.providers.embeddings import get_embedder
from memoryhub.tenancy.selectors import tenant_named


class Command(BaseCommand):
    help = "Profile hybrid search in-process for one tenant: mean time in embedding, SQL and the rest."

    def add_arguments(self, parser):
        parser.add_argument("tenant", help="tenant slug")
        parser.add_argument("--searches", type=int, default=200)
        parser.add_argument("--seed", type=int, default=0, help="which memories the queries are drawn from")
        parser.add_argument("--batched", action="store_true",
                            help="each search inside redis_batched(), as a request runs (one pipeline of writes)")
        parser.add_argument("--top", type=int, default=0,
                            help="also print the N functions with most CPU time (cProfile, process clock)")
        parser.add_argument("--call-tree", action="store_true", help="also print a pyinstrument call tree")

    def handle(self, *args, **options):
        tenant = tenant_named(options["tenant"])
        rng = random.Random(options["seed"])
        ids = list(Memory.objects.filter(tenant=tenant).order_by("id").values_list("id", flat=True))
        if not ids:
            raise CommandError("the tenant has no memories to search")
        chosen = sorted(rng.sample(ids, min(500, len(ids))))
        sample = list(Memory.objects.filter(pk__in=chosen).order_by("id").values_list("user_id", "content"))
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

        def search(user_id, query):
            with redis_batched() if options["batched"] else nullcontext():
                memory_search(tenant=tenant, user_id=user_id, query=query)

        # wrap this process's embedder only; the SQL is timed at the driver (memoryhub/core/profiling.py)
        embedder.embed = timed_embed
        try:
            with driver_sql_timed() as sql, redis_round_trips_counted() as redis_calls:
                for user_id, query in searches[:5]:  # warm up: weights, dictionary, prepared statement
                    search(user_id, query)
                timings.update(embedding=0.0)
                sql.update(statements=0, seconds=0.0)
                redis_calls.update(round_trips=0)
                per_search = []
                started, cpu_started = time.perf_counter(), time.process_time()
                for user_id, query in searches:
                    t0 = time.perf_counter()
                    search(user_id, query)
                    per_search.append((time.perf_counter() - t0) * 1000)
                total, cpu = time.perf_counter() - started, time.process_time() - cpu_started
                round_trips = redis_calls["round_trips"]
                if options["top"]:
                    profiler = cProfile.Profile(time.process_time)
                    profiler.enable()
                    for user_id, query in searches:
                        search(user_id, query)
                    profiler.disable()
                    text = io.StringIO()
                    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(options["top"])
                    self.stdout.write(text.getvalue())
                if options["call_tree"]:
                    from pyinstrument import Profiler

                    profiler = Profiler(interval=0.0005)
                    profiler.start()
                    for user_id, query in searches:
                        search(user_id, query)
                    profiler.stop()
                    self.stdout.write(profiler.output_text(unicode=False, color=False, show_all=False))
        finally:
            embedder.embed = original_embed
        n = len(searches)
        self.stdout.write(json.dumps({
            "searches": n,
            "cpu_ms": round(cpu / n * 1000, 3),
            "redis_round_trips": round(round_trips / n, 2),
            "ms": {"mean": round(total / n * 1000, 2), "p50": round(percentile(per_search, 50), 2),
                   "p95": round(percentile(per_search, 95), 2)},
            "mean_ms": {"embedding": round(timings["embedding"] / n * 1000, 2),
                        "sql": round(sql["seconds"] / n * 1000, 2),
                        "rest": round((total - timings["embedding"] - sql["seconds"]) / n * 1000, 2)},
        }, indent=2))
