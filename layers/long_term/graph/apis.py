"""GET /api/v1/graph: one entity's neighbours in one end user's relation graph."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.response import Response

from layers.long_term.graph.models import Edge
from layers.long_term.graph.selectors import MAX_NEIGHBOURS, graph_neighbours
from layers.long_term.graph.serializers import NeighbourSerializer
from layers.long_term.graph.services import edges_access_record
from layers.long_term.models import Memory
from memoryhub.api.schema import errors
from memoryhub.api.serializers import InputSerializer, UserIdField
from memoryhub.api.views import TenantAPIView

_EXAMPLE = {"user_id": "alice", "entity": "user", "results": [{
    "subject": "user", "predicate": "works_at", "object": "字节", "direction": "out", "neighbour": "字节",
    "valid_from": "2026-06-01T09:00:00Z", "valid_to": None, "current": True, "weight": 0.7, "access_count": 3,
    "rank": 2.8, "provenance": {"memory_id": 42, "memory_key": "user.employer", "session_id": "chat-001",
                                "turn_from": 3, "turn_to": 3}}, {
    "subject": "user", "predicate": "works_at", "object": "网易", "direction": "out", "neighbour": "网易",
    "valid_from": "2025-03-01T09:00:00Z", "valid_to": "2026-06-01T09:00:00Z", "current": False, "weight": 0.7,
    "access_count": 0, "rank": 0.7, "provenance": {"memory_id": 17, "memory_key": "user.employer",
                                                   "session_id": "", "turn_from": None, "turn_to": None}}]}


class GraphNeighboursApi(TenantAPIView):
    required_scope = "read"

    class GraphQuerySerializer(InputSerializer):
        user_id = UserIdField(max_length=Memory.USER_ID_MAX_LENGTH)
        entity = serializers.CharField(max_length=Edge.ENTITY_MAX_LENGTH)
        at = serializers.DateTimeField(required=False)
        include_closed = serializers.BooleanField(required=False, default=False)
        limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_NEIGHBOURS, default=50)

        def validate(self, attrs):
            if attrs.get("at") is not None and attrs.get("include_closed"):
                raise serializers.ValidationError(
                    {"include_closed": [_("give either at or include_closed, not both")]}, code="invalid")
            return attrs

    @extend_schema(
        summary="The neighbours of an entity in one user's relation graph, with validity and provenance",
        description="Edges touching `entity` (`user` is the end user themself) at either end. By default only "
                    "current edges; `at` gives those valid at that moment (a past employer), `include_closed` "
                    "all of them with their history. Hottest first: rank = (access_count + 1) × the "
                    "predicate's business weight (policy.graph.predicate_weights). An unknown user or entity "
                    "answers an empty list, whichever tenant it belongs to.",
        parameters=[OpenApiParameter("user_id", str, required=True),
                    OpenApiParameter("entity", str, required=True, examples=[
                        OpenApiExample("The user", value="user"), OpenApiExample("A relative", value="女儿")]),
                    OpenApiParameter("at", OpenApiTypes.DATETIME, description="ISO 8601"),
                    OpenApiParameter("include_closed", bool), OpenApiParameter("limit", int)],
        responses={200: inline_serializer("GraphNeighboursResponse", {
            "user_id": serializers.CharField(), "entity": serializers.CharField(),
            "results": NeighbourSerializer(many=True)}), **errors(400, 401, 403)},
        examples=[OpenApiExample("A job change: the new employer current, the old one closed", value=_EXAMPLE,
                                 response_only=True)],
    )
    def get(self, request):
        query = self.GraphQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        params = query.validated_data
        found = graph_neighbours(tenant_id=self.tenant.pk, user_id=params["user_id"], entity=params["entity"],
                                 at=params.get("at"), include_closed=params["include_closed"], limit=params["limit"])
        edges_access_record([neighbour.edge.pk for neighbour in found])
        return Response({"user_id": params["user_id"], "entity": params["entity"],
                         "results": NeighbourSerializer(found, many=True).data})
