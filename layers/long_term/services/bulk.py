"""Bulk import and export of memories (manage.py import_memories / export_memories).

An import line goes through the memories API's own checks and outcomes (`memory_item_shape_error`,
`memory_items_normalise`, `memory_rows_write` in create.py): secrets refused, injections quarantined,
exact duplicates merged, single-valued keys superseded. What differs is the scale: each batch is
embedded in one provider call and its rows and first versions are written with PostgreSQL COPY, in one
transaction per batch, audited by one `memory.imported` event per batch (counts, the line range, the new
ids and a keyed digest of their contents).

Embedding is most of an import's work, and what else a new row derives from its content alone (injection
reasons, keyword terms, the vector's COPY text) is the rest of its per-line CPU: `prepare_contents` computes
all of it, in worker processes when asked (`workers`), so batch N+1 is prepared on the other core while batch
N is checked against the stored rows and written (docs/benchmarks.md, "Import and large owners, second
round").

Re-running a file adds nothing: a line without a `client_id` gets one derived from its own text
(`import:<sha256 of the line's canonical JSON>`), and a line whose client id is stored is skipped before
it is embedded, so an interrupted import resumes where its last committed batch ended.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
from collections import Counter, deque
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping

import django
import numpy as np
from django.db import connection, models, transaction

from audit.services import audit_record
from audit.subjects import subject_digest, subject_pseudonym
from layers.long_term.events import MEMORIES_EXPORTED, MEMORIES_IMPORTED
from layers.long_term.models import Memory, MemorySource, MemoryStatus
from layers.long_term.policy import tenant_policy
from layers.long_term.selectors import memory_list
from layers.long_term.services.create import MemoryWrite, Outcome, memory_items_normalise, memory_rows_write
from layers.long_term.services.indexing import keyword_fields
from layers.long_term.services.validation import CREATE_FIELDS, memory_item_shape_error
from memoryhub.core.actors import Actor
from memoryhub.core.locks import deadlock_retry
from memoryhub.providers.embeddings import EMBEDDING_DIMENSIONS, embed_or_unavailable, get_embedder
from memoryhub.safety.injection import injection_reasons

IMPORT_BATCH = 1000
IMPORT_CHANGE_REASON = "imported"
# The statuses an export writes and an import of a user export reads: the memories currently held.
CURRENT_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.QUARANTINED)


@dataclass
class LineError:
    line: int
    errors: list[dict]


@dataclass
class ImportReport:
    lines: int = 0
    outcomes: Counter = field(default_factory=Counter)
    errors: list[LineError] = field(default_factory=list)
    batches: int = 0

    def as_dict(self) -> dict:
        return {"lines": self.lines, "batches": self.batches, "invalid": len(self.errors),
                **{outcome: self.outcomes[outcome] for outcome in (
                    Outcome.CREATED, Outcome.SUPERSEDED, Outcome.MERGED, Outcome.EXISTING, "quarantined",
                    "skipped")}}


def line_client_id(raw: dict) -> str:
    canonical = json.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "import:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


# ---- writing with COPY ---------------------------------------------------------------------------------

def _copy_columns(model) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not isinstance(f, models.GeneratedField)
            and not (model is Memory.history.model and f.attname == "history_id")]


# pgvector's text form, one format operation per row (~3x faster than joining reprs): 9 significant digits
# round-trip every float32; a halfvec column stores float16, whose every value 5 digits name exactly, so the
# vector is rounded to float16 first (round to nearest even, as pgvector rounds the float32 the API sends)
# and the row's text is half as long.
# A narrower model's zero padding (embeddings.py `_to_column`) is written as one constant suffix.


def _vector_texts(vectors) -> list[str]:
    halfvec = Memory._meta.get_field("embedding").db_type(connection).startswith("halfvec")
    vectors = np.asarray(vectors, dtype=np.float16 if halfvec else np.float32).reshape(-1, EMBEDDING_DIMENSIONS)
    nonzero = np.flatnonzero(vectors.any(axis=0))
    width = int(nonzero[-1]) + 1 if nonzero.size else 1
    head = "[" + ",".join(["%.5g" if halfvec else "%.9g"] * width)
    tail = ",0" * (EMBEDDING_DIMENSIONS - width) + "]"
    return [head % tuple(row) + tail for row in vectors[:, :width].tolist()]


def _copy(model, columns: list[models.Field], rows: Iterable[list]) -> None:
    names = ", ".join(connection.ops.quote_name(f.column) for f in columns)
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {connection.ops.quote_name(model._meta.db_table)} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def _converter(field: models.Field):
    """How a column's Python value goes into COPY's text form: psycopg writes strings, numbers, datetimes,
    lists and None itself; JSON and vectors need their text (get_db_prep_save per value cost more than the
    COPY itself)."""
    if isinstance(field, models.JSONField):
        return lambda value: json.dumps(value, ensure_ascii=False)
    if field.attname == "embedding":  # COPY text already (prepare_contents)
        return lambda value: value if value is None or isinstance(value, str) else _vector_texts([value])[0]
    return None


def _rows(memories: list[Memory], columns, fixed: dict) -> Iterator[list]:
    converters = [_converter(f) for f in columns]
    names = [f.attname for f in columns]
    for memory in memories:
        values = memory.__dict__
        yield [fixed[name] if name in fixed else (convert(values[name]) if convert else values[name])
               for name, convert in zip(names, converters)]


def copy_insert(memories: list[Memory], *, now) -> list[Memory]:
    """Insert new memories and their first versions with COPY (ids taken from the table's sequence first,
    since COPY returns none). What bulk_create and bulk_history_create would write, row for row."""
    if not memories:
        return []
    table = Memory._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                       [table, len(memories)])
        for memory, (pk,) in zip(memories, cursor.fetchall()):
            memory.pk = pk
            memory._state.adding = False
    for model, fixed in ((Memory, {}), (Memory.history.model, {
            "history_date": now, "history_type": "+", "history_change_reason": IMPORT_CHANGE_REASON,
            "history_user_id": None})):
        columns = _copy_columns(model)
        _copy(model, columns, _rows(memories, columns, fixed))
    return memories


def _batch_digest(tenant_id: int, created: list[Memory]) -> str:
    """sha256 over each user's keyed digest of their new rows' content hashes: reproducible by whoever holds
    the users' subject keys (audit/subjects.py), unlinkable once a user is erased."""
    by_user: dict[str, list[str]] = {}
    for memory in sorted(created, key=lambda m: m.pk):
        by_user.setdefault(memory.user_id, []).append(memory.content_hash)
    keyed = [subject_digest(tenant_id, user_id, "\n".join(hashes)) for user_id, hashes in sorted(by_user.items())]
    return hashlib.sha256("".join(keyed).encode()).hexdigest()


def _batch_counts(results: list[MemoryWrite], skipped: int) -> Counter:
    """A batch's outcomes as the report and its audit event count them: the lines skipped as already stored
    among the existing, and the new rows held back for review as `quarantined`."""
    counts = Counter(w.outcome for w in results)
    counts[Outcome.EXISTING] += skipped
    counts["quarantined"] = sum(1 for w in results if w.outcome in (Outcome.CREATED, Outcome.SUPERSEDED)
                                and w.memory.status == MemoryStatus.QUARANTINED)
    return counts


def _audit_batch(tenant, actor: Actor, lines: list[int], skipped: int,
                 counted: Counter) -> Callable[[list[MemoryWrite]], None]:
    """The batch's `memory.imported` event; its counts are left in `counted` for the import's report."""
    def record(results: list[MemoryWrite]) -> None:
        created = [w.memory for w in results if w.outcome in (Outcome.CREATED, Outcome.SUPERSEDED)]
        counts = _batch_counts(results, skipped)
        counted.clear()  # a retried transaction (deadlock_retry) counts again from nothing
        counted.update(counts)
        users = sorted({w.memory.user_id for w in results})
        audit_record(tenant_id=tenant.pk, actor=actor, event=MEMORIES_IMPORTED,
                     object_id=created[0].pk if created else "-",
                     after={"lines": [lines[0], lines[-1]], "counts": dict(counts), "users": len(users),
                            "memory_ids": [m.pk for m in created], "digest": _batch_digest(tenant.pk, created)},
                     subject_user_id=users[0] if len(users) == 1 else None)
    return record


@deadlock_retry
def _write_batch(*, tenant, actor: Actor, normalised, prepared: "Prepared", policy, lines, skipped) -> Counter:
    """Write one batch in one transaction; its outcome counts (`_batch_counts`), as audited."""
    counted: Counter = Counter()
    with transaction.atomic():
        memory_rows_write(tenant=tenant, actor=actor, normalised=normalised, vectors=prepared.vectors,
                          model=prepared.model, policy=policy, insert=copy_insert, derived=prepared.derived,
                          audit=_audit_batch(tenant, actor, lines, skipped, counted))
    return counted


# ---- preparing rows: embedding and what else comes from the content alone ----------------------------

@dataclass
class Prepared:
    vectors: list[str]  # COPY text (_vector_texts)
    model: str
    derived: list[dict]  # per content: what create.py's _new_memory would compute from it


def prepare_contents(contents: list[str]) -> Prepared:
    """Embed `contents` in one provider call and compute each one's injection reasons and keyword fields, the
    same functions the API's write path calls (create.py `_new_memory`): pure, so a worker process can."""
    embedder = get_embedder()
    vectors = embed_or_unavailable(embedder, list(contents))
    return Prepared(vectors=_vector_texts(vectors), model=embedder.name,
                    derived=[{"quarantine_reasons": injection_reasons(content), "keywords": keyword_fields(content)}
                             for content in contents])


def _done(value) -> Future:
    future: Future = Future()
    future.set_result(value)
    return future


@contextmanager
def _preparer(workers: int) -> Iterator[Callable[[list[str]], Future]]:
    """`prepare(contents)` giving a future: in this process (0 workers), or in `workers` processes started
    fresh (spawn: no database connection, lock or thread of this process is shared with them; each loads its
    own embedder with the same settings, from the environment)."""
    if workers <= 0:
        yield lambda contents: _done(prepare_contents(contents))
        return
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=django.setup)
    try:
        yield lambda contents: pool.submit(prepare_contents, contents)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# ---- the import --------------------------------------------------------------------------------------

def _batches(records: Iterable[tuple[int, object]], size: int) -> Iterator[list[tuple[int, object]]]:
    batch: list[tuple[int, object]] = []
    for record in records:
        batch.append(record)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _checked(tenant, batch, policy, report: ImportReport) -> list[tuple[int, dict]]:
    """The batch's lines that can be stored, normalised; the others go to report.errors."""
    lines, items = [], []
    for line, raw in batch:
        report.lines += 1
        if isinstance(raw, LineError):
            report.errors.append(raw)
            continue
        if raw is None:  # a row a user export holds but that is not current (superseded, deleted, archived)
            report.outcomes["skipped"] += 1
            continue
        problem = memory_item_shape_error(raw, check_strings=True)
        if problem:
            report.errors.append(LineError(line, problem[1]))
            continue
        items.append({**raw, "client_id": raw.get("client_id") or line_client_id(raw)})
        lines.append(line)
    normalised, errors = memory_items_normalise(tenant_id=tenant.pk, items=items, policy=policy,
                                                default_source=MemorySource.IMPORTED)
    report.errors.extend(LineError(lines[index], problems) for index, problems in sorted(errors.items()))
    return [(line, item) for index, (line, item) in enumerate(zip(lines, normalised)) if index not in errors]


def memories_import_check(*, tenant, records: Iterable[tuple[int, object]], report: ImportReport,
                          batch_size: int = IMPORT_BATCH) -> Iterator[tuple[list[int], list[tuple[int, dict]]]]:
    """Check (line number, memory dict) records batch by batch, as the API would: yields each batch's line
    numbers and its storable lines, normalised; every other line is added to `report.errors`."""
    policy = tenant_policy(tenant.pk)
    for batch in _batches(records, max(1, batch_size)):
        yield [line for line, _ in batch], _checked(tenant, batch, policy, report)


def _unstored(tenant, good: list[tuple[int, dict]]) -> list[tuple[int, dict]]:
    """The lines of a checked batch whose client id is not stored yet (the others are not embedded again)."""
    if not good:
        return []
    stored = set(Memory.objects.filter(
        tenant=tenant, user_id__in={item["user_id"] for _, item in good},
        client_id__in=[item["client_id"] for _, item in good]).values_list("user_id", "client_id"))
    return [(line, item) for line, item in good if (item["user_id"], item["client_id"]) not in stored]


def memories_import(*, tenant, actor: Actor, batches: Iterable[tuple[list[int], list[tuple[int, dict]]]],
                    report: ImportReport, progress: Callable[[ImportReport, list[int]], None] | None = None,
                    workers: int = 0) -> ImportReport:
    """Write checked batches (`memories_import_check`), each in its own transaction, all or nothing.

    Lines whose client id is stored are counted as existing and skipped before they are prepared; the rest
    are prepared (`prepare_contents`: one provider call per batch) and written by `memory_rows_write` with
    COPY, in file order. With `workers`, up to `workers + 1` batches are prepared ahead of the one being
    written (a line whose client id an earlier batch of the same file stores is found `existing` by the
    write itself). `progress(report, lines)` runs after each batch."""
    policy = tenant_policy(tenant.pk)
    ahead: deque = deque()

    def write(lines, good, todo, pending) -> None:
        skipped = len(good) - len(todo)
        if todo:
            prepared = pending.result()
            users = sorted({item["user_id"] for _, item in todo})
            for user_id in users:
                # each user's subject key before the batch's transaction: a user's first key is then one insert
                # here, not a connection of its own opened inside the transaction (audit/subjects.py)
                subject_pseudonym(tenant.pk, user_id)
            # the batch's counts, the skipped lines among its existing, as its audit event has them
            report.outcomes.update(_write_batch(
                tenant=tenant, actor=actor, normalised=[item for _, item in todo], prepared=prepared,
                policy=policy, lines=[line for line, _ in todo], skipped=skipped))
            report.batches += 1
        else:
            report.outcomes[Outcome.EXISTING] += skipped
        if progress:
            progress(report, lines)

    with _preparer(workers) as prepare:
        for lines, good in batches:
            todo = _unstored(tenant, good)
            ahead.append((lines, good, todo, prepare([item["content"] for _, item in todo]) if todo else None))
            while len(ahead) > workers:
                write(*ahead.popleft())
        while ahead:
            write(*ahead.popleft())
    return report


# ---- the export --------------------------------------------------------------------------------------

def export_line(values: Mapping) -> dict:
    """An import line from a memory's field values (a row of GET /users/{id}/export, or a memory's own): the
    fields a client gives (CREATE_FIELDS), empty ones left out."""
    return {name: values[name] for name in CREATE_FIELDS if values.get(name) not in (None, "", [], {})}


def memory_export_line(memory: Memory) -> dict:
    """One memory as an import line (export_line)."""
    return export_line({name: getattr(memory, name) for name in CREATE_FIELDS})


def memories_export(*, tenant, actor: Actor, user_id: str | None = None) -> Iterator[dict]:
    """The tenant's current memories (active and quarantined; of one user with `user_id`), oldest first,
    as import lines; one `memory.exported` event with the count once all were handed out."""
    queryset = memory_list(tenant=tenant, user_id=user_id, statuses=list(CURRENT_STATUSES)).order_by("id")
    count = 0
    for memory in queryset.iterator(chunk_size=2000):
        count += 1
        yield memory_export_line(memory)
    audit_record(tenant_id=tenant.pk, actor=actor, event=MEMORIES_EXPORTED, object_id="-",
                 after={"memories": count, "user": bool(user_id)}, subject_user_id=user_id)
