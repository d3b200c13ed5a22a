"""Where a turn append's time goes, in-process: `manage.py profile_turns TENANT --api-key K`.

Sends one-user-turn appends (`POST /api/v1/sessions/{id}/turns`, as bench/scale.py and a chat client send them)
through Django's test client (every middleware, no socket) to sessions of its own, and reports per append: time,
process CPU, SQL statements and Redis round trips (memoryhub/core/profiling.py); with `--parts`, the wall and CPU
time of each part of the append (authentication, validation, token counting, the safety checks,
the session lock, the idempotency read, the INSERT, the annotators, the formation receivers, the commit and the
after-commit publish) and, with `--floors`, what each costs with nothing around it (the same statement run alone
in a rolled-back transaction, the same function on the same texts), so each part reads as a ratio to its floor.
CPU times and statement counts do not depend on the machine's load; wall times do. Speed claims come from bench/
over HTTP; this says where to look.
"""
from __future__ import annotations

import io
import json
import os
import random
import re
import time
from collections import defaultdict
from contextlib import ExitStack, contextmanager

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections, transaction
from django.test import Client

from layers.short_term import apis
from layers.short_term.services import turns as turn_service
from memoryhub.core.profiling import api_key_given, calls_profiled, driver_sql_timed, ms_summary
from memoryhub.providers.tokens import count_tokens
from memoryhub.safety.secrets import redact_secrets
from memoryhub.tenancy.auth import ApiKeyAuthentication
from memoryhub.tenancy.selectors import tenant_named

# Varied user turns: statements, questions, pronouns to resolve, a reminder, a routine request, both languages.
TURNS = [
    "I need a restaurant for Friday evening, somewhere quiet.",
    "she liked the blue one more than the red one",
    "what did I tell you about my sister's birthday?",
    "我下周要去北京出差，帮我记一下",
    "我对花生过敏，点菜的时候注意一下",
    "remind me to call my mother tomorrow at 6pm",
    "播放白噪音",
    "I switched to a new job at Acme last week, as a data engineer",
    "那家店还开着吗？",
    "travel plans to Osaka in September, any ideas?",
    "my daughter Emma is 7 and loves swimming",
    "帮我看看明天上海的天气",
    "ok thanks, that works",
    "can you book it for two people at 7?",
    "我每周二晚上去健身房",
    "what was the name of that hotel we talked about?",
]

# Statements by what they do, from their text (first match wins).
_STATEMENTS = [
    ("api key lookup", re.compile(r'^SELECT k\."id"', re.S)),
    ("session lock (SELECT ... FOR NO KEY UPDATE)", re.compile(r'FROM "short_term_session".*FOR NO KEY UPDATE', re.S)),
    ("session read", re.compile(r'^SELECT .*FROM "short_term_session"', re.S)),
    ("idempotency read (stored client ids)", re.compile(r'^SELECT .*FROM "short_term_turn"', re.S)),
    ("turn INSERT", re.compile(r'^INSERT INTO "short_term_turn"')),
    ("session UPDATE", re.compile(r'^UPDATE "short_term_session"')),
    ("outbox", re.compile(r"outbox_outboxtask")),
    ("savepoints", re.compile(r"^(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)")),
    ("BEGIN / COMMIT", re.compile(r"^(BEGIN|COMMIT)")),
    ("transient (entity registry, resolutions)", re.compile(r'"transient_')),
    ("reminders", re.compile(r'"reminders_|audit_')),
    ("formation", re.compile(r'"formation_')),
]


def _statement_kind(query) -> str:
    text = query.decode() if isinstance(query, bytes) else str(query)
    text = text.strip()
    for name, pattern in _STATEMENTS:
        if pattern.search(text):
            return name
    return "other: " + text[:60]


class _Parts:
    """Inclusive wall and thread-CPU time of named callables, and SQL time by statement kind, per append."""

    def __init__(self):
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self.sql: dict[str, list] = defaultdict(lambda: [0, 0.0])

    def wrap(self, label: str, function):
        def timed(*args, **kwargs):
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.wall[label] += time.perf_counter() - wall
                self.cpu[label] += time.thread_time() - cpu
        return timed

    @contextmanager
    def patched(self, owner, name: str, label: str):
        """`owner.name` timed while the block runs; an attribute it inherits (a method of a base class, a bound
        method of an instance) is deleted again afterwards, its own is put back."""
        own = vars(owner).get(name)
        setattr(owner, name, self.wrap(label, getattr(owner, name)))
        try:
            yield
        finally:
            if own is None:
                delattr(owner, name)
            else:
                setattr(owner, name, own)

    def statements_classified(self):
        """SQL time by statement kind while the block runs (the profilers' one driver hook)."""
        def counted(query, seconds):
            entry = self.sql[_statement_kind(query)]
            entry[0] += 1
            entry[1] += seconds
        return driver_sql_timed(on_statement=counted)

    def report(self, appends: int) -> dict:
        per = max(1, appends)
        return {
            "functions_ms": {label: {"wall": round(self.wall[label] / per * 1000, 3),
                                     "cpu": round(self.cpu[label] / per * 1000, 3)} for label in self.wall},
            "sql_by_kind": {kind: {"statements": round(count / per, 2), "ms": round(seconds / per * 1000, 3)}
                            for kind, (count, seconds) in sorted(self.sql.items(), key=lambda item: -item[1][1])},
        }


def _timed_each(call, items) -> dict:
    values = []
    for item in items:
        started = time.perf_counter()
        call(item)
        values.append((time.perf_counter() - started) * 1000)
    return ms_summary(values, digits=3)


def _floors(session_pk: int, texts: list[str]) -> dict:
    """Each part with nothing around it: the statements alone on this connection, in transactions rolled back
    (nothing stays), and the functions alone on the same texts."""
    def in_rollback(sql: str, params: list):
        def run(_item):
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute(sql, params)
                transaction.set_rollback(True)
        return run

    insert = ('INSERT INTO short_term_turn (session_id, seq, role, content, token_count, tool_name, client_id, '
              "redactions, appended_by, occurred_at, created_at) VALUES (%s, 2147483647, 'user', %s, 10, '', NULL, "
              "'[]', 'profile', NULL, now())")
    rounds = range(100)
    return {
        "empty transaction (BEGIN, SELECT 1, ROLLBACK)": _timed_each(in_rollback("SELECT 1", []), rounds),
        "session lock alone": _timed_each(in_rollback(
            "SELECT id FROM short_term_session WHERE id = %s FOR NO KEY UPDATE", [session_pk]), rounds),
        "turn INSERT alone": _timed_each(in_rollback(insert, [session_pk, texts[0]]), rounds),
        "entity registry read alone": _timed_each(in_rollback(
            "SELECT * FROM transient_sessionentity WHERE session_id = %s", [session_pk]), rounds),
        "outbox row INSERT alone": _timed_each(in_rollback(
            "INSERT INTO outbox_outboxtask (task_name, args, kwargs, dedupe_key, created_at, attempts, last_error) "
            "VALUES ('profile', '[]', '{}', '', now(), 0, '')", []), rounds),
        "token counting alone (each text)": _timed_each(count_tokens, texts),
        "secret redaction alone (each text)": _timed_each(redact_secrets, texts),
    }


class Command(BaseCommand):
    help = "Profile one-turn appends in-process through the whole Django stack: time, SQL, parts and floors."

    def add_arguments(self, parser):
        parser.add_argument("tenant", help="tenant slug (the API key's)")
        parser.add_argument("--api-key", help="an API key of the tenant with write scope (default $MEMORYHUB_API_KEY)")
        parser.add_argument("--appends", type=int, default=200)
        parser.add_argument("--sessions", type=int, default=30, help="sessions the appends are spread over")
        parser.add_argument("--parts", action="store_true", help="also time each part of the append")
        parser.add_argument("--floors", action="store_true", help="also each part alone (see the module's doc)")
        parser.add_argument("--top", type=int, default=0, help="print the N functions with most cumulative time")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, **options):
        tenant = tenant_named(options["tenant"])
        key = api_key_given(options["api_key"])
        client = Client(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_HOST="127.0.0.1")
        rng = random.Random(options["seed"])
        run = f"{time.strftime('%Y%m%d%H%M%S')}-{rng.getrandbits(24):06x}"

        def post(path: str, body: dict, expect: tuple[int, ...]):
            response = client.post(path, data=json.dumps(body), content_type="application/json")
            if response.status_code not in expect:
                raise CommandError(f"POST {path} -> {response.status_code}: {response.content[:300]!r}")
            return response

        sessions = []
        for index in range(max(1, options["sessions"])):
            session_id = f"profile-turns-{run}-{index}"
            post("/api/v1/sessions", {"session_id": session_id, "user_id": f"profile-turns-{run}-u{index}"}, (201,))
            sessions.append(session_id)
        appends = [(rng.choice(sessions), rng.choice(TURNS)) for _ in range(max(1, options["appends"]))]

        def send(item):
            session_id, content = item  # a fresh client id each time: every pass stores a new turn
            post(f"/api/v1/sessions/{session_id}/turns",
                 {"turns": [{"role": "user", "content": content, "client_id": f"t-{rng.getrandbits(64):016x}"}]}, (201,))

        figures = calls_profiled(send, appends, top=options["top"], warm_up=5)
        out = {"appends": len(appends), "sessions": len(sessions), "ms": figures["ms"], "sql_per_append": figures["sql"],
               "redis_round_trips_per_append": figures["redis_round_trips"], "loadavg": list(os.getloadavg())}
        if options["parts"]:
            out["parts"] = self._parts(send, appends)
        if options["floors"]:
            from layers.short_term.models import Session

            session_pk = Session.objects.get(tenant=tenant, session_id=sessions[0]).pk
            out["floors_ms"] = _floors(session_pk, [content for _session, content in appends])
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
        if figures.get("top"):
            self.stdout.write(figures["top"])
            own = io.StringIO()
            figures["stats"].stream = own
            figures["stats"].sort_stats("tottime").print_stats(options["top"])
            self.stdout.write(own.getvalue())

    def _parts(self, send, appends) -> dict:
        parts = _Parts()
        base_wrapper = type(connections["default"])
        annotators = dict(turn_service.append_annotators)
        with ExitStack() as stack:
            for owner, name, label in [
                (ApiKeyAuthentication, "authenticate", "authentication (API key)"),
                (apis.SessionTurnsApi.TurnsAppendInput, "is_valid", "input validation (DRF)"),
                (turn_service, "_prepare", "prepare (validation, token counting, safety checks)"),
                (turn_service, "count_tokens", "  token counting"),
                (turn_service, "redact_secrets", "  secret redaction"),
                (turn_service, "secrets_in_json", "  secret check of the tool name"),
                (turn_service, "_append_locked", "append transaction (lock to commit and after-commit hooks)"),
                (turn_service, "_store", "  store (idempotency read, INSERT, session UPDATE, receivers, annotators)"),
                (turn_service.turns_appended, "send", "    formation receivers (turns_appended)"),
                (base_wrapper, "_commit", "  COMMIT"),
                (base_wrapper, "run_and_clear_commit_hooks", "  after-commit hooks (outbox publish)"),
            ]:
                stack.enter_context(parts.patched(owner, name, label))
            for name, annotate in annotators.items():
                turn_service.append_annotators[name] = parts.wrap(f"    annotator {name}", annotate)
            stack.callback(turn_service.append_annotators.update, annotators)
            stack.enter_context(parts.statements_classified())
            for item in appends[:5]:
                send(item)
            parts.__init__()
            started = time.perf_counter()
            cpu = time.thread_time()
            for item in appends:
                send(item)
            total, cpu = time.perf_counter() - started, time.thread_time() - cpu
        report = parts.report(len(appends))
        report["functions_ms"] = {"request (whole)": {"wall": round(total / len(appends) * 1000, 3),
                                                      "cpu": round(cpu / len(appends) * 1000, 3)},
                                  **report["functions_ms"]}
        return report
