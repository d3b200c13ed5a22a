"""What the in-process profilers (`manage.py profile_search`, `profile_context`) share: every SQL statement
timed at the driver, and a percentile. Speed claims come from bench/ over HTTP; these say where to look."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg


@contextmanager
def driver_sql_timed() -> Iterator[dict]:
    """Count and time every statement psycopg runs in this process while the block runs; yields the running
    totals {"statements", "seconds"} (reset them with `.update`). At the driver because the long-term search
    runs its prepared statement on a raw psycopg cursor that Django's execute wrappers never see."""
    totals = {"statements": 0, "seconds": 0.0}
    originals = {name: getattr(psycopg.Cursor, name) for name in ("execute", "executemany")}

    def timed(original):
        def wrapper(cursor, *args, **kwargs):
            started = time.perf_counter()
            try:
                return original(cursor, *args, **kwargs)
            finally:
                totals["statements"] += 1
                totals["seconds"] += time.perf_counter() - started
        return wrapper

    for name, original in originals.items():
        setattr(psycopg.Cursor, name, timed(original))
    try:
        yield totals
    finally:
        for name, original in originals.items():
            setattr(psycopg.Cursor, name, original)


def percentile(values: list[float], share: float) -> float:
    """The `share`-th percentile (0-100) by nearest rank; 0.0 for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share / 100 * (len(ordered) - 1))))] if ordered else 0.0
