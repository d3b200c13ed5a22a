"""The `conflicts` of a context response: their schema, example, and the correction each one counts."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from layers.long_term.conditions.policy import conditions_policy
from layers.long_term.conditions.services import preference_correction_record
from memoryhub.core.request_context import current_request_id


class ConflictSerializer(serializers.Serializer):
    memory_id = serializers.IntegerField(help_text="The stored preference the request contradicts.")
    memory_key = serializers.CharField()
    condition = serializers.DictField(required=False, help_text="Present when the preference is a conditional variant.")
    stored_value = serializers.CharField()
    requested_value = serializers.CharField()
    requested_words = serializers.CharField(help_text="The words of the request that asked for it.")
    why = serializers.CharField()
    counted = serializers.BooleanField(help_text="Whether this request counted as a correction (a key with write "
                                                 "scope, policy.conditions.corrections_counted).")
    corrections = serializers.IntegerField(help_text="Conversations that asked for this value against the preference.")
    corrections_needed = serializers.IntegerField(help_text="How many change it (policy.conditions.correction_threshold).")
    replaced_by = serializers.IntegerField(required=False, help_text="The new preference, when this request tipped it.")


CONFLICTS_EXAMPLE = OpenApiExample("A request contradicting a stored preference", response_only=True, value={
    "blocks": [{"name": "user_profile", "content": "- (preference) 用户偏好：价格从低到高排序。", "token_count": 14,
                "source_ids": ["memory:42"],
                "items": [{"source_id": "memory:42", "text": "- (preference) 用户偏好：价格从低到高排序。",
                           "token_count": 14, "score": 0.8, "memory_id": 42, "kind": "preference",
                           "reason": "condition_default", "memory_key": "user.preference.sort.price"}]}],
    "token_budget": 1500, "token_count": 30, "dropped": [], "tokenizer": "cl100k_base",
    "conflicts": [{"memory_id": 42, "memory_key": "user.preference.sort.price", "stored_value": "ascending",
                   "requested_value": "descending", "requested_words": "从高到低",
                   "why": "the request asks for 'descending' ('从高到低') where the stored preference says 'ascending'",
                   "counted": True, "corrections": 1, "corrections_needed": 3}],
})


def conflicts_count(tenant, actor, conflicts: list[dict], session_id: str | None, *, may_write: bool) -> list[dict]:
    """Each conflict counted as a correction of its preference (one per conversation), with the count; the
    one that reaches the threshold names the preference that replaced it. A key that may only read gets
    the conflicts uncounted (`counted` false): reading a context must not change memories it cannot write."""
    policy = conditions_policy(tenant.pk)
    counting = policy.corrections_counted and may_write
    out = []
    for conflict in conflicts:
        counted, replaced = 0, None
        if counting:
            outcome = preference_correction_record(
                tenant=tenant, actor=actor, memory_id=conflict["memory_id"],
                requested_value=conflict["requested_value"],
                occasion=f"session:{session_id}" if session_id else f"request:{current_request_id.get()}")
            counted, replaced = outcome.counted, outcome.replaced_by
        out.append({**conflict, "counted": counting, "corrections": counted,
                    "corrections_needed": policy.correction_threshold,
                    **({"replaced_by": replaced.pk} if replaced else {})})
    return out
