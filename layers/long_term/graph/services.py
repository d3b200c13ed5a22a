"""Writing the graph: edges follow their memories.

`memory_edges_sync` runs inside the transaction of the memory write that called it (the create path's
one call, and the post_save receiver in receivers.py), so an edge is never seen without its memory's
change. Those edges are covered by that write's own audit event (memory.created, .superseded, .updated,
...): an edge only restates part of its memory and is never changed on its own. The backfill, which
writes edges outside any memory write, records its own event (events.py).
"""
from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from layers.long_term.graph.derivation import edges_for
from layers.long_term.graph.events import GRAPH_BACKFILLED
from layers.long_term.graph.models import Edge, entity_key
from layers.long_term.graph.policy import graph_policy
from layers.long_term.models import Memory, MemoryStatus
from memoryhub.core.actors import Actor


def _open_until(memory: Memory, now):
    """When the memory's edges stop holding: a superseded memory's valid_to; else still open."""
    if memory.status == MemoryStatus.SUPERSEDED:
        return memory.valid_to or now
    return memory.valid_to


def memory_edges_sync(memories: Iterable[Memory]) -> int:
    """Make the edges of each memory what it states now; returns the number of edges written.

    Idempotent: an edge is unique per (memory, subject, predicate, object), so a second run finds every
    edge in place and writes nothing. An edge the memory no longer states (a correction) is closed, not
    deleted; one it states again is reopened."""
    memories = [m for m in memories if m.pk]
    if not memories:
        return 0
    now = timezone.now()
    policies: dict[int, object] = {}
    existing: dict[int, dict[tuple, Edge]] = {}
    for edge in Edge.objects.select_for_update().filter(memory_id__in=[m.pk for m in memories]):
        existing.setdefault(edge.memory_id, {})[(edge.subject_key, edge.predicate, edge.object_key)] = edge
    new: list[Edge] = []
    changed: list[Edge] = []
    for memory in memories:
        if memory.tenant_id not in policies:  # once per tenant (setdefault would read the policy per memory)
            policies[memory.tenant_id] = graph_policy(memory.tenant_id)
        policy = policies[memory.tenant_id]
        specs = edges_for(memory_key=memory.memory_key, attributes=memory.attributes,
                          entities=list(memory.entities or []), policy=policy)
        valid_to = _open_until(memory, now)
        stored = existing.get(memory.pk, {})
        wanted = set()
        for spec in specs:
            wanted.add(spec.identity)
            edge = stored.get(spec.identity)
            if edge is None:
                new.append(Edge(
                    tenant_id=memory.tenant_id, user_id=memory.user_id, subject=spec.subject,
                    subject_key=entity_key(spec.subject), predicate=spec.predicate, object=spec.object,
                    object_key=entity_key(spec.object), memory=memory, source_session_id=memory.source_session_id,
                    source_turn_from=memory.source_turn_from, source_turn_to=memory.source_turn_to,
                    valid_from=memory.valid_from, valid_to=valid_to))
            elif edge.valid_to != valid_to:
                edge.valid_to = valid_to
                changed.append(edge)
        for identity, edge in stored.items():
            if identity not in wanted and edge.valid_to is None:
                edge.valid_to = max(now, edge.valid_from)
                changed.append(edge)
    if new:
        Edge.objects.bulk_create(new, ignore_conflicts=True)
    if changed:
        Edge.objects.bulk_update(changed, ["valid_to", "updated_at"])
    return len(new) + len(changed)


def graph_backfill(*, actor: Actor, tenant_id: int | None = None, batch_size: int = 500) -> dict:
    """Derive the edges of memories written before the graph existed (or before a policy change), one
    tenant's batch per transaction with one audit event per tenant and batch. A rerun writes nothing."""
    queryset = Memory.objects.order_by("id")
    if tenant_id is not None:
        queryset = queryset.filter(tenant_id=tenant_id)
    written, seen, last_id = 0, 0, 0
    while True:
        batch = list(queryset.filter(id__gt=last_id)[:batch_size])
        if not batch:
            break
        last_id = batch[-1].pk
        seen += len(batch)
        by_tenant: dict[int, list[Memory]] = {}
        for memory in batch:
            by_tenant.setdefault(memory.tenant_id, []).append(memory)
        for tenant, memories in by_tenant.items():
            with transaction.atomic():
                count = memory_edges_sync(memories)
                if count:
                    audit_record(tenant_id=tenant, actor=actor, event=GRAPH_BACKFILLED, object_id="-",
                                 after={"memories": len(memories), "edges_written": count,
                                        "memory_ids": [memories[0].pk, memories[-1].pk]})
            written += count
    return {"memories": seen, "edges_written": written}


def edges_access_record(edge_ids: list[int]) -> None:
    """Count that these edges were served (hot and cold). Statistics, not a change of the user's data:
    not audited, one UPDATE."""
    if edge_ids:
        from django.db.models import F

        Edge.objects.filter(pk__in=edge_ids).update(access_count=F("access_count") + 1,
                                                   last_accessed_at=timezone.now())
