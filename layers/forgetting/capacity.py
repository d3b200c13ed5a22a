"""Bounded owners (docs/architecture.md, "Forgetting"): one user cannot grow without end.

Each owner may keep `capacity_per_kind[kind]` active memories of a kind (layers/forgetting/policy.py;
generous by default, governed per tenant through approved `policy.forgetting.capacity_per_kind`). Past
it, the job archives the excess, least important first and, among equals, least recently used (the last
read, or the last confirmation for a memory never read), oldest id last. Archived is not deleted: the row,
its history and its edges stay, and staff can restore it. Core facts, memories at least as important as
`core_profile_min_importance` (layers/long_term/policy.py; allergies, health, identity), are never
archived by capacity: an owner whose core facts alone exceed it is reported, not trimmed.

Idempotent: the excess is recounted under the owner's lock, so a second run (or one racing another)
archives nothing more. Each archived memory is a `memory.archived_over_capacity` event.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Count, F
from django.db.models.functions import Coalesce
from django.utils import timezone

from audit.services import audit_record
from layers.forgetting.events import MEMORY_ARCHIVED_OVER_CAPACITY
from layers.forgetting.policy import forgetting_policy
from layers.forgetting.services import JOB_BATCH, _tenants_with
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.policy import tenant_policy
from layers.long_term.services.create import lock_user_memories, memory_audit_state
from memoryhub.core.actors import Actor


def _over_capacity(tenant_id: int, capacity: dict[str, int]) -> list[tuple[str, str, int, int]]:
    """(user_id, kind, active count, capacity) of every owner past a kind's capacity: one pass over the
    tenant's active rows, keeping only the groups past the smallest capacity."""
    active = Memory.objects.filter(tenant_id=tenant_id, status=MemoryStatus.ACTIVE, kind__in=list(capacity))
    groups = (active.values("user_id", "kind").annotate(n=Count("id")).filter(n__gt=min(capacity.values(), default=0))
              .order_by("user_id", "kind"))
    return [(row["user_id"], row["kind"], row["n"], capacity[row["kind"]]) for row in groups
            if row["n"] > capacity[row["kind"]]]


def _eviction_order(queryset, core_min: float):
    """The owner's archivable memories of a kind, first to go first."""
    return (queryset.filter(importance__lt=core_min)
            .annotate(last_used=Coalesce(F("last_accessed_at"), F("last_confirmed_at")))
            .order_by("importance", "last_used", "id"))


def memories_archive_over_capacity(*, now=None, dry_run: bool = False, limit: int = JOB_BATCH) -> dict:
    """Archive each owner's memories past their kind's capacity (at most `limit` a run); see the module."""
    now = now or timezone.now()
    plan: list[tuple[int, str, str, int, int]] = []  # tenant, user, kind, excess, capacity
    core_left = 0
    for tenant_id in _tenants_with(Memory.objects.filter(status=MemoryStatus.ACTIVE)):
        capacity = forgetting_policy(tenant_id).capacity_per_kind
        core_min = tenant_policy(tenant_id).core_profile_min_importance
        for user_id, kind, count, cap in _over_capacity(tenant_id, capacity):
            owned = Memory.objects.filter(tenant_id=tenant_id, user_id=user_id, kind=kind, status=MemoryStatus.ACTIVE)
            archivable = _eviction_order(owned, core_min).count()
            excess = min(count - cap, archivable)
            core_left += (count - cap) - excess
            if excess:
                plan.append((tenant_id, user_id, kind, excess, cap))
    would = min(limit, sum(excess for *_, excess, _ in plan))
    report = {"dry_run": dry_run, "owners_over_capacity": len(plan), "would_archive": would,
              "core_over_capacity": core_left, "archived": 0}
    if dry_run:
        return report
    actor = Actor.system("long_term.archive_over_capacity")
    budget = limit
    for tenant_id, user_id, kind, _, cap in plan:
        if budget <= 0:
            break
        core_min = tenant_policy(tenant_id).core_profile_min_importance
        with transaction.atomic():
            lock_user_memories(tenant_id, user_id)
            owned = Memory.objects.filter(tenant_id=tenant_id, user_id=user_id, kind=kind, status=MemoryStatus.ACTIVE)
            excess = owned.count() - cap  # recounted under the lock: what another run archived is not archived twice
            victims = list(_eviction_order(owned, core_min).select_for_update(of=("self",))[:max(0, min(excess, budget))])
            for rank, memory in enumerate(victims, start=1):
                before = memory_audit_state(memory)
                memory.transition_to(MemoryStatus.ARCHIVED)
                memory._change_reason = "archived: over capacity"
                memory.save()
                audit_record(tenant_id=tenant_id, actor=actor, event=MEMORY_ARCHIVED_OVER_CAPACITY, object_id=memory.pk,
                             before=before, after={**memory_audit_state(memory), "capacity": cap,
                                                   "active_before": cap + excess, "rank": rank},
                             subject_user_id=user_id)
            report["archived"] += len(victims)
            budget -= len(victims)
    return report
