"""The duplicate check every write makes (services/create.py: a stored memory with the same content hash)
reads through the content-hash index, not through every row of the owner (migration 0010): a large owner
would otherwise pay a scan of all its memories on each write and each import batch."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from layers.long_term.models import Memory

pytestmark = pytest.mark.django_db
OWNER_ROWS = 3000


def _grow(memory: Memory, rows: int) -> None:
    """Copies of one stored memory under other content hashes: the owner's rows without embedding each."""
    columns = [f.column for f in Memory._meta.concrete_fields if f.column not in ("id", "content_hash", "client_id")]
    listed = ", ".join(columns)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO long_term_memory ({listed}, content_hash) "
                       f"SELECT {listed}, md5(g::text) || md5(g::text) FROM long_term_memory, "
                       f"generate_series(1, %s) AS g WHERE id = %s", [rows, memory.pk])
        cursor.execute("ANALYZE long_term_memory")


def test_a_write_finds_its_duplicate_through_the_hash_index(remember):
    first = remember("User keeps bees on the roof.", user_id="big")
    _grow(first, OWNER_ROWS)
    assert Memory.objects.filter(user_id="big").count() == OWNER_ROWS + 1

    with CaptureQueriesContext(connection) as captured:
        again = remember("User keeps bees on the roof.", user_id="big")
    assert again.pk == first.pk, "the same content for the same owner is the stored memory"
    lookup = next(q["sql"] for q in captured.captured_queries
                  if '"content_hash" IN' in q["sql"] and q["sql"].lstrip().startswith("SELECT"))
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + lookup)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "ltm_content_hash" in plan, plan
    assert "ltm_owner_status" not in plan, plan
