"""Outputs of the graph, shared by its API and search's expansion."""
from __future__ import annotations

from rest_framework import serializers


class EdgeProvenanceSerializer(serializers.Serializer):
    memory_id = serializers.IntegerField(source="edge.memory_id")
    memory_key = serializers.CharField(source="edge.memory.memory_key")
    session_id = serializers.CharField(source="edge.source_session_id")
    turn_from = serializers.IntegerField(source="edge.source_turn_from", allow_null=True)
    turn_to = serializers.IntegerField(source="edge.source_turn_to", allow_null=True)


class NeighbourSerializer(serializers.Serializer):
    subject = serializers.CharField(source="edge.subject")
    predicate = serializers.CharField(source="edge.predicate")
    object = serializers.CharField(source="edge.object")
    direction = serializers.ChoiceField(choices=["out", "in"])
    neighbour = serializers.CharField()
    valid_from = serializers.DateTimeField(source="edge.valid_from")
    valid_to = serializers.DateTimeField(source="edge.valid_to", allow_null=True)
    current = serializers.SerializerMethodField()
    weight = serializers.FloatField()
    access_count = serializers.IntegerField(source="edge.access_count")
    rank = serializers.FloatField()
    provenance = EdgeProvenanceSerializer(source="*")

    def get_current(self, neighbour) -> bool:
        return neighbour.edge.valid_to is None and neighbour.edge.memory.status == "active"
