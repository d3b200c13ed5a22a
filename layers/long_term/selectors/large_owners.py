"""Large owners: an approximate search path for an owner with tens of thousands of memories.

Search scores the owner's rows exactly (selectors/search.py), which costs a scan of every row: fine for the
hundreds most users have, ~0.4 s at 50k. An owner past `policy.large_owners.min_memories` active memories
(shared team knowledge, a long-lived assistant) gets two partial indexes of its own, built and dropped by a job
(services/large_owners.py): HNSW over its embeddings and GIN over its term-frequency maps, each with the owner's
`WHERE tenant_id = … AND user_id = … AND status = 'active'`, so no other row pays for them and their size follows
the owner's. Its searches then score a bounded candidate set instead of every row: the HNSW index's nearest
`vector_candidates` (pgvector 0.8 iterative scan, so the model filter cannot starve the list) and up to
`keyword_candidates` rows holding a query concept (an equal share per concept, through the GIN index), in one
statement; the usual
statement then scores those candidates exactly as it scores a small owner's rows. What the bounds give up is
measured as recall against the exact scan (bench/scale.py --large-owner, docs/benchmarks.md).

The column type (vector or halfvec, its dimensions) is read from the model, never written here.
"""
from __future__ import annotations

import hashlib
import threading
import time

from django.db import connection as default_connection
from django.db import transaction

from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.policy import LargeOwnersPolicy, large_owner_policy
from memoryhub.core.db_router import read_tolerating_lag

INDEX_PREFIX = "ltm_large_"
# How long a process trusts its list of built indexes: a new large owner is searched exactly (correct, slower)
# until then; a dropped index is not asked for after it (its owner fell far below the threshold anyway).
INDEX_LIST_SECONDS = 30.0




def owner_index_names(tenant_id: int, user_id: str) -> tuple[str, str]:
    """(HNSW, GIN) index names of one owner; a digest, so any user id gives a valid name under 63 bytes."""
    digest = hashlib.sha256(f"{tenant_id}\x00{user_id}".encode()).hexdigest()[:24]
    return f"{INDEX_PREFIX}{digest}_vec", f"{INDEX_PREFIX}{digest}_terms"


def embedding_column_type(connection=default_connection) -> str:
    """The embedding column's SQL type as the model declares it: `vector(512)`, `halfvec(896)`, …"""
    return Memory._meta.get_field("embedding").db_type(connection)


def built_indexes(connection=default_connection) -> set[str]:
    """Names of the valid large-owner indexes on the memory table (an interrupted CONCURRENTLY build is invalid)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            " WHERE i.indrelid = %s::regclass AND i.indisvalid AND c.relname LIKE %s",
            [Memory._meta.db_table, INDEX_PREFIX + "%"])
        return {row[0] for row in cursor.fetchall()}


class _IndexList:
    """This process's list of built large-owner indexes, read again every INDEX_LIST_SECONDS: one catalog query per
    process and period instead of one per search."""

    def __init__(self):
        self._lock = threading.Lock()
        self._names: set[str] = set()
        self._read_at = float("-inf")

    def names(self) -> set[str]:
        if time.monotonic() - self._read_at > INDEX_LIST_SECONDS:
            with self._lock:
                if time.monotonic() - self._read_at > INDEX_LIST_SECONDS:
                    self._names = read_tolerating_lag(Memory, built_indexes)
                    self._read_at = time.monotonic()
        return self._names

    def forget(self) -> None:
        """Read the catalog again at the next search (after the job built or dropped an index in this process)."""
        self._read_at = float("-inf")


index_list = _IndexList()


def large_owner_indexed(*, tenant_id: int, user_id: str) -> bool:
    return all(name in index_list.names() for name in owner_index_names(tenant_id, user_id))


def _vector_text(vector) -> str:
    return "[" + ",".join(f"{float(value):.9g}" for value in vector) + "]"


def large_owner_candidates(*, tenant_id: int, user_id: str, query_vector, model_name: str, terms: list[list[str]],
                           policy: LargeOwnersPolicy | None = None) -> list[int] | None:
    """The ids a large owner's search scores (the module's docstring), or None for an owner searched exactly:
    one without its indexes built. Only the active rows are candidates: a search of other statuses is exact."""
    if not large_owner_indexed(tenant_id=tenant_id, user_id=user_id):
        return None
    policy = policy or large_owner_policy(tenant_id)
    table = Memory._meta.db_table
    concepts = [sorted(set(concept)) for concept in terms if concept]
    arms, params = [], []
    if query_vector is not None:
        # literals for the owner, so the planner proves the partial index's predicate (a generic plan cannot)
        arms.append(f"(SELECT id FROM {table} WHERE tenant_id = %s AND user_id = %s AND status = %s"
                    f" AND embedding_model = %s ORDER BY embedding <=> %s::{embedding_column_type()} LIMIT %s)")
        params += [tenant_id, user_id, MemoryStatus.ACTIVE, model_name, _vector_text(query_vector),
                   policy.vector_candidates]
    if concepts and policy.keyword_candidates:
        # each concept's share of the bound, through the GIN index's bitmap, unordered: the heap scan stops at the
        # share, so a term in every memory (the team's name) costs its share of rows, not all of them, and the rows
        # of a rare term (an allergen) are all there
        share = -(-policy.keyword_candidates // len(concepts))
        for concept in concepts:
            arms.append(f"(SELECT id FROM {table} WHERE tenant_id = %s AND user_id = %s AND status = %s"
                        f" AND term_freqs ?| %s::text[] LIMIT %s)")
            params += [tenant_id, user_id, MemoryStatus.ACTIVE, concept, share]
    if not arms:
        return []

    def read(reader) -> list[int]:
        # SET LOCAL needs a transaction of its own; the settings end with it (safe behind PgBouncer too)
        with transaction.atomic(using=reader.alias), reader.cursor() as cursor:
            cursor.execute("SELECT set_config('hnsw.ef_search', %s, true),"
                           " set_config('hnsw.iterative_scan', 'relaxed_order', true)", [str(policy.ef_search)])
            cursor.execute(" UNION ".join(arms), params)
            return [row[0] for row in cursor.fetchall()]
    return read_tolerating_lag(Memory, read)
