"""Serializers of the context response that are not the view's own: the `conflicts` items and their example."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

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
