"""Writing new memories: one or a batch, with secret refusal, quarantine, merge and supersession."""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from audit.subjects import subject_digest
from layers.long_term.conditions.condition import condition_signature
from layers.long_term.events import (
    MEMORY_BATCH_CREATED,
    MEMORY_CREATED,
    MEMORY_MERGED,
    MEMORY_QUARANTINED,
    MEMORY_SUPERSEDED,
)
from layers.long_term.graph.services import memory_edges_sync
from layers.long_term.importance import importance_infer
from layers.long_term.models import Memory, MemoryKind, MemorySource, MemoryStatus
from layers.long_term.policy import Policy, tenant_policy
from layers.long_term.services.indexing import (
    apply_derived,
    content_hash,
    embed_contents,
    expiry_for,
)
from layers.long_term.services.validation import memory_fields_errors, raise_item_errors
from memoryhub.core.actors import Actor
from memoryhub.core.errors import InvalidInput
from memoryhub.core.locks import USER_MEMORIES, advisory_lock, deadlock_retry
from memoryhub.core.request_context import current_request_id
from memoryhub.safety.injection import injection_reasons

MAX_BATCH = 100
# Advisory lock class for one user's memory writes (dedupe and supersession read-then-write).


class Outcome:
    CREATED = "created"
    MERGED = "merged"
    SUPERSEDED = "superseded"
    EXISTING = "existing"


@dataclass
class MemoryWrite:
    memory: Memory
    outcome: str
    superseded: Memory | None = None


def lock_user_memories(tenant_id: int, user_id: str) -> None:
    """Serialise writes to one user's memories (dedupe and supersession read before they write)."""
    advisory_lock(USER_MEMORIES, f"{tenant_id}:{user_id}")


def memory_audit_state(memory: Memory) -> dict:
    """What the audit trail may hold about a memory: no user text, only its keyed digest."""
    return {
        "kind": memory.kind, "status": memory.status, "memory_key": memory.memory_key,
        "content": subject_digest(memory.tenant_id, memory.user_id, memory.content),
        "confidence": memory.confidence, "importance": memory.importance,
    }


def _strengthen(memory: Memory, *, confidence: float, importance: float, entities, client_id, policy: Policy,
                now) -> None:
    """Fold a restatement into `memory`: more certain (a quarter of the remaining way), as important as
    the stronger of the two, confirmed now (recency restarts)."""
    stronger = max(memory.confidence, confidence)
    memory.confidence = min(1.0, stronger + (1.0 - stronger) * 0.25)
    memory.importance = max(memory.importance, importance)
    memory.mention_count += 1
    memory.last_confirmed_at = now
    memory.entities = list(dict.fromkeys([*memory.entities, *entities]))
    memory.expires_at = expiry_for(policy, memory.importance, now)
    if client_id and not memory.client_id:
        memory.client_id = client_id


def _merge_stored(existing: Memory, *, item: dict, policy: Policy, actor: Actor, now) -> MemoryWrite:
    before = memory_audit_state(existing)
    _strengthen(existing, confidence=item["confidence"], importance=item["importance"], entities=item["entities"],
                client_id=item.get("client_id"), policy=policy, now=now)
    # A row stored before the detector knew a trick is not served on because someone said it again.
    reasons = [] if existing.status == MemoryStatus.QUARANTINED else injection_reasons(existing.content)
    if reasons:
        existing.transition_to(MemoryStatus.QUARANTINED)
        existing.quarantine_reasons = list(reasons)
    existing._change_reason = "restated"
    existing.save()
    audit_record(tenant_id=existing.tenant_id, actor=actor, event=MEMORY_QUARANTINED if reasons else MEMORY_MERGED,
                 object_id=existing.pk, before=before,
                 after={**memory_audit_state(existing), **({"quarantine_reasons": list(reasons)} if reasons else {})},
                 subject_user_id=existing.user_id)
    return MemoryWrite(existing, Outcome.MERGED)


def _new_memory(*, tenant, item: dict, embedding: list[float], embedding_model: str, policy: Policy, now,
                derived: dict | None = None) -> Memory:
    # `derived`: the content's injection reasons and keyword fields computed beforehand (the import computes
    # them in its embedding workers, services/bulk.py); the same functions' output, never the caller's input
    reasons = derived["quarantine_reasons"] if derived is not None else injection_reasons(item["content"])
    memory = Memory(
        tenant=tenant, user_id=item["user_id"], agent_id=item.get("agent_id") or "", kind=item["kind"],
        content=item["content"], memory_key=item.get("memory_key") or "", entities=list(item["entities"]),
        attributes=item.get("attributes") or {}, confidence=item["confidence"], importance=item["importance"],
        source=item["source"], source_session_id=item.get("source_session_id") or "",
        source_turn_from=item.get("source_turn_from"), source_turn_to=item.get("source_turn_to"),
        extractor=item.get("extractor") or "", client_id=item.get("client_id") or None,
        valid_from=now, last_confirmed_at=now, expires_at=expiry_for(policy, item["importance"], now),
        status=MemoryStatus.QUARANTINED if reasons else MemoryStatus.ACTIVE, quarantine_reasons=reasons,
        created_at=now, updated_at=now, request_id=current_request_id.get()[:64],  # bulk_create skips save()
    )
    apply_derived(memory, embedding=embedding, embedding_model=embedding_model,
                  keywords=derived["keywords"] if derived is not None else None)
    return memory


def _supersede(tenant, new_rows: list[Memory], *, policy: Policy, actor: Actor, now) -> dict[int, Memory]:
    """Retire older active values of single-valued keys; returns {new memory pk: a row it superseded}.
    A conditional preference's variants share the key and differ by condition (layers/long_term/conditions/
    condition.py): a value replaces the one of the same condition only, never the general one or another exception.
    A memory under one of `policy.ending_keys` retires the current memory of its target key that names the same
    thing ("User used to work at Google." ends "User works at Google.")."""
    latest: dict[tuple[str, str, str], Memory] = {}
    for memory in new_rows:
        if memory.status == MemoryStatus.ACTIVE and policy.is_single_valued(memory.memory_key):
            # the last of a batch is the current value
            latest[(memory.user_id, memory.memory_key, condition_signature(memory.attributes))] = memory
    superseded: dict[int, Memory] = {}
    for (user_id, memory_key, condition), winner in latest.items():
        olds = (Memory.objects.select_for_update()
                .filter(tenant=tenant, user_id=user_id, memory_key=memory_key, status=MemoryStatus.ACTIVE)
                .exclude(pk=winner.pk).order_by("id"))
        for old in (old for old in olds if condition_signature(old.attributes) == condition):
            _retire(tenant, old, winner, actor=actor, now=now)
            superseded[winner.pk] = old
    for ending in new_rows:
        target = policy.ending_keys.get(ending.memory_key or "")
        if ending.status != MemoryStatus.ACTIVE or not target or not ending.entities:
            continue
        olds = (Memory.objects.select_for_update()
                .filter(tenant=tenant, user_id=ending.user_id, memory_key=target, status=MemoryStatus.ACTIVE)
                .order_by("id"))
        for old in (old for old in olds if _names_same(ending.entities[0], old.entities)):
            _retire(tenant, old, ending, actor=actor, now=now)
            superseded.setdefault(ending.pk, old)
    return superseded


def _names_same(value: str, entities: list[str]) -> bool:
    """Whether `value` names one of `entities`: equal ignoring case, or one holds the other ("字节" and
    "字节跳动"; two characters at least, so a stray letter matches nothing)."""
    value = value.casefold().strip()
    return len(value) >= 2 and any(
        value == other or (len(other) >= 2 and (value in other or other in value))
        for other in (entity.casefold().strip() for entity in entities))


def _retire(tenant, old: Memory, winner: Memory, *, actor: Actor, now) -> None:
    before = memory_audit_state(old)
    old.transition_to(MemoryStatus.SUPERSEDED)
    old.valid_to = now
    old.superseded_by = winner
    old._change_reason = "superseded"
    old.save()
    audit_record(tenant_id=tenant.pk, actor=actor, event=MEMORY_SUPERSEDED,
                 object_id=old.pk, before=before, after={**memory_audit_state(old), "superseded_by": winner.pk},
                 subject_user_id=old.user_id)


def _audit_created(tenant, created: list[Memory], *, actor: Actor, single: bool) -> None:
    if single:
        for memory in created:
            audit_record(tenant_id=tenant.pk, actor=actor,
                         event=MEMORY_QUARANTINED if memory.quarantine_reasons else MEMORY_CREATED, object_id=memory.pk,
                         after={**memory_audit_state(memory), "quarantine_reasons": memory.quarantine_reasons},
                         subject_user_id=memory.user_id)
        return
    # A batch is one event per user (not one per memory): the event names every memory and carries each
    # one's keyed content digest, at a fraction of the cost of a chained event per row.
    by_user: dict[str, list[Memory]] = {}
    for memory in created:
        by_user.setdefault(memory.user_id, []).append(memory)
    for user_id, memories in by_user.items():
        audit_record(tenant_id=tenant.pk, actor=actor, event=MEMORY_BATCH_CREATED,
                     object_id=memories[0].pk,
                     after={"memory_ids": [m.pk for m in memories],
                            "memories": [{"id": m.pk, **memory_audit_state(m),
                                          "quarantine_reasons": m.quarantine_reasons} for m in memories]},
                     subject_user_id=user_id)


def memory_items_normalise(*, tenant_id: int, items: list[dict], policy: Policy,
                          default_source: str = MemorySource.STATED) -> tuple[list[dict], dict[int, list[dict]]]:
    """Defaults filled in and every field checked (the one check the API and the import share):
    the items ready to write, and {index: [{field, code, message}]} for those that cannot be."""
    normalised = []
    errors: dict[int, list[dict]] = {}
    for index, item in enumerate(items):
        item = {**item, "kind": item.get("kind") or MemoryKind.FACT, "entities": item.get("entities") or [],
                "confidence": item.get("confidence", 1.0), "source": item.get("source") or default_source}
        if item.get("importance") is None:  # none given: inferred from kind, key and content
            content = item.get("content") if isinstance(item.get("content"), str) else ""
            key = item.get("memory_key") if isinstance(item.get("memory_key"), str) else None
            item["importance"] = importance_infer(kind=item["kind"], memory_key=key, content=content,
                                                  by_key_family=policy.importance_by_key)
        problems = memory_fields_errors(tenant_id=tenant_id, **{k: item.get(k) for k in (
            "user_id", "kind", "content", "memory_key", "entities", "attributes", "confidence", "importance",
            "source", "client_id")})
        if problems:
            errors[index] = problems
        else:
            item["confidence"], item["importance"] = float(item["confidence"]), float(item["importance"])
            item["entities"] = list(dict.fromkeys(item["entities"]))
            item["memory_key"] = item.get("memory_key") or ""
            item["hash"] = content_hash(item["content"])
        normalised.append(item)
    return normalised, errors


def _bulk_insert(memories: list[Memory], *, now) -> list[Memory]:
    created = Memory.objects.bulk_create(memories)
    Memory.history.bulk_history_create(created, default_date=now, default_change_reason=None, default_user=None)
    return created


def memory_rows_write(*, tenant, actor: Actor, normalised: list[dict], vectors: list, model: str, policy: Policy,
                      insert=None, audit=None, derived: list[dict] | None = None) -> list[MemoryWrite]:
    """Store checked items (`memory_items_normalise`) with their vectors, in one transaction: client ids
    already stored are `existing`, exact duplicates merge, the rest are inserted by `insert` (bulk_create
    with first versions by default; the import COPYs), then edges and supersession; `audit` (default: the
    API's created events) is given every outcome at the end; `derived` (one per item, `_new_memory`) spares
    recomputing what the import's workers computed."""
    now = timezone.now()
    with transaction.atomic():
        users = sorted({item["user_id"] for item in normalised})
        for user_id in users:
            lock_user_memories(tenant.pk, user_id)
        owned = Memory.objects.filter(tenant=tenant, user_id__in=users)
        client_ids = [item["client_id"] for item in normalised if item.get("client_id")]
        by_client = {(m.user_id, m.client_id): m for m in owned.filter(client_id__in=client_ids)} if client_ids else {}
        stored_duplicates = {}
        for memory in (owned.select_for_update()
                       .filter(content_hash__in={item["hash"] for item in normalised},
                               status__in=[MemoryStatus.ACTIVE, MemoryStatus.QUARANTINED]).order_by("-id")):
            stored_duplicates[(memory.user_id, memory.kind, memory.content_hash, memory.memory_key)] = memory

        results: list[MemoryWrite | None] = [None] * len(normalised)
        pending: dict[tuple, Memory] = {}
        new_rows: list[tuple[int, Memory]] = []
        for index, (item, vector) in enumerate(zip(normalised, vectors)):
            client_key = (item["user_id"], item.get("client_id"))
            if item.get("client_id") and client_key in by_client:
                results[index] = MemoryWrite(by_client[client_key], Outcome.EXISTING)
                continue
            same = (item["user_id"], item["kind"], item["hash"], item["memory_key"])
            if same in stored_duplicates:
                write = _merge_stored(stored_duplicates[same], item=item, policy=policy, actor=actor, now=now)
            elif same in pending:
                _strengthen(pending[same], confidence=item["confidence"], importance=item["importance"],
                            entities=item["entities"], client_id=item.get("client_id"), policy=policy, now=now)
                write = MemoryWrite(pending[same], Outcome.MERGED)
            else:
                memory = _new_memory(tenant=tenant, item=item, embedding=vector, embedding_model=model, policy=policy,
                                     now=now, derived=derived[index] if derived is not None else None)
                pending[same] = memory
                new_rows.append((index, memory))
                write = MemoryWrite(memory, Outcome.CREATED)
            results[index] = write
            if item.get("client_id"):
                by_client[client_key] = write.memory

        created = (insert or _bulk_insert)([memory for _, memory in new_rows], now=now)
        if audit is None:
            _audit_created(tenant, created, actor=actor, single=len(normalised) == 1)
        # Bulk inserts send no post_save: the new rows' edges are derived here, in this transaction (saved
        # rows get theirs from layers/long_term/graph/receivers.py), covered by the events just recorded.
        memory_edges_sync(created)
        superseded = _supersede(tenant, created, policy=policy, actor=actor, now=now)
        for index, write in enumerate(results):
            if write.outcome == Outcome.CREATED and write.memory.pk in superseded:
                results[index] = MemoryWrite(write.memory, Outcome.SUPERSEDED, superseded[write.memory.pk])
        if audit is not None:
            audit(results)
        return results


@deadlock_retry
def memory_create_batch(*, tenant, actor: Actor, items: list[dict], name_items: bool = True) -> list[MemoryWrite]:
    """Write up to MAX_BATCH memories, all or nothing.

    Every item is checked before anything is written; if any fails (a secret, a bad field), one
    InvalidInput names each failing item by index and nothing is stored. Contents are embedded in
    one provider call outside the transaction; new rows and their first versions are inserted in
    bulk, so a batch costs a handful of statements rather than a dozen per memory. Per item the
    outcome is `existing` (its client_id is already stored), `merged` (an exact duplicate of a stored
    or earlier item), `superseded` (it replaced the value of a single-valued key) or `created`.
    """
    if not items:
        raise InvalidInput(_("no memories given"), code="invalid")
    if len(items) > MAX_BATCH:
        raise InvalidInput(_("at most %d memories per batch") % MAX_BATCH, code="batch_too_large")
    policy = tenant_policy(tenant.pk)
    normalised, errors = memory_items_normalise(tenant_id=tenant.pk, items=items, policy=policy)
    raise_item_errors(errors, batch=name_items)

    vectors, model = embed_contents([item["content"] for item in normalised])
    return memory_rows_write(tenant=tenant, actor=actor, normalised=normalised, vectors=vectors, model=model,
                             policy=policy)


def memory_create(*, tenant, actor: Actor, user_id: str, kind: str, content: str, memory_key: str | None = None,
                  entities=(), attributes: dict | None = None, confidence: float = 1.0, importance: float | None = None,
                  source: str = MemorySource.STATED, source_session_id: str | None = None,
                  source_turn_from: int | None = None, source_turn_to: int | None = None,
                  agent_id: str | None = None, client_id: str | None = None,
                  extractor: str | None = None) -> MemoryWrite:
    """Write one memory (see `memory_create_batch`); outcome is created, merged, superseded or existing."""
    item = {"user_id": user_id, "kind": kind, "content": content, "memory_key": memory_key,
            "entities": list(entities or ()), "attributes": attributes, "confidence": confidence,
            "importance": importance, "source": source, "source_session_id": source_session_id,
            "source_turn_from": source_turn_from, "source_turn_to": source_turn_to, "agent_id": agent_id,
            "client_id": client_id, "extractor": extractor}
    return memory_create_batch(tenant=tenant, actor=actor, items=[item], name_items=False)[0]
