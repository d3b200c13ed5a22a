"""What the in-process profilers (`manage.py profile_search`, `profile_context`, `profile_api`, `profile_turns`) share: every SQL
statement timed at the driver, every Redis round trip counted at the connection, and a percentile. Speed claims
come from bench/ over HTTP; these say where to look."""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from django.core.management.base import CommandError
from redis.connection import AbstractConnection


@contextmanager
def driver_sql_timed(on_statement: Callable[[Any, float], None] | None = None) -> Iterator[dict]:
    """Count and time every statement psycopg runs in this process while the block runs; yields the running
    totals {"statements", "seconds"} (reset them with `.update`). At the driver because the long-term search
    runs its prepared statement on a raw psycopg cursor that Django's execute wrappers never see.
    `on_statement(query, seconds)`, when given, is told of each one (to sort them by what they do)."""
    totals = {"statements": 0, "seconds": 0.0}
    originals = {name: getattr(psycopg.Cursor, name) for name in ("execute", "executemany")}

    def timed(original):
        def wrapper(cursor, query, *args, **kwargs):
            started = time.perf_counter()
            try:
                return original(cursor, query, *args, **kwargs)
            finally:
                seconds = time.perf_counter() - started
                totals["statements"] += 1
                totals["seconds"] += seconds
                if on_statement is not None:
                    on_statement(query, seconds)
        return wrapper

    for name, original in originals.items():
        setattr(psycopg.Cursor, name, timed(original))
    try:
        yield totals
    finally:
        for name, original in originals.items():
            setattr(psycopg.Cursor, name, original)


@contextmanager
def redis_round_trips_counted() -> Iterator[dict]:
    """Count the Redis round trips this process makes while the block runs: each write of one or more packed
    commands to a connection (a pipeline is one). Yields the running total {"round_trips"}."""
    totals = {"round_trips": 0}
    original = AbstractConnection.send_packed_command

    def counted(connection, *args, **kwargs):
        totals["round_trips"] += 1
        return original(connection, *args, **kwargs)

    AbstractConnection.send_packed_command = counted
    try:
        yield totals
    finally:
        AbstractConnection.send_packed_command = original


def api_key_given(option: str | None) -> str:
    """The API key a profiler sends its requests with: --api-key, else $MEMORYHUB_API_KEY."""
    key = option or os.environ.get("MEMORYHUB_API_KEY")
    if not key:
        raise CommandError("give --api-key (or set MEMORYHUB_API_KEY)")
    return key


def percentile(values: list[float], share: float) -> float:
    """The `share`-th percentile (0-100) by nearest rank; 0.0 for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share / 100 * (len(ordered) - 1))))] if ordered else 0.0


def ms_summary(values: list[float], digits: int = 2) -> dict:
    """{"mean", "p50", "p95"} of times in ms, rounded; {} for no values."""
    return {"mean": round(sum(values) / len(values), digits), "p50": round(percentile(values, 50), digits),
            "p95": round(percentile(values, 95), digits)} if values else {}


def calls_profiled(call: Callable[[Any], Any], items: list, *, warm_up: int = 5, top: int = 0) -> dict:
    """Run `call(item)` for each item after `warm_up` unrecorded calls (models, weights, prepared statements,
    caches): per call the mean/p50/p95 ms, SQL statements and ms, Redis round trips; with `top` > 0 a second,
    cProfiled pass, its `top` functions by cumulative time as text ("top") and its pstats.Stats ("stats"); the
    process's CPU time per call beside the wall time."""
    with driver_sql_timed() as sql, redis_round_trips_counted() as redis_calls:
        for item in items[:warm_up]:
            call(item)
        sql.update(statements=0, seconds=0.0)
        redis_calls.update(round_trips=0)
        per_call = []
        started, cpu_started = time.perf_counter(), time.process_time()
        for item in items:
            t0 = time.perf_counter()
            call(item)
            per_call.append((time.perf_counter() - t0) * 1000)
        total, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        statements, seconds, round_trips = sql["statements"], sql["seconds"], redis_calls["round_trips"]
        out: dict = {}
        if top:
            profiler = cProfile.Profile()
            profiler.enable()
            for item in items:
                call(item)
            profiler.disable()
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(top)
            out = {"top": text.getvalue(), "stats": pstats.Stats(profiler)}
    n = max(1, len(items))
    # this process's CPU per call: on a loaded machine nearer the work done than the wall time, which waits
    # for the CPU (PostgreSQL's and Redis's work is in their own processes, so not in it)
    return {"ms": {"mean": round(total / n * 1000, 2), "p50": round(percentile(per_call, 50), 2),
                   "p95": round(percentile(per_call, 95), 2), "process_cpu_mean": round(cpu / n * 1000, 2)},
            "sql": {"statements": round(statements / n, 2), "ms": round(seconds / n * 1000, 2)},
            "redis_round_trips": round(round_trips / n, 2), **out}
