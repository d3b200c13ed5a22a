"""Where a context's time goes, in-process: `manage.py profile_context TENANT`.

Assembles contexts for users of the tenant that have a session (the sessions `bench/scale.py` opens, or any),
with queries made of words of the user's own memories, and reports per context: the mean time, the SQL
statements and their time (timed at the driver, as profile_search does), and with `--top N` the functions of a
cProfile run that took the most cumulative time. Speed claims come from bench/ over HTTP; this says where to look.
"""
from __future__ import annotations

import cProfile
import io
import json
import pstats
import random
import re
import time

from django.core.management.base import BaseCommand, CommandError

from layers.context.selectors import context_assemble
from layers.long_term.models import Memory
from layers.short_term.models import Session
from memoryhub.core.profiling import driver_sql_timed, percentile
from memoryhub.tenancy.models import Tenant


class Command(BaseCommand):
    help = "Profile context assembly in-process for one tenant: time, SQL statements and the hottest functions."

    def add_arguments(self, parser):
        parser.add_argument("tenant", help="tenant slug")
        parser.add_argument("--contexts", type=int, default=200)
        parser.add_argument("--budget", type=int, default=1500)
        parser.add_argument("--top", type=int, default=0, help="print the N functions with most cumulative time")

    def handle(self, *args, **options):
        tenant = Tenant.objects.filter(slug=options["tenant"]).first()
        if tenant is None:
            raise CommandError(f"no tenant {options['tenant']!r}")
        sessions = list(Session.objects.filter(tenant=tenant).order_by("id").values_list("session_id", "user_id")[:200])
        if not sessions:
            raise CommandError("the tenant has no sessions to assemble contexts for")
        rng = random.Random(0)
        requests = []
        for _ in range(max(1, options["contexts"])):
            session_id, user_id = rng.choice(sessions)
            content = (Memory.objects.filter(tenant=tenant, user_id=user_id).order_by("?")
                       .values_list("content", flat=True).first()) or "what do you know about me?"
            words = re.findall(r"\w+", content) or [content]
            requests.append((user_id, session_id, " ".join(rng.sample(words, min(4, len(words))))))

        def assemble(request):
            user_id, session_id, query = request
            return context_assemble(tenant=tenant, user_id=user_id, session_id=session_id, query=query,
                                    token_budget=options["budget"])

        with driver_sql_timed() as sql:
            for request in requests[:5]:  # warm up: weights, dictionaries, prepared statements, caches
                assemble(request)
            sql.update(statements=0, seconds=0.0)
            per_context = []
            started = time.perf_counter()
            for request in requests:
                t0 = time.perf_counter()
                assemble(request)
                per_context.append((time.perf_counter() - t0) * 1000)
            total = time.perf_counter() - started
            statements, seconds = sql["statements"], sql["seconds"]
            top = ""
            if options["top"]:
                profiler = cProfile.Profile()
                profiler.enable()
                for request in requests:
                    assemble(request)
                profiler.disable()
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(options["top"])
                top = out.getvalue()
        n = len(requests)
        self.stdout.write(json.dumps({
            "contexts": n,
            "ms": {"mean": round(total / n * 1000, 2), "p50": round(percentile(per_context, 50), 2),
                   "p95": round(percentile(per_context, 95), 2)},
            "sql_per_context": {"statements": round(statements / n, 2), "ms": round(seconds / n * 1000, 2)},
        }, indent=2))
        if top:
            self.stdout.write(top)
