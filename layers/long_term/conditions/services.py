"""Corrections: a request that contradicts a stored preference is counted; when enough conversations asked for
the same other value (policy.conditions.correction_threshold), the preference is superseded by that value, the
reason recorded in an audit event (docs/architecture.md, "Conditional preferences")."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.services import audit_record
from layers.long_term.conditions.lexicon import TOPIC_BY_KEY, topic_key
from layers.long_term.conditions.condition import condition_normalise, condition_text
from layers.long_term.conditions.models import PreferenceCorrection
from layers.long_term.conditions.parser import Variant
from layers.long_term.conditions.policy import conditions_policy
from layers.long_term.conditions.selectors import stored_value
from layers.long_term.events import PREFERENCE_CORRECTED
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.services.create import (
    lock_user_memories,
    memory_audit_state,
    memory_create,
)
from memoryhub.core.actors import Actor
from memoryhub.core.request_context import current_request_id


@dataclass
class CorrectionOutcome:
    counted: int
    threshold: int
    replaced_by: Memory | None = None


def _content(memory: Memory, value: str) -> str:
    if topic_key(memory.memory_key) in TOPIC_BY_KEY:
        lang = (memory.attributes or {}).get("lang") or "en"
        condition = (memory.attributes or {}).get("condition")
        return Variant(topic_key(memory.memory_key), value, condition and condition_normalise(condition), lang,
                       "").content
    condition = (memory.attributes or {}).get("condition")
    when = f" when {condition_text(condition)}" if condition else ""
    return f"User's preference{when} ({memory.memory_key}): {value}."


def preference_correction_record(*, tenant, actor: Actor, memory_id: int, requested_value: str,
                                 occasion: str) -> CorrectionOutcome:
    """Count one conversation (`occasion`: its session, or the request) asking for `requested_value` against
    the preference `memory_id`; at the policy's threshold the preference is superseded by a new memory with the
    same key and condition and that value. Idempotent per (memory, value, occasion)."""
    policy = conditions_policy(tenant.pk)
    with transaction.atomic():
        owner = Memory.objects.filter(tenant=tenant, pk=memory_id).values_list("user_id", flat=True).first()
        if owner is None:
            return CorrectionOutcome(0, policy.correction_threshold)
        lock_user_memories(tenant.pk, owner)  # before the row, as every memory write (memoryhub/core/locks.py)
        memory = Memory.objects.select_for_update().get(pk=memory_id)
        if memory.status != MemoryStatus.ACTIVE:
            return CorrectionOutcome(0, policy.correction_threshold)
        try:
            with transaction.atomic():
                PreferenceCorrection.objects.create(
                    tenant=tenant, user_id=memory.user_id, memory=memory, memory_key=memory.memory_key,
                    stored_value=(stored_value(memory) or "")[:PreferenceCorrection.VALUE_MAX_LENGTH],
                    requested_value=requested_value[:PreferenceCorrection.VALUE_MAX_LENGTH],
                    occasion=occasion[:PreferenceCorrection.SESSION_MAX_LENGTH],
                    request_id=current_request_id.get()[:64])
        except IntegrityError:
            pass  # this conversation already counted
        since = timezone.now() - timedelta(days=policy.correction_window_days)
        counted = (PreferenceCorrection.objects.filter(memory=memory, requested_value=requested_value,
                                                       created_at__gte=since)
                   .values("occasion").distinct().count())
        if counted < policy.correction_threshold:
            return CorrectionOutcome(counted, policy.correction_threshold)
        attributes = {**(memory.attributes or {}), "value": requested_value, "corrected_from": memory.pk}
        write = memory_create(tenant=tenant, actor=actor, user_id=memory.user_id, kind=memory.kind,
                              content=_content(memory, requested_value), memory_key=memory.memory_key,
                              entities=memory.entities, attributes=attributes, confidence=memory.confidence,
                              importance=memory.importance, agent_id=memory.agent_id or None,
                              extractor="preference-corrections")
        replacement = write.memory
        memory.refresh_from_db()
        before = memory_audit_state(memory)
        if memory.status == MemoryStatus.ACTIVE:  # a single-valued key may already have superseded it
            memory.transition_to(MemoryStatus.SUPERSEDED)
            memory.valid_to = timezone.now()
            memory.superseded_by = replacement
            memory._change_reason = "corrected"
            memory.save()
        reason = (f"{counted} conversations asked for '{requested_value}' instead of "
                  f"'{stored_value(memory) or ''}' (threshold {policy.correction_threshold})")
        audit_record(tenant_id=tenant.pk, actor=actor, event=PREFERENCE_CORRECTED, object_id=memory.pk,
                     before=before, after={**memory_audit_state(memory), "replaced_by": replacement.pk,
                                           "value": requested_value, "corrections": counted, "reason": reason},
                     subject_user_id=memory.user_id)
        PreferenceCorrection.objects.filter(memory=memory, requested_value=requested_value).update(
            applied_to=replacement)
        return CorrectionOutcome(counted, policy.correction_threshold, replacement)
