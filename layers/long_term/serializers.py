"""Output shapes of memories shared by the long-term API views and the context endpoint."""
from __future__ import annotations

from rest_framework import serializers

from layers.long_term.models import Memory, MemoryKind, MemorySource


class ProvenanceSerializer(serializers.Serializer):
    source = serializers.CharField()
    source_session_id = serializers.CharField(allow_blank=True)
    source_turn_from = serializers.IntegerField(allow_null=True)
    source_turn_to = serializers.IntegerField(allow_null=True)
    extractor = serializers.CharField(allow_blank=True)
    agent_id = serializers.CharField(allow_blank=True)
    embedding_model = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    last_confirmed_at = serializers.DateTimeField()


def provenance(memory: Memory) -> dict:
    return {
        "source": memory.source, "source_session_id": memory.source_session_id,
        "source_turn_from": memory.source_turn_from, "source_turn_to": memory.source_turn_to,
        "extractor": memory.extractor, "agent_id": memory.agent_id, "embedding_model": memory.embedding_model,
        "created_at": memory.created_at, "last_confirmed_at": memory.last_confirmed_at,
    }


class MemoryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user_id = serializers.CharField()
    kind = serializers.ChoiceField(choices=MemoryKind.choices)
    content = serializers.CharField()
    memory_key = serializers.CharField(allow_blank=True)
    entities = serializers.ListField(child=serializers.CharField())
    attributes = serializers.DictField()
    confidence = serializers.FloatField()
    importance = serializers.FloatField()
    status = serializers.CharField()
    quarantine_reasons = serializers.ListField(child=serializers.CharField())
    client_id = serializers.CharField(allow_null=True)
    valid_from = serializers.DateTimeField()
    valid_to = serializers.DateTimeField(allow_null=True)
    superseded_by = serializers.IntegerField(source="superseded_by_id", allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    mention_count = serializers.IntegerField()
    access_count = serializers.IntegerField()
    last_accessed_at = serializers.DateTimeField(allow_null=True)
    feedback_positive = serializers.IntegerField()
    feedback_negative = serializers.IntegerField()
    feedback_weight = serializers.FloatField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    # The request that made this version (its X-Request-ID; audit events carry the same id).
    trace_id = serializers.CharField(source="request_id")
    provenance = serializers.SerializerMethodField()

    def get_provenance(self, memory) -> ProvenanceSerializer:
        return ProvenanceSerializer(provenance(memory)).data


class MemoryWriteOutputSerializer(MemoryOutputSerializer):
    outcome = serializers.ChoiceField(choices=["created", "merged", "superseded", "existing"])


class ExplainSerializer(serializers.Serializer):
    mode = serializers.CharField()
    relevance = serializers.FloatField()
    own_relevance = serializers.FloatField()
    neighbour_relevance = serializers.FloatField()
    recency = serializers.FloatField()
    scene = serializers.FloatField()
    confidence = serializers.FloatField()
    feedback_weight = serializers.FloatField()
    keyword = serializers.DictField()
    vector = serializers.DictField()
    rerank = serializers.DictField(allow_null=True, required=False, help_text=(
        "The second stage (null when policy turns it off): first_stage_relevance, first_stage_score, features "
        "(subject, person, coverage), subjects, query_names, linked_names, boost, relevance; with an LLM "
        "configured, llm: {relevance, offline_relevance, model} or {fallback}."))


class SearchResultSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="memory.id")
    user_id = serializers.CharField(source="memory.user_id")
    content = serializers.CharField(source="memory.content")
    kind = serializers.CharField(source="memory.kind")
    score = serializers.FloatField()
    status = serializers.CharField(source="memory.status")
    confidence = serializers.FloatField(source="memory.confidence")
    attributes = serializers.DictField(source="memory.attributes")
    memory_key = serializers.CharField(source="memory.memory_key")
    entities = serializers.ListField(source="memory.entities", child=serializers.CharField())
    created_at = serializers.DateTimeField(source="memory.created_at")
    provenance = serializers.SerializerMethodField()
    explain = ExplainSerializer(required=False)

    def get_provenance(self, scored) -> ProvenanceSerializer:
        return ProvenanceSerializer(provenance(scored.memory)).data

    def to_representation(self, instance):
        # Built by hand: this is the hot path of every search, and DRF's per-field machinery costs more
        # than the SQL for ten results. The declared fields above stay as the schema.
        memory = instance.memory
        data = {
            "id": memory.pk, "user_id": memory.user_id, "content": memory.content, "kind": memory.kind,
            "score": instance.score, "status": memory.status, "confidence": memory.confidence,
            "attributes": memory.attributes, "memory_key": memory.memory_key, "entities": memory.entities,
            "created_at": _iso(memory.created_at), "provenance": {
                key: _iso(value) if hasattr(value, "isoformat") else value
                for key, value in provenance(memory).items()},
        }
        if instance.explain:
            data["explain"] = instance.explain
        return data


def _iso(value):
    if value is None:
        return None
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


MEMORY_SOURCES = MemorySource.values
