"""Output serializers the short-term API shares between its views (inputs live with their view)."""
from rest_framework import serializers

from layers.short_term.models import Session, Turn
from memoryhub.api.serializers import FieldsReusedPerThread


# Served by every turn append (docs/benchmarks.md, issue 16): flat, plain fields, so built once per thread.
class SessionOutput(FieldsReusedPerThread, serializers.ModelSerializer):
    class Meta:
        model = Session
        fields = ["session_id", "user_id", "agent_id", "status", "started_at", "last_activity_at", "ended_at",
                  "metadata", "turn_count", "needs_summary"]


class TurnOutput(FieldsReusedPerThread, serializers.ModelSerializer):
    class Meta:
        model = Turn
        fields = ["seq", "role", "content", "token_count", "tool_name", "client_id", "redactions", "occurred_at",
                  "created_at"]
