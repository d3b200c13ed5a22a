"""A habit that stops: each expected occurrence that passes without the request is a miss.

A habit memory (kind `habit`, written by layers/formation/services/habits.py) says on which weekdays and
in which window of its time zone the request keeps coming, and when it last came (`last_seen`). Counting
the pattern's days after that whose window has fully passed gives the misses in a row; from
`habit_missed_before_decay` of them the confidence is the observed one times `habit_decay_factor` per
further miss, and at `habit_missed_to_archive` the habit is archived (layers/forgetting/policy.py).

The confidence is computed from the stored observation, never from the current value, so running the job
twice (or every hour) gives the same result; a new observation (the miner updates `last_seen` and the
observed confidence) restores it. Each change is audited per memory.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from layers.forgetting.events import MEMORY_ARCHIVED, MEMORY_HABIT_DECAYED
from layers.forgetting.policy import ForgettingPolicy, forgetting_policy
from layers.forgetting.services import JOB_BATCH, _locked, _tenants_with
from layers.long_term.models import Memory, MemoryKind, MemoryStatus
from layers.long_term.selectors import habit_window
from layers.long_term.services.create import memory_audit_state
from memoryhub.core.actors import Actor


def habit_missed(attributes: dict, *, now: datetime) -> int | None:
    """Expected occurrences since the last one whose window has passed by `now`; None when the attributes
    are not a habit's (a hand-made memory of kind habit is left alone)."""
    window = habit_window(attributes)
    try:
        last_seen = datetime.fromisoformat(attributes["last_seen"])
    except (KeyError, TypeError, ValueError):
        return None
    if window is None:
        return None
    # the day the last occurrence counted for (00:10 in a window across midnight is the evening before's)
    last_day = window.day_of(last_seen) or last_seen.astimezone(window.zone).date()
    missed = 0
    day = last_day + timedelta(days=1)
    while day <= now.astimezone(window.zone).date():
        if day.weekday() in window.weekdays and window.closes(day) <= now:
            missed += 1
        day += timedelta(days=1)
    return missed


def habit_confidence_after(observed: float, missed: int, policy: ForgettingPolicy) -> float:
    if missed < policy.habit_missed_before_decay:
        return round(observed, 3)
    return round(observed * policy.habit_decay_factor ** (missed - policy.habit_missed_before_decay + 1), 3)


def habits_decay(*, now=None, dry_run: bool = False, limit: int = JOB_BATCH) -> dict:
    """Lower the confidence of habits that missed their expected occurrences; archive those that stopped."""
    now = now or timezone.now()
    habits = Memory.objects.filter(status=MemoryStatus.ACTIVE, kind=MemoryKind.HABIT)
    plan: list[tuple[int, int, str]] = []
    for tenant_id in _tenants_with(habits):
        policy = forgetting_policy(tenant_id)
        for memory in habits.filter(tenant_id=tenant_id).only("pk", "user_id", "attributes", "confidence").order_by("id"):
            missed = habit_missed(memory.attributes, now=now)
            if missed is None:
                continue
            observed = float(memory.attributes.get("observed_confidence", memory.confidence))
            if (missed >= policy.habit_missed_to_archive
                    or habit_confidence_after(observed, missed, policy) != round(memory.confidence, 3)):
                plan.append((memory.pk, tenant_id, memory.user_id))
                if len(plan) >= limit:
                    break
        if len(plan) >= limit:
            break
    if dry_run:
        return {"dry_run": True, "would_change": len(plan), "weakened": 0, "archived": 0}
    actor = Actor.system("long_term.decay_habits")
    weakened = archived = 0
    for pk, tenant_id, user_id in plan:
        with transaction.atomic():
            memory = _locked(pk, user_key=(tenant_id, user_id), status=MemoryStatus.ACTIVE)
            missed = habit_missed(memory.attributes, now=now) if memory is not None else None
            if missed is None:
                continue  # gone, or changed by another run since the plan was made
            policy = forgetting_policy(tenant_id)
            before = memory_audit_state(memory)
            observed = float(memory.attributes.get("observed_confidence", memory.confidence))
            if missed >= policy.habit_missed_to_archive:
                memory.confidence = habit_confidence_after(observed, missed, policy)
                memory.transition_to(MemoryStatus.ARCHIVED)
                memory._change_reason = "archived: habit stopped"
                memory.save()
                audit_record(tenant_id=tenant_id, actor=actor, event=MEMORY_ARCHIVED, object_id=pk, before=before,
                             after={**memory_audit_state(memory), "missed": missed}, subject_user_id=user_id)
                archived += 1
                continue
            confidence = habit_confidence_after(observed, missed, policy)
            if confidence == round(memory.confidence, 3):
                continue
            memory.confidence = confidence
            memory._change_reason = "habit weakened: occurrences missed"
            memory.save()
            audit_record(tenant_id=tenant_id, actor=actor, event=MEMORY_HABIT_DECAYED, object_id=pk, before=before,
                         after={**memory_audit_state(memory), "missed": missed}, subject_user_id=user_id)
            weakened += 1
    return {"dry_run": False, "would_change": len(plan), "weakened": weakened, "archived": archived}
