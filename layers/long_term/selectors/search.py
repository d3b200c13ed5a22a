"""Search over one user's memories: metadata filters first, then keyword (BM25) and vector paths, fused,
scored as relevance × recency × scene × confidence × feedback weight, all in one SQL statement; then,
unless policy turns it off, a second stage over the best candidates (selectors/rerank.py) that refines
the relevance factor, so the factors still multiply to the score.

Why an exact scan and not the HNSW index: every search is scoped to one (tenant, user) whose memories
number in the hundreds, and measured on these machines (1M rows, 512-d; docs/architecture.md) an HNSW scan with a
`WHERE user_id = …` filter post-filters and returned 0.8 of 10 rows (recall 0.08), while the
(tenant, user_id, status) B-tree plus an exact sort of that user's rows answered in 0.8 ms with
recall 1.0. So the vector path sorts the owner's rows exactly; the HNSW index serves only
unfiltered, tenant-wide work. (An owner with tens of thousands of memories would cost a scan of
them all, ~1 s at 50k on a loaded machine: past policy.large_owners.min_memories an owner gets partial
HNSW and GIN indexes of its own, and its rows are narrowed to their candidates first,
selectors/large_owners.py.)

Why BM25 in SQL and not `ts_rank`: `ts_rank` has no IDF and `plainto_tsquery` ANDs every term, which
kills recall on questions. The keyword hits are looked up among the owner's rows the scope already
read, in each row's jsonb term-frequency map (whose keys are exactly the lexemes of its tsvector), so
the path costs no second index access. (Candidates through the GIN index were tried: with fresh
statistics the planner ANDs it with the owner index, and a common term then costs a scan of thousands
of other users' postings — 1.5 ms of a 2.7 ms statement here — to keep ten rows.) The document
frequency of each term is counted over the same rows, so it is exact over the user's filtered
memories, and BM25 sums over the term frequencies of each hit.

Calibration: raw BM25 grows with the corpus (IDF of a rare term is ~ln N), so one fixed curve over it
would make a perfect match in a 5-memory set look irrelevant. It is divided by the query's IDF mass
(Σ idf over all query terms, absent ones included), which makes it ≈ the IDF-weighted share of the
query the memory covers (1.0 for every term once at average length), then mapped through the fixed
curve 1 − exp(−x / keyword_scale). That divisor is a property of the query and the user's memories,
not of the result list, so the order never changes and `min_score` keeps one meaning.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
from django.db import connection
from django.utils.translation import gettext as _
from pgvector import HalfVector
from pgvector.psycopg.halfvec import HalfVectorBinaryDumper

from layers.long_term.models import Memory, MemoryKind, MemoryStatus
from layers.long_term.policy import Policy, tenant_policy
from layers.long_term.selectors.large_owners import OwnerStatistics, large_owner_candidates, large_owner_statistics
from layers.long_term.selectors.rerank import rerank
from layers.long_term.selectors.rerank_llm import llm_rerank, llm_rerank_wanted
from layers.long_term.selectors.scenes import QueryReading, key_patterns_sql, query_read
from memoryhub.api.metrics import LAYER_SEARCH, counted_retrieval
from memoryhub.core.db_router import read_tolerating_lag
from memoryhub.core.errors import InvalidInput
from memoryhub.core.pgquery import CachedStatementCursor
from memoryhub.providers.embeddings import (
    EmbeddingUnavailable,
    embed_query,
    get_embedder,
)
from memoryhub.providers.keywords import query_concepts, query_terms

logger = logging.getLogger(__name__)

MODES = ("hybrid", "vector", "keyword")
MAX_TOP_K = 100
MAX_QUERY_LENGTH = 2000
# BM25 parameters: tuned on the LoCoMo development split, where short conversational turns make a
# lower length normalisation than the textbook b = 0.75 pay off.
BM25_K1 = 0.9
BM25_B = 0.3


@dataclass
class ScoredMemory:
    memory: Memory
    score: float
    explain: dict = field(default_factory=dict)


@dataclass
class SearchFilters:
    kinds: list[str] | None = None
    statuses: list[str] | None = None
    entities: list[str] | None = None
    memory_key: str | None = None
    min_confidence: float | None = None
    max_confidence: float | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    # The graph's structured filter and expansion narrow to these ids (layers/long_term/graph/search.py).
    memory_ids: list[int] | None = None


def _where(tenant_id: int, user_id: str, filters: SearchFilters) -> tuple[str, list]:
    """The metadata filter every path shares (tenant and user always first)."""
    clauses = ["m.tenant_id = %s", "m.user_id = %s", "m.status = ANY(%s)",
               # An active memory past its TTL is already forgotten, even before the sweep archives it.
               "(m.status <> 'active' OR m.expires_at IS NULL OR m.expires_at > now())"]
    params: list = [tenant_id, user_id, list(filters.statuses or [MemoryStatus.ACTIVE])]
    if filters.kinds:
        clauses.append("m.kind = ANY(%s)")
        params.append(list(filters.kinds))
    if filters.entities:
        clauses.append("m.entities && %s::varchar[]")
        params.append(list(filters.entities))
    if filters.memory_key:
        clauses.append("m.memory_key = %s")
        params.append(filters.memory_key)
    if filters.min_confidence is not None:
        clauses.append("m.confidence >= %s")
        params.append(filters.min_confidence)
    if filters.max_confidence is not None:
        clauses.append("m.confidence <= %s")
        params.append(filters.max_confidence)
    if filters.created_after is not None:
        clauses.append("m.created_at >= %s")
        params.append(filters.created_after)
    if filters.created_before is not None:
        clauses.append("m.created_at < %s")
        params.append(filters.created_before)
    if filters.memory_ids is not None:
        clauses.append("m.id = ANY(%s::bigint[])")
        params.append(list(filters.memory_ids))
    return " AND ".join(clauses), params


def _kind_case(values: dict[str, float], default: float) -> tuple[str, list]:
    sql = "CASE s.kind " + " ".join("WHEN %s THEN %s::float8" for _ in MemoryKind.values) + " ELSE %s::float8 END"
    params: list = []
    for kind in MemoryKind.values:
        params += [kind, float(values.get(kind, default))]
    return sql, params + [float(default)]


def _search_sql(*, where: str, where_params: list, terms: list, reading: QueryReading | None = None, query_vector: np.ndarray | None,
                model_name: str, mode: str, policy: Policy, task_type: str | None, min_score: float,
                top_k: int, abstaining_block: tuple[int, int] | None = None,
                corpus: OwnerStatistics | None = None) -> tuple[str, list]:
    """One statement per mode: filtered scope, BM25 and cosine, fusion, context, factors, top k.

    `abstaining_block` (the provider's, memoryhub/providers/embeddings.py USEMiniLMEmbedder): a block of the
    vector that is zero where its model could not read the text. Where exactly one side abstains, the
    cosine is the other model's divided by √2, so it is multiplied back: the cosine stays the average over
    the models that read both texts (USE alone for a Chinese query and an English memory).

    `corpus`: BM25's statistics over all of a large owner's rows (selectors/large_owners.py), used instead of the
    ones over the scope when the scope is that owner's candidates."""
    reading = reading or QueryReading()
    terms = [[term] if isinstance(term, str) else list(term) for term in terms]  # a bare term is its own concept
    use_keyword = mode in ("hybrid", "keyword") and bool(terms)
    use_vector = mode in ("hybrid", "vector") and query_vector is not None

    params: list = []
    # scope: the owner's filtered rows through the B-tree, with the exact cosine of same-model vectors.
    if use_vector and abstaining_block:
        start, length = abstaining_block
        query_reads = bool(np.any(query_vector[start - 1:start - 1 + length]))
        cosine_sql = ("CASE WHEN m.embedding_model = %s THEN (1 - (m.embedding <=> %s::halfvec)) * CASE WHEN"
                      " (l2_norm(subvector(m.embedding, %s, %s)) > 0) = %s THEN 1 ELSE sqrt(2) END END")
        params += [model_name, query_vector, start, length, query_reads]
    elif use_vector:
        cosine_sql = "CASE WHEN m.embedding_model = %s THEN 1 - (m.embedding <=> %s::halfvec) END"
        params += [model_name, query_vector]
    else:
        cosine_sql = "NULL::float8"
    term_freqs_sql = ", m.term_freqs" if use_keyword else ""
    sql = [f"""WITH scope AS MATERIALIZED (
        SELECT m.id, m.kind, m.memory_key, m.content, m.confidence, m.feedback_weight, m.last_confirmed_at, m.doc_length,
               m.source_session_id, m.source_turn_from, m.source_turn_to, {cosine_sql} AS cosine{term_freqs_sql}
        FROM long_term_memory m WHERE {where}
    ), stats AS ({"SELECT %s::float8 AS n, %s::float8 AS avgdl" if corpus else
                  "SELECT count(*)::float8 AS n, GREATEST(avg(doc_length), 1)::float8 AS avgdl FROM scope"})"""]
    params += where_params + ([corpus.rows, corpus.mean_length] if corpus else [])
    if use_keyword:
        # A query concept is a term with its bridges (memoryhub/providers/keywords.py query_concepts): its
        # frequency in a memory sums its members', its document frequency counts memories with any member.
        df_sql = ("SELECT q.grp, q.df FROM unnest(%s::int[], %s::float8[]) AS q(grp, df)" if corpus else
                  "SELECT q.grp, count(h.id)::float8 AS df FROM unnest(%s::int[]) AS q(grp) LEFT JOIN hits h USING (grp)"
                  " GROUP BY q.grp")
        sql.append(f""", hits AS (
        SELECT s.id, s.doc_length, t.grp, sum((s.term_freqs ->> t.term)::float8) AS tf
        FROM scope s CROSS JOIN unnest(%s::text[], %s::int[]) AS t(term, grp) WHERE s.term_freqs ? t.term
        GROUP BY s.id, s.doc_length, t.grp
    ), df AS ({df_sql}
    ), idf AS (SELECT df.grp, ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5)) AS idf FROM df CROSS JOIN stats st),
    keyword AS MATERIALIZED (
        SELECT jsonb_object_agg(b.id::text, jsonb_build_array(b.bm25, b.matched_concepts)) AS hits,
               (SELECT GREATEST(sum(idf), 1e-9) FROM idf) AS idf_mass
        FROM (SELECT h.id, sum(idf.idf * h.tf * (%s + 1) / (h.tf + %s * (1 - %s + %s * h.doc_length / st.avgdl))) AS bm25,
                     count(*) AS matched_concepts
              FROM hits h JOIN idf USING (grp) CROSS JOIN stats st GROUP BY h.id) b
    )""")
        flat = [term for concept in terms for term in concept]
        groups = [index for index, concept in enumerate(terms) for _term in concept]
        params += [flat, groups, list(range(len(terms))), *([corpus.document_frequencies] if corpus else []),
                   BM25_K1, BM25_K1, BM25_B, BM25_B]
    else:
        sql.append(", keyword AS MATERIALIZED (SELECT NULL::jsonb AS hits, NULL::float8 AS idf_mass)")

    # A memory's keyword hit, looked up by id in the one-row map above (a binary search in the jsonb):
    # joining the scope to a per-id aggregate instead let the planner, whose estimate for every CTE is
    # one row, re-run the aggregate once per scope row (~50 of ~75 ms at 663 memories, docs/benchmarks.md).
    bm25_sql = "(k.hits -> s.id::text ->> 0)::float8"
    keyword_rel = f"CASE WHEN {bm25_sql} IS NULL THEN 0 ELSE 1 - exp(-{bm25_sql} / k.idf_mass / %s) END"
    vector_rel = "CASE WHEN s.cosine IS NULL THEN 0 ELSE LEAST(1, GREATEST(0, (s.cosine - %s) / %s)) END"
    span = max(policy.vector_cosine_high - policy.vector_cosine_low, 1e-6)
    if mode == "keyword":
        own_sql = "f.keyword_relevance"
        own_params: list = []
    elif mode == "vector":
        own_sql = "f.vector_relevance"
        own_params = []
    else:
        # Where the keyword path matched it leads and the dense path closes part of the gap; where it did
        # not (another language, a paraphrase), the dense path stands alone.
        own_sql = ("CASE WHEN f.bm25 IS NOT NULL THEN f.keyword_relevance + (1 - f.keyword_relevance) * %s"
                   " * f.vector_relevance ELSE %s * f.vector_relevance END")
        own_params = [policy.hybrid_vector_share, policy.vector_only_share]
    # key relevance: the largest weight among the key patterns the query's scene and topics call for
    # and the scene's weight for a memory whose text carries one of the scene's content cues
    key_parts, key_params = [], []
    if reading.key_weights:
        # heaviest pattern first, so the first that matches is the largest weight (no per-row subquery)
        likes, weights = key_patterns_sql(reading.key_weights)
        ordered = sorted(zip(likes, weights), key=lambda pair: -pair[1])
        key_parts.append("CASE WHEN s.memory_key = '' THEN 0 " + " ".join(
            "WHEN s.memory_key LIKE %s THEN %s::float8" for _pair in ordered) + " ELSE 0 END")
        key_params += [value for pair in ordered for value in pair]
    if reading.content_patterns:
        matches = " OR ".join("lower(s.content) ~ %s" for _pattern in reading.content_patterns)
        key_parts.append(f"CASE WHEN {matches} THEN %s::float8 ELSE 0 END")
        key_params += [*reading.content_patterns, reading.content_weight]
    key_sql = f"GREATEST({', '.join(key_parts)}, 0)" if key_parts else "0::float8"
    alpha_sql, alpha_params = _kind_case(policy.decay_alpha_days, 365.0)
    scene_values = policy.scene_weights.get(task_type or "", {}) if task_type else {}
    scene_sql, scene_params = _kind_case(scene_values, 1.0)
    score_sql = "c.relevance * c.recency * c.scene * c.confidence * c.feedback_weight"
    # neighbours: conversation context. A turn next to a strong match (same source session, adjacent turn)
    # shares part of its relevance; the answer to a question often sits one turn after the words it matched, so
    # the turn after a match takes a larger share than the one before, and one two turns away a small one.
    # neighbour_relevance is the largest such share-weighted relevance (what the text relevance gains from).
    # The final SELECT brings the winners' own columns back in the same round trip.
    # factors is MATERIALIZED so the map is read here and not carried, once per row, into the window's sort
    sql.append(f""", factors AS MATERIALIZED (
        SELECT s.id, s.kind, s.source_session_id, s.source_turn_from, s.source_turn_to, {bm25_sql} AS bm25,
               (k.hits -> s.id::text ->> 1)::bigint AS matched_concepts,
               s.cosine,
               {key_sql} AS key_relevance,
               {keyword_rel} AS keyword_relevance, {vector_rel} AS vector_relevance,
               exp(-GREATEST(extract(epoch FROM now() - s.last_confirmed_at), 0) / 86400.0 / ({alpha_sql}))
                   AS recency,
               ({scene_sql}) AS scene, s.confidence, s.feedback_weight
        FROM scope s CROSS JOIN keyword k
    ), own AS (
        SELECT f.*, {own_sql} AS own_relevance FROM factors f
    ), neighbours AS (
        SELECT o.*, CASE WHEN o.source_session_id = '' THEN 0 ELSE GREATEST(
            CASE WHEN lag(o.source_turn_to) OVER w = o.source_turn_from - 1 THEN %s * lag(o.own_relevance) OVER w END,
            CASE WHEN lead(o.source_turn_from) OVER w = o.source_turn_to + 1 THEN %s * lead(o.own_relevance) OVER w END,
            CASE WHEN lag(o.source_turn_to, 2) OVER w = o.source_turn_from - 2 THEN %s * lag(o.own_relevance, 2) OVER w END,
            CASE WHEN lead(o.source_turn_from, 2) OVER w = o.source_turn_to + 2 THEN %s * lead(o.own_relevance, 2) OVER w END,
            0) END AS neighbour_relevance
        FROM own o
        WINDOW w AS (PARTITION BY o.source_session_id ORDER BY o.source_turn_from, o.id)
    ), texts AS (
        SELECT n.*, n.own_relevance + (1 - n.own_relevance) * n.neighbour_relevance AS text_relevance
        FROM neighbours n
    ), combined AS (
        SELECT t.*, 1 - (1 - t.text_relevance) * (1 - t.key_relevance) AS relevance FROM texts t
    ), ranked AS (
        SELECT c.id, c.bm25, c.matched_concepts, c.cosine, c.keyword_relevance, c.vector_relevance, c.own_relevance,
               c.neighbour_relevance, c.text_relevance, c.key_relevance, c.relevance, c.recency, c.scene, c.confidence AS confidence_factor,
               c.feedback_weight AS feedback_factor, {score_sql} AS score
        FROM combined c
        WHERE c.relevance > 0 AND {score_sql} >= %s
        ORDER BY score DESC, c.id DESC
        LIMIT %s
    )
    SELECT r.*, {", ".join("mm." + name for name in RESULT_FIELDS)}
    FROM ranked r JOIN long_term_memory mm ON mm.id = r.id
    ORDER BY r.score DESC, r.id DESC""")
    params += [*key_params, policy.keyword_scale, policy.vector_cosine_low, span, *alpha_params, *scene_params, *own_params,
               policy.context_neighbour_after_share, policy.context_neighbour_share, policy.context_neighbour_far_share,
               policy.context_neighbour_far_share, min_score, top_k]
    # One line without the indentation: psycopg caches its parse of statements up to 4 KiB only.
    return " ".join("".join(sql).split()), params


# Columns of a result row (everything the API and the context need; not the vector or the term map).
RESULT_FIELDS = ("tenant_id", "user_id", "agent_id", "kind", "content", "memory_key", "entities", "attributes",
                 "confidence", "importance", "source", "source_session_id", "source_turn_from", "source_turn_to",
                 "extractor", "embedding_model", "status", "created_at", "last_confirmed_at")


def _memory_from_row(row: dict) -> Memory:
    values = {name: row[name] for name in ("id", *RESULT_FIELDS)}
    if isinstance(values["attributes"], str):  # Django's connection loads jsonb as text
        values["attributes"] = json.loads(values["attributes"])
    # from_db wants the loaded values in the model's field order; the rest stay deferred
    names = [f.attname for f in Memory._meta.concrete_fields if f.attname in values]
    return Memory.from_db(connection.alias, names, [values[name] for name in names])


def _fetch(sql: str, params: list) -> list[dict]:
    """Run the search statement as a server-side prepared statement: planning this many CTEs costs more
    than executing them for a few hundred rows, and psycopg keeps the statement per connection
    (settings.py lets it, unless DB_PREPARED_STATEMENTS is off). On the replica when one is configured
    and the caller has not just written (memoryhub/core/db_router.py)."""
    return read_tolerating_lag(Memory, lambda reader: _fetch_on(reader, sql, params))


def _fetch_on(reader, sql: str, params: list) -> list[dict]:
    reader.ensure_connection()
    # the statement is longer than psycopg caches the placeholder conversion of (memoryhub/core/pgquery.py)
    with CachedStatementCursor(reader.connection) as cursor:
        # the query vector goes in pgvector's binary format, untyped (the statement's `::halfvec` casts it):
        # formatting 896 floats as text cost more than the rest of building the statement
        cursor.adapters.register_dumper(HalfVector, HalfVectorBinaryDumper)
        params = [HalfVector(value) if isinstance(value, np.ndarray) else value for value in params]
        cursor.execute(sql, params, prepare=True)
        columns = [col.name for col in cursor.description]
        return [dict(zip(columns, row)) for row in cursor.fetchall()]


_NAME_EN = re.compile(r"\b(?:is|are|called|named)\s+([A-Z][\w'-]+)")
_NAME_ZH = re.compile(r"(?:叫|是)([\u4e00-\u9fff]{1,4})[。.!！]?\s*$")


def _with_person_names(terms: list[list[str]], tenant_id: int, user_id: str, reading,
                       policy: Policy) -> tuple[list[list[str]], list[str]]:
    """A question about a person by role ("who's my manager?") also looks for the person's name: the
    name is read from the user's own relationship facts ("User's boss is Karen.") and joins the role
    word's concept, so "Karen moved our sprint review" matches (the linking-facts rule of
    tests/layers/long_term/corpora/RELEVANCE.md). One indexed read, only when a person topic fired.
    Returns the terms and the names as written, which the second stage looks for (selectors/rerank.py)."""
    person = [name for name in reading.topics if name in policy.person_topics]
    if not person:
        return terms, []
    patterns = {pattern for name in person for pattern in policy.topic_keys.get(name, {})}
    likes, _weights = key_patterns_sql({pattern: 1.0 for pattern in patterns})
    def read(reader) -> list[str]:
        with reader.cursor() as cursor:
            cursor.execute(
                "SELECT content FROM long_term_memory WHERE tenant_id = %s AND user_id = %s AND status = 'active'"
                " AND memory_key LIKE ANY(%s) ORDER BY id DESC LIMIT 20", [tenant_id, user_id, likes])
            return [row[0] for row in cursor.fetchall()]
    contents = read_tolerating_lag(Memory, read)
    names: list[str] = []
    written: list[str] = []
    for content in contents:
        match = _NAME_EN.search(content) or _NAME_ZH.search(content)
        if match:
            written += [match.group(1)] if match.group(1) not in written else []
            names += [token for token in query_terms(match.group(1)) if token not in names]
    if not names:
        return terms, written
    role_words = set(query_terms(" ".join(cue for name in person for cue in policy.topic_cues.get(name, []))))
    out = [list(concept) for concept in terms]
    for concept in out:
        if role_words & set(concept):
            concept += [name for name in names if name not in concept]
            return out, written
    return out + [names], written


# Layer health: every result is above min_score, so a non-empty answer is a hit (memoryhub/api/metrics.py).
@counted_retrieval(LAYER_SEARCH, served=bool)
def memory_search(*, tenant, user_id: str, query: str, top_k: int = 10, kinds: list[str] | None = None,
                  mode: str = "hybrid", min_score: float | None = None, task_type: str | None = None,
                  explain: bool = False, statuses: list[str] | None = None, entities: list[str] | None = None,
                  memory_key: str | None = None, min_confidence: float | None = None,
                  max_confidence: float | None = None, created_after: datetime | None = None,
                  created_before: datetime | None = None, policy: Policy | None = None,
                  memory_ids: list[int] | None = None) -> list[ScoredMemory]:
    """The user's memories most relevant to `query`, best first, each scored in [0, 1].

    `policy` lets a caller that already read the tenant's policy (context assembly) pass it on.

    One embedding of the query and one SQL round trip (score the owner's rows, return the winners).
    """
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput(_("query must be a non-empty string"), code="invalid_query")
    if len(query) > MAX_QUERY_LENGTH:
        raise InvalidInput(_("query is longer than %d characters") % MAX_QUERY_LENGTH, code="invalid_query")
    if mode not in MODES:
        raise InvalidInput(_("mode must be one of %s") % ", ".join(MODES), code="invalid_mode")
    if not 1 <= int(top_k) <= MAX_TOP_K:
        raise InvalidInput(_("top_k must be between 1 and %d") % MAX_TOP_K, code="invalid_top_k")
    for kind in kinds or ():
        if kind not in MemoryKind.values:
            raise InvalidInput(_("unknown kind %s") % kind, code="invalid_kind")
    for status in statuses or ():
        if status not in MemoryStatus.values:
            raise InvalidInput(_("unknown status %s") % status, code="invalid_status")

    policy = policy or tenant_policy(tenant.pk)
    if min_score is None:
        min_score = policy.min_score
    terms = query_concepts(query) if mode != "vector" else []
    reading = query_read(query, policy, task_type)
    linked_names: list[str] = []
    if terms:
        terms, linked_names = _with_person_names(terms, tenant.pk, user_id, reading, policy)
    query_vector, model_name, abstaining_block = None, "", None
    if mode != "keyword":
        embedder = get_embedder()
        abstaining_block = getattr(embedder, "abstaining_block", None)
        try:
            query_vector, model_name = embed_query(query, embedder), embedder.name
        except EmbeddingUnavailable:
            if mode == "vector":
                raise
            # Degrade, not fail: a hybrid search still has its keyword path.
            logger.warning("embedding provider unavailable; hybrid search answers from keywords only")
    if not terms and query_vector is None and not reading.key_weights and not reading.content_patterns:
        return []

    filters = SearchFilters(kinds=kinds, statuses=statuses, entities=entities, memory_key=memory_key,
                            min_confidence=min_confidence, max_confidence=max_confidence,
                            created_after=created_after, created_before=created_before, memory_ids=memory_ids)
    path, corpus = "exact", None
    if memory_ids is None and list(statuses or [MemoryStatus.ACTIVE]) == [MemoryStatus.ACTIVE]:
        # a large owner's rows are narrowed to its approximate candidates (selectors/large_owners.py)
        candidates = large_owner_candidates(tenant_id=tenant.pk, user_id=user_id, query_vector=query_vector,
                                            model_name=model_name, terms=terms,
                                            key_likes=key_patterns_sql(reading.key_weights)[0],
                                            content_patterns=tuple(reading.content_patterns))
        if candidates is not None:
            filters.memory_ids, path = candidates, "approximate"
            if terms and filters == SearchFilters(memory_ids=candidates, statuses=statuses):
                # keyword hits scored with the owner's statistics, as the exact scan scores them (a filtered
                # search's exact statistics are its filtered rows': the candidates' stand in for them)
                corpus = large_owner_statistics(tenant_id=tenant.pk, user_id=user_id, terms=terms)
    where, where_params = _where(tenant.pk, user_id, filters)
    # With the second stage on, the first stage hands over its best `rerank_pool` uncut: the second stage
    # may lift a candidate over min_score, and cuts itself (layers/long_term/selectors/rerank.py).
    second_stage = bool(policy.rerank)
    sql, params = _search_sql(where=where, where_params=where_params, terms=terms, reading=reading,
                              query_vector=query_vector, model_name=model_name, mode=mode, policy=policy, task_type=task_type,
                              min_score=0.0 if second_stage else float(min_score),
                              top_k=max(int(top_k), policy.rerank_pool) if second_stage else int(top_k),
                              abstaining_block=abstaining_block, corpus=corpus)
    rows = _fetch(sql, params)
    # the second stage reads the query's own words (no task type): the first stage's reading is that one
    # whenever no task type was given, so the query is read once per search
    query_only = (reading if task_type is None else query_read(query, policy)) if second_stage and rows else None
    if second_stage and llm_rerank_wanted(policy):
        rows = rerank(rows, query=query, concept_count=len(terms), policy=policy, min_score=0.0,
                      top_k=max(int(top_k), policy.rerank_pool), linked_names=linked_names, reading=query_only)
        rows = llm_rerank(rows, query=query, policy=policy, min_score=float(min_score), top_k=int(top_k))
    elif second_stage:
        rows = rerank(rows, query=query, concept_count=len(terms), policy=policy, min_score=float(min_score),
                      top_k=int(top_k), linked_names=linked_names, reading=query_only)
    if not rows:
        return []
    results = []
    for row in rows:
        memory = _memory_from_row(row)
        details = {}
        if explain:
            details = {
                "mode": mode, "path": path,
                "relevance": row["relevance"], "recency": row["recency"], "scene": row["scene"],
                "own_relevance": row["own_relevance"], "neighbour_relevance": row["neighbour_relevance"],
                "text_relevance": row["text_relevance"], "key_relevance": row["key_relevance"],
                "memory_key": memory.memory_key or None, **reading.as_explain(),
                "confidence": row["confidence_factor"], "feedback_weight": row["feedback_factor"],
                "keyword": {"bm25": row["bm25"], "relevance": row["keyword_relevance"],
                            "terms": [concept[0] for concept in terms],
                            "bridges": {concept[0]: concept[1:] for concept in terms if len(concept) > 1}},
                "vector": {"cosine": row["cosine"], "relevance": row["vector_relevance"],
                           "model": model_name or None},
                # the second stage, when on: relevance above is its output, first_stage_relevance its input
                "rerank": row.get("rerank"),
            }
        results.append(ScoredMemory(memory=memory, score=float(row["score"]), explain=details))
    return results
