"""The cursor that keeps long statements' placeholder conversion (memoryhub/core/pgquery.py), on real PostgreSQL."""
from __future__ import annotations

import pytest
from django.db import connection
from psycopg import _queries

from memoryhub.core import pgquery

pytestmark = pytest.mark.django_db


def _run(sql: str, values: list[int]) -> int:
    connection.ensure_connection()
    with pgquery.CachedStatementCursor(connection.connection) as cursor:
        cursor.execute(sql, values)
        return cursor.fetchone()[0]


def test_a_statement_longer_than_psycopg_caches_is_converted_once_and_answers_right(monkeypatch):
    # 60 parameters and > 4,096 bytes: psycopg itself would convert it on every call
    sql = "SELECT " + " + ".join(["%s::int"] * 60) + " AS total /* " + "padding " * 600 + "*/"
    assert len(sql) > _queries.MAX_CACHED_STATEMENT_LENGTH
    conversions = []
    original = pgquery._query2pg_nocache
    monkeypatch.setattr(pgquery, "_query2pg_nocache", lambda *args: conversions.append(1) or original(*args))
    assert _run(sql, list(range(60))) == sum(range(60))
    assert _run(sql, [2] * 60) == 120  # the same text, other values: the kept conversion
    assert _run(sql.replace("AS total", "AS other"), [1] * 60) == 60  # another text is converted anew
    assert conversions == [1, 1]


def test_the_kept_conversions_are_bounded(monkeypatch):
    monkeypatch.setattr(pgquery, "MAX_STATEMENTS", 3)
    monkeypatch.setattr(pgquery, "_converted", {})
    for n in range(5):
        assert _run(f"SELECT %s::int + {n}", [1]) == 1 + n
        assert pgquery.cached_statements() <= 3
