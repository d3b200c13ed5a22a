"""A psycopg cursor that converts a long statement's placeholders once per process, not on every call.

psycopg turns `%s` placeholders into `$1, $2, …` (splitting the statement with a regex) on each execute and
caches the result only for statements up to 4,096 bytes and 50 parameters (psycopg/_queries.py: long ORM
INSERTs would fill the cache). The long-term search statement is longer than that and the same text on
every call for a given shape of query, so each search paid the conversion again: ~0.23 ms of a 5.2 ms
in-process search (docs/benchmarks.md, "Scale at 100k, evening re-check"). This cursor keeps the conversion
of the statements it runs, keyed by their text, in a bounded table; callers use it only for statements
whose text comes from a small set of shapes (the parameters carry the values), so the table stays small.
"""
from __future__ import annotations

import threading

import psycopg
from psycopg._queries import PostgresQuery, _query2pg_nocache

# Distinct statement texts kept; past it the table starts again (a shape seen once more is converted once more).
MAX_STATEMENTS = 256

_converted: dict[tuple[bytes, str], tuple] = {}
_lock = threading.Lock()


def _conversion(query: bytes, encoding: str) -> tuple:
    key = (query, encoding)
    found = _converted.get(key)
    if found is None:
        found = _query2pg_nocache(query, encoding)
        with _lock:
            if len(_converted) >= MAX_STATEMENTS:
                _converted.clear()
            _converted[key] = found
    return found


class _CachedQuery(PostgresQuery):
    __slots__ = ()

    def convert(self, query, vars) -> None:
        if vars is None or not isinstance(query, (str, bytes)):
            return super().convert(query, vars)
        query = self._ensure_bytes(query)
        # the parts list is shared between calls: psycopg only reads it (validate_and_reorder_params)
        self.query, self._want_formats, self._order, self._parts = _conversion(query, self._tx.encoding)
        self.dump(vars)


class CachedStatementCursor(psycopg.Cursor):
    """`psycopg.Cursor` whose statements' placeholder conversion is kept across calls and connections."""

    _query_cls = _CachedQuery


def cached_statements() -> int:
    """How many statement conversions are kept (for tests and profiles)."""
    return len(_converted)
