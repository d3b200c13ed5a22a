"""Large owners: an approximate search path for an owner with tens of thousands of memories.

Search scores the owner's rows exactly (selectors/search.py), which costs a scan of every row: fine for the
hundreds most users have, ~0.4 s at 50k. An owner past `policy.large_owners.min_memories` active memories
(shared team knowledge, a long-lived assistant) gets two partial indexes of its own, built and dropped by a job
(services/large_owners.py): HNSW over its embeddings and GIN over its term-frequency maps, each with the owner's
`WHERE tenant_id = … AND user_id = … AND status = 'active'`, so no other row pays for them and their size follows
the owner's. Its searches then score a bounded candidate set instead of every row, gathered in one statement: the
HNSW index's nearest `vector_candidates` (pgvector 0.8 iterative scan, so the model filter cannot starve the list;
hnsw.ef_search as long as the list asked for), rows holding a pair of the query's concepts or one through the GIN
index (a share of `keyword_candidates` per arm), and the nearest rows the query's scene cues lift (memory key
patterns, content cues; an iterative HNSW scan bounded by hnsw.max_scan_tuples). The usual statement then scores
those candidates exactly as it scores a small owner's rows, with the owner's BM25 statistics (`OwnerStatistics`),
not the candidates'. What the bounds give up is measured as recall against the exact scan (bench/scale.py
--large-owner, docs/benchmarks.md).

The column type (vector or halfvec, its dimensions) is read from the model, never written here.
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from itertools import combinations

from django.db import connection as default_connection
from django.db import transaction

from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.policy import LargeOwnersPolicy, large_owner_policy
from memoryhub.core.db_router import read_tolerating_lag

INDEX_PREFIX = "ltm_large_"
# How long a process trusts its list of built indexes: a new large owner is searched exactly (correct, slower)
# until then; a dropped index is not asked for after it (its owner fell far below the threshold anyway).
INDEX_LIST_SECONDS = 30.0
# pgvector's largest hnsw.ef_search
MAX_EF_SEARCH = 1000
# the most index tuples one iterative HNSW scan visits (pgvector's default is 20,000; the scene arm's bound)
MAX_SCAN_TUPLES = 1000
# concepts whose pairs get keyword arms of their own (5: ten pairs), in the query's order
PAIRED_CONCEPTS = 5
# an owner's statistics (row count, mean length, a concept's document frequency) are kept this long per process,
# for this many (owner, concept) pairs
STATISTICS_SECONDS = 60.0
STATISTICS_CACHE_SIZE = 4096




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


def ef_search(policy: LargeOwnersPolicy) -> int:
    """hnsw.ef_search for a statement asking for `policy.vector_candidates` nearest rows."""
    return min(MAX_EF_SEARCH, max(policy.ef_search, policy.vector_candidates))


def _vector_text(vector) -> str:
    return "[" + ",".join(f"{float(value):.9g}" for value in vector) + "]"


def large_owner_candidates(*, tenant_id: int, user_id: str, query_vector, model_name: str, terms: list[list[str]],
                           policy: LargeOwnersPolicy | None = None, key_likes: list[str] | None = None,
                           content_patterns: tuple[str, ...] = ()) -> list[int] | None:
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
        # The rows the exact score lifts by their words hold two or more of the query's concepts (a name and a
        # food, a person and a city): the arms take, through the GIN index's bitmaps ANDed, each pair's
        # rows first (a pair's posting lists intersect before any heap page is read, so a common term costs
        # nothing there), then each concept's alone (a one-concept query, a rare term), each its share of the
        # bound, unordered: the heap scan stops at the share.
        pairs = list(combinations(concepts[:PAIRED_CONCEPTS], 2))
        share = -(-policy.keyword_candidates // (len(pairs) + len(concepts)))
        for first, second in pairs:
            arms.append(f"(SELECT id FROM {table} WHERE tenant_id = %s AND user_id = %s AND status = %s"
                        f" AND term_freqs ?| %s::text[] AND term_freqs ?| %s::text[] LIMIT %s)")
            params += [tenant_id, user_id, MemoryStatus.ACTIVE, first, second, share]
        for concept in concepts:
            arms.append(f"(SELECT id FROM {table} WHERE tenant_id = %s AND user_id = %s AND status = %s"
                        f" AND term_freqs ?| %s::text[] LIMIT %s)")
            params += [tenant_id, user_id, MemoryStatus.ACTIVE, concept, share]
    if query_vector is not None and (key_likes or content_patterns) and policy.keyword_candidates:
        # The rows the query's scene lifts (a memory key it calls for, a content cue: selectors/scenes.py), nearest
        # first: the HNSW scan goes on past the rows that fail the filter (iterative scan) and stops at the share
        # or at hnsw.max_scan_tuples, so a cue no row holds costs a bounded scan, not one of the owner's rows.
        cues = ["(memory_key <> '' AND memory_key LIKE ANY(%s::text[]))"] if key_likes else []
        cues += ["lower(content) ~ %s"] * len(content_patterns)
        arms.append(f"(SELECT id FROM {table} WHERE tenant_id = %s AND user_id = %s AND status = %s"
                    f" AND embedding_model = %s AND ({' OR '.join(cues)})"
                    f" ORDER BY embedding <=> %s::{embedding_column_type()} LIMIT %s)")
        params += [tenant_id, user_id, MemoryStatus.ACTIVE, model_name, *([list(key_likes)] if key_likes else []),
                   *content_patterns, _vector_text(query_vector), policy.keyword_candidates]
    if not arms:
        return []

    def read(reader) -> list[int]:
        # SET LOCAL needs a transaction of its own; the settings end with it (safe behind PgBouncer too)
        with transaction.atomic(using=reader.alias), reader.cursor() as cursor:
            # the search list holds as many rows as are asked for (pgvector's most is 1000): an iterative scan
            # past a shorter list finds fewer of the true nearest (docs/benchmarks.md, "Import and large
            # owners, second round")
            cursor.execute("SELECT set_config('hnsw.ef_search', %s, true),"
                           " set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                           " set_config('hnsw.max_scan_tuples', %s, true),"
                           # the scene arm through the HNSW index, never a sort of every row its cue matches
                           " set_config('enable_sort', 'off', true)",
                           [str(ef_search(policy)), str(MAX_SCAN_TUPLES)])
            cursor.execute(" UNION ".join(arms), params)
            return [row[0] for row in cursor.fetchall()]
    return read_tolerating_lag(Memory, read)


@dataclass(frozen=True)
class OwnerStatistics:
    """BM25's statistics over all of a large owner's searchable rows, for scoring its candidates as the exact scan
    scores them (selectors/search.py takes them instead of the ones over the scored rows): a candidate set's own
    count, mean length and document frequencies gave its keyword hits other IDFs than the owner's, which cost
    more recall than the candidates missed (docs/benchmarks.md, "Import and large owners, second round")."""
    rows: float
    mean_length: float
    document_frequencies: list[float]  # one per query concept, in the query's order


class _StatisticsCache:
    """Per process: each owner's (rows, mean length) and each (owner, concept)'s document frequency, read again
    after STATISTICS_SECONDS (a few thousand rows more or less moves an IDF by little)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._values: OrderedDict[tuple, tuple[float, object]] = OrderedDict()

    def get(self, key):
        with self._lock:
            found = self._values.get(key)
            if found is None or time.monotonic() - found[0] > STATISTICS_SECONDS:
                return None
            self._values.move_to_end(key)
            return found[1]

    def put(self, key, value) -> None:
        with self._lock:
            self._values[key] = (time.monotonic(), value)
            self._values.move_to_end(key)
            while len(self._values) > STATISTICS_CACHE_SIZE:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


statistics_cache = _StatisticsCache()
# the rows the exact scan scores (selectors/search.py `_where` with no other filter): active and not expired
_SEARCHABLE = ("tenant_id = %s AND user_id = %s AND status = %s AND (expires_at IS NULL OR expires_at > now())")


def large_owner_statistics(*, tenant_id: int, user_id: str, terms: list[list[str]]) -> OwnerStatistics:
    """The owner's BM25 statistics for the query's concepts (`OwnerStatistics`): one statement for what the cache
    lacks, the document frequencies counted through the owner's GIN index."""
    table = Memory._meta.db_table
    concepts = [tuple(sorted(set(concept))) for concept in terms]
    owner = (tenant_id, user_id)
    sizes = statistics_cache.get(owner)
    frequencies = {concept: statistics_cache.get((owner, concept)) for concept in set(concepts) if concept}
    missing = [concept for concept, value in frequencies.items() if value is None]
    if sizes is None or missing:
        parts, params = [], []
        if sizes is None:
            parts.append(f"(SELECT jsonb_build_array(count(*), avg(doc_length)) FROM {table} WHERE {_SEARCHABLE})")
            params += [tenant_id, user_id, MemoryStatus.ACTIVE]
        for concept in missing:
            parts.append(f"(SELECT to_jsonb(count(*)) FROM {table} WHERE {_SEARCHABLE} AND term_freqs ?| %s::text[])")
            params += [tenant_id, user_id, MemoryStatus.ACTIVE, list(concept)]

        def read(reader) -> list:
            with reader.cursor() as cursor:
                cursor.execute("SELECT " + ", ".join(parts), params)
                # jsonb comes back as text where no loader is registered (Django's cursor)
                return [json.loads(value) if isinstance(value, str) else value for value in cursor.fetchone()]
        values = read_tolerating_lag(Memory, read)
        if sizes is None:
            count, mean = values.pop(0)
            sizes = (float(count), max(float(mean or 0), 1.0))
            statistics_cache.put(owner, sizes)
        for concept, value in zip(missing, values):
            frequencies[concept] = float(value)
            statistics_cache.put((owner, concept), float(value))
    return OwnerStatistics(rows=sizes[0], mean_length=sizes[1],
                           document_frequencies=[frequencies.get(concept, 0.0) if concept else 0.0
                                                 for concept in concepts])
