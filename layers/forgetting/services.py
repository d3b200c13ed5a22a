"""Forgetting long-term memories in bulk: the jobs behind `manage.py forget` and the beat.

Each job is idempotent (it re-checks every row under the owner's
lock) and audited per memory:
- `memories_expire`: an active memory past `expires_at` is soft-deleted when its importance is below
  `expiry_keep_importance` (0.7), and otherwise kept with its TTL extended by the importance ladder;
- `memories_archive_decayed`: an active memory whose decayed score (recency × confidence × feedback
  weight) fell below `archive_score_below` and that nobody read for `archive_idle_days` is archived;
- `memories_purge_deleted`: a memory soft-deleted more than `hard_delete_grace_days` ago is removed.
  Its history rows stay: history is the record of what was stored and who changed it (the deletion
  itself is recorded as a final version). Erasing a person's data is the user-erasure endpoint's job.

Every job takes `dry_run` (count what it would do, change nothing) and `now` (for tests and reports).
Numbers come from `forgetting_policy(tenant_id)` (layers/forgetting/policy.py).
"""
from __future__ import annotations

import logging
import math
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.services import audit_record
from layers.forgetting.events import MEMORY_ARCHIVED, MEMORY_PURGED, MEMORY_TTL_EXTENDED
from layers.forgetting.policy import forgetting_policy
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.policy import tenant_policy
from layers.long_term.services.changes import memory_soft_delete
from layers.long_term.services.create import lock_user_memories, memory_audit_state
from layers.long_term.services.indexing import expiry_for
from memoryhub.core.actors import Actor

logger = logging.getLogger(__name__)

JOB_BATCH = 500
_OBJECT = "long_term.memory"


def _tenants_with(queryset) -> list[int]:
    return list(queryset.values_list("tenant_id", flat=True).distinct().order_by("tenant_id"))


def _locked(pk: int, *, user_key: tuple[int, str], **still) -> Memory | None:
    """The memory under its owner's lock, if it still matches `still` (another run may have got there first)."""
    lock_user_memories(*user_key)
    return Memory.objects.select_for_update(skip_locked=True).filter(pk=pk, **still).first()


# --- expiry -------------------------------------------------------------------------------------

def memories_expire(*, now=None, dry_run: bool = False, limit: int = JOB_BATCH) -> dict:
    """Active memories past `expires_at`: soft-delete the unimportant, extend the TTL of the important."""
    now = now or timezone.now()
    due = Memory.objects.filter(status=MemoryStatus.ACTIVE, expires_at__lte=now)
    plan: list[tuple[int, int, str, bool]] = []
    for tenant_id in _tenants_with(due):
        keep = forgetting_policy(tenant_id).expiry_keep_importance
        for pk, user_id, importance in (due.filter(tenant_id=tenant_id).order_by("id")
                                        .values_list("pk", "user_id", "importance")[:limit - len(plan)]):
            plan.append((pk, tenant_id, user_id, importance >= keep))
        if len(plan) >= limit:
            break
    extend = sum(1 for *_, keep in plan if keep)
    if dry_run:
        return {"dry_run": True, "would_soft_delete": len(plan) - extend, "would_extend": extend,
                "soft_deleted": 0, "extended": 0}
    actor = Actor.system("long_term.expire")
    soft_deleted = extended = 0
    for pk, tenant_id, user_id, keep in plan:
        with transaction.atomic():
            memory = _locked(pk, user_key=(tenant_id, user_id), status=MemoryStatus.ACTIVE, expires_at__lte=now)
            if memory is None:
                continue
            if keep:
                before = {**memory_audit_state(memory), "expires_at": memory.expires_at.isoformat()}
                memory.expires_at = expiry_for(tenant_policy(tenant_id), memory.importance, now)
                memory._change_reason = "TTL extended on expiry"
                memory.save()
                audit_record(tenant_id=tenant_id, actor=actor, event=MEMORY_TTL_EXTENDED,
                             object_id=pk, before=before,
                             after={**memory_audit_state(memory),
                                    "expires_at": memory.expires_at.isoformat() if memory.expires_at else None},
                             subject_user_id=user_id)
                extended += 1
            else:
                memory_soft_delete(memory=memory, actor=actor)
                soft_deleted += 1
    return {"dry_run": False, "would_soft_delete": len(plan) - extend, "would_extend": extend,
            "soft_deleted": soft_deleted, "extended": extended}


# --- decay --------------------------------------------------------------------------------------

def decayed_score(memory: Memory, *, alpha_days: dict[str, float], now) -> float:
    """What retrieval would weigh the memory by, relevance aside: recency × confidence × feedback weight."""
    age_days = max(0.0, (now - memory.last_confirmed_at).total_seconds() / 86400)
    alpha = float(alpha_days.get(memory.kind) or 365.0)
    return math.exp(-age_days / alpha) * memory.confidence * memory.feedback_weight


def memories_archive_decayed(*, now=None, dry_run: bool = False, limit: int = JOB_BATCH) -> dict:
    """Archive active memories whose score decayed below the threshold and that were not read lately."""
    now = now or timezone.now()
    active = Memory.objects.filter(status=MemoryStatus.ACTIVE)
    plan: list[tuple[int, int, str, float]] = []
    for tenant_id in _tenants_with(active):
        policy = forgetting_policy(tenant_id)
        alphas = tenant_policy(tenant_id).decay_alpha_days
        idle_since = now - timedelta(days=policy.archive_idle_days)
        # Neither read nor confirmed within the idle period (a never-read memory counts from its last confirmation).
        idle = (active.filter(tenant_id=tenant_id, last_confirmed_at__lt=idle_since)
                .filter(Q(last_accessed_at__isnull=True) | Q(last_accessed_at__lt=idle_since))
                .only("pk", "user_id", "kind", "last_confirmed_at", "confidence", "feedback_weight").order_by("id"))
        for memory in idle.iterator(chunk_size=1000):
            score = decayed_score(memory, alpha_days=alphas, now=now)
            if score < policy.archive_score_below:
                plan.append((memory.pk, tenant_id, memory.user_id, score))
                if len(plan) >= limit:
                    break
        if len(plan) >= limit:
            break
    if dry_run:
        return {"dry_run": True, "would_archive": len(plan), "archived": 0}
    actor = Actor.system("long_term.archive_decayed")
    archived = 0
    for pk, tenant_id, user_id, score in plan:
        with transaction.atomic():
            memory = _locked(pk, user_key=(tenant_id, user_id), status=MemoryStatus.ACTIVE)
            if memory is None:
                continue
            idle_since = now - timedelta(days=forgetting_policy(tenant_id).archive_idle_days)
            if memory.last_accessed_at and memory.last_accessed_at >= idle_since:
                continue  # read since the plan was made
            before = memory_audit_state(memory)
            memory.transition_to(MemoryStatus.ARCHIVED)
            memory._change_reason = "archived: score decayed"
            memory.save()
            audit_record(tenant_id=tenant_id, actor=actor, event=MEMORY_ARCHIVED,
                         object_id=pk, before=before, after={**memory_audit_state(memory), "score": round(score, 4)},
                         subject_user_id=user_id)
            archived += 1
    return {"dry_run": False, "would_archive": len(plan), "archived": archived}


# --- hard delete after the grace period ---------------------------------------------------------

def memories_purge_deleted(*, now=None, dry_run: bool = False, limit: int = JOB_BATCH) -> dict:
    """Remove memories soft-deleted longer ago than the grace period; their history rows are kept.

    A deleted memory is never edited (every correcting service refuses it), so `updated_at` is the
    moment it was deleted.
    """
    now = now or timezone.now()
    deleted = Memory.objects.filter(status=MemoryStatus.DELETED)
    plan: list[tuple[int, int, str]] = []
    for tenant_id in _tenants_with(deleted):
        cutoff = now - timedelta(days=forgetting_policy(tenant_id).hard_delete_grace_days)
        plan.extend((pk, tenant_id, user_id) for pk, user_id in (
            deleted.filter(tenant_id=tenant_id, updated_at__lte=cutoff).order_by("id")
            .values_list("pk", "user_id")[:limit - len(plan)]))
        if len(plan) >= limit:
            break
    if dry_run:
        return {"dry_run": True, "would_purge": len(plan), "purged": 0}
    actor = Actor.system("long_term.purge_deleted")
    purged = 0
    for pk, tenant_id, user_id in plan:
        with transaction.atomic():
            cutoff = now - timedelta(days=forgetting_policy(tenant_id).hard_delete_grace_days)
            memory = _locked(pk, user_key=(tenant_id, user_id), status=MemoryStatus.DELETED, updated_at__lte=cutoff)
            if memory is None:
                continue
            before = memory_audit_state(memory)
            memory._change_reason = "purged after the grace period"
            memory.delete()  # history records the deletion as the memory's last version
            audit_record(tenant_id=tenant_id, actor=actor, event=MEMORY_PURGED,
                         object_id=pk, before=before, after=None, subject_user_id=user_id)
            purged += 1
    return {"dry_run": False, "would_purge": len(plan), "purged": purged}
