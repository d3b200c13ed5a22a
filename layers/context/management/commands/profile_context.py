"""Where a context's time goes, in-process: `manage.py profile_context TENANT`.

Assembles contexts for users of the tenant that have a session (the sessions `bench/scale.py` opens, or any),
with queries made of words of the user's own memories, and reports per context: the mean time, the SQL
statements and their time (timed at the driver, as profile_search does), the Redis round trips, and with `--top N`
the functions of a
cProfile run that took the most cumulative time. Speed claims come from bench/ over HTTP; this says where to look.
"""
from __future__ import annotations

import json
import random
import re

from django.core.management.base import BaseCommand, CommandError

from layers.context.selectors import context_assemble
from layers.long_term.models import Memory
from layers.short_term.models import Session
from memoryhub.core.profiling import calls_profiled
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

        figures = calls_profiled(assemble, requests, top=options["top"])
        self.stdout.write(json.dumps({
            "contexts": len(requests), "ms": figures["ms"], "sql_per_context": figures["sql"],
            "redis_round_trips_per_context": figures["redis_round_trips"],
        }, indent=2))
        if figures.get("top"):
            self.stdout.write(figures["top"])
