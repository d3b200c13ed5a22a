"""The large-owner indexes job (selectors/large_owners.py): build an owner's partial HNSW and GIN indexes once it
holds `policy.large_owners.min_memories` active memories, drop them once it holds fewer than `keep_memories`.

Indexes are built and dropped CONCURRENTLY (outside any transaction), so searches and writes go on meanwhile.
Running the job twice changes nothing: what it builds is what the catalogue lacks. A build that was interrupted
(a killed worker, a failed statement) leaves an invalid index, which the next run drops and builds again, as it
does an HNSW index built with other parameters than HNSW_OPTIONS; an owner with one of its two indexes gets the
other. Each build and each drop is one `memory.owner_indexes`
audit event (the owner under its pseudonym, the count of active memories, what was done).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import connection, transaction

from audit.services import audit_record
from layers.long_term.events import MEMORY_OWNER_INDEXES
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.policy import large_owner_policy
from layers.long_term.selectors.large_owners import (
    INDEX_PREFIX,
    embedding_column_type,
    index_list,
    owner_index_names,
)
from memoryhub.core.actors import Actor
from memoryhub.outbox.services import task_enqueue_on_commit
from memoryhub.tenancy.models import Tenant

JOB_TASK = "long_term.large_owner_indexes"
ACTOR = Actor.system(JOB_TASK)
# maintenance_work_mem of an index build (PostgreSQL's default is 64 MB)
BUILD_MEMORY = "512MB"
# The HNSW graph's build parameters, chosen by measured recall (docs/benchmarks.md, "Import and large owners,
# second round"): an owner's memories come in near-duplicate families (one template, many names), where
# pgvector's default ef_construction 64 left queries whose 400 nearest the index found 1 % of (recall@400
# 0.83 over 30 queries); 200 gave 0.96 at the same size (m 32 gave no more, at a slower search). An index
# built with other parameters is rebuilt by the next run.
HNSW_OPTIONS = {"m": 16, "ef_construction": 200}


@dataclass(frozen=True)
class Built:
    valid: bool
    owner: tuple[int, str] | None  # (tenant id, user id) read back from the index's predicate
    options: dict[str, str] | None = None  # its storage parameters (pg_class.reloptions)


_PREDICATE = re.compile(r"tenant_id = (\d+)\).*user_id\)::text = '((?:[^']|'')*)'")


def _catalogue() -> dict[str, Built]:
    """Every large-owner index on the memory table, with its owner."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, i.indisvalid, pg_get_expr(i.indpred, i.indrelid), c.reloptions"
                       " FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                       " WHERE i.indrelid = %s::regclass AND c.relname LIKE %s",
                       [Memory._meta.db_table, INDEX_PREFIX + "%"])
        found = {}
        for name, valid, predicate, options in cursor.fetchall():
            match = _PREDICATE.search(predicate or "")
            found[name] = Built(valid, (int(match.group(1)), match.group(2).replace("''", "'")) if match else None,
                                dict(option.split("=", 1) for option in options or []))
        return found


def _owner_counts(*, floor: int, owners: set[tuple[int, str]]) -> dict[tuple[int, str], int]:
    """Active memories per owner: every owner with at least `floor`, and each of `owners` whatever its count."""
    table = Memory._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT tenant_id, user_id, count(*) FROM {table} WHERE status = %s"
                       " GROUP BY tenant_id, user_id HAVING count(*) >= %s", [MemoryStatus.ACTIVE, floor])
        counts = {(tenant_id, user_id): count for tenant_id, user_id, count in cursor.fetchall()}
        for tenant_id, user_id in owners - set(counts):
            cursor.execute(f"SELECT count(*) FROM {table} WHERE tenant_id = %s AND user_id = %s AND status = %s",
                           [tenant_id, user_id, MemoryStatus.ACTIVE])
            counts[(tenant_id, user_id)] = cursor.fetchone()[0]
        return counts


def _create(name: str, tenant_id: int, user_id: str, method: str) -> None:
    quote = connection.ops.quote_name
    column = embedding_column_type().split("(")[0]  # vector or halfvec, from the model
    target = f"embedding {column}_cosine_ops" if method == "hnsw" else "term_freqs"
    options = " WITH (" + ", ".join(f"{key} = {value}" for key, value in HNSW_OPTIONS.items()) + ")" \
        if method == "hnsw" else ""
    with connection.cursor() as cursor:
        # the owner as literals: a partial index's predicate cannot take parameters
        predicate = cursor.mogrify("tenant_id = %s AND user_id = %s AND status = %s",
                                   [tenant_id, user_id, MemoryStatus.ACTIVE])
        # an HNSW build whose graph outgrows maintenance_work_mem (64 MB by default: ~30k vectors of 512) slows
        # down several times; the session's setting is raised for the build only
        cursor.execute("SELECT current_setting('maintenance_work_mem')")
        previous = cursor.fetchone()[0]
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [BUILD_MEMORY])
        try:
            cursor.execute(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {quote(name)} ON {quote(Memory._meta.db_table)}"
                           f" USING {method} ({target}){options} WHERE {predicate}")
        finally:
            cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [previous])


def _as_built(method: str, built: Built) -> bool:
    """Whether a valid index has the parameters this code builds (HNSW_OPTIONS for the graph)."""
    return method != "hnsw" or built.options == {key: str(value) for key, value in HNSW_OPTIONS.items()}


def _drop(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {connection.ops.quote_name(name)}")


def large_owner_indexes_sync(*, dry_run: bool = False) -> dict:
    """Build the indexes of owners past the threshold, drop those of owners below `keep_memories` (each tenant's
    policy), rebuild invalid ones. Returns what it did (or, with `dry_run`, would do)."""
    if connection.in_atomic_block:
        raise RuntimeError("large_owner_indexes_sync builds indexes CONCURRENTLY: call it outside a transaction")
    catalogue = _catalogue()
    policies = {tenant_id: large_owner_policy(tenant_id) for tenant_id in Tenant.objects.values_list("pk", flat=True)}
    floor = min((rules.min_memories for rules in policies.values()), default=1)
    counts = _owner_counts(floor=floor, owners={built.owner for built in catalogue.values() if built.owner})
    wanted: dict[str, tuple[int, str, str]] = {}
    for (tenant_id, user_id), count in counts.items():
        rules = policies.get(tenant_id)
        names = owner_index_names(tenant_id, user_id)
        if rules is None:
            continue
        if count >= rules.min_memories or (any(name in catalogue for name in names) and count >= rules.keep_memories):
            for name, method in zip(names, ("hnsw", "gin")):
                wanted[name] = (tenant_id, user_id, method)
    report = {"built": 0, "rebuilt": 0, "dropped": 0, "owners": len({owner[:2] for owner in wanted.values()})}
    changed: dict[tuple[str, tuple[int, str]], list[str]] = {}
    for name, (tenant_id, user_id, method) in sorted(wanted.items()):
        built = catalogue.get(name)
        if built is not None and built.valid and _as_built(method, built):
            continue
        report["built" if built is None else "rebuilt"] += 1
        if dry_run:
            continue
        if built is not None:
            _drop(name)  # an interrupted build's invalid index
        _create(name, tenant_id, user_id, method)
        changed.setdefault(("built", (tenant_id, user_id)), []).append(name)
    for name in sorted(set(catalogue) - set(wanted)):
        report["dropped"] += 1
        if not dry_run:
            _drop(name)
            changed.setdefault(("dropped", catalogue[name].owner), []).append(name)
    if changed and not dry_run:
        # the planner picks the owner's GIN index over the owner B-tree only when the statistics know the owner's
        # size (a new large owner's rows are usually newer than the last auto-analyze)
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(Memory._meta.db_table)}")
    if not dry_run:
        for (action, owner), names in changed.items():
            # an owner with no active memory left (erased, archived) gets no event: the drop changes nothing of
            # theirs, and an event would make a pseudonym for a user who may be erased
            if owner is not None and counts.get(owner) and owner[0] in policies:
                _audit(owner[0], owner[1], action, names, counts[owner])
        index_list.forget()
    return report


def owner_indexes_drop_on_commit(*, tenant_id: int, user_id: str) -> bool:
    """Ask the job to run after the caller's transaction commits when this owner has indexes of its own (built
    or interrupted): erasure calls it, since an index's predicate names the user id in the catalogue until the job
    drops it (an owner without active memories keeps none). No user id goes into the request."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_class WHERE relkind = 'i' AND relname = ANY(%s)",
                       [list(owner_index_names(tenant_id, user_id))])
        if cursor.fetchone() is None:
            return False
    task_enqueue_on_commit(JOB_TASK, dedupe_key=JOB_TASK)
    return True


def _audit(tenant_id: int, user_id: str, action: str, names: list[str], count: int) -> None:
    with transaction.atomic():
        audit_record(tenant_id=tenant_id, actor=ACTOR, event=MEMORY_OWNER_INDEXES, object_id="-",
                     after={"action": action, "indexes": len(names), "active_memories": count},
                     subject_user_id=user_id)
