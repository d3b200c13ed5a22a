"""POST /api/v1/memories/search"""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from layers.long_term.apis.quarantine import quarantine_read_check
from layers.long_term.graph.models import Edge
from layers.long_term.graph.search import graph_search_scope
from layers.long_term.graph.serializers import NeighbourSerializer
from layers.long_term.models import Memory, MemoryKind, MemoryStatus
from layers.long_term.selectors.search import (
    MAX_QUERY_LENGTH,
    MAX_TOP_K,
    MODES,
    memory_search,
)
from layers.long_term.serializers import SearchResultSerializer
from layers.long_term.services import memory_access_record
from memoryhub.api.serializers import HotPathInputSerializer, UserIdField
from memoryhub.api.views import TenantAPIView


class MemorySearchApi(TenantAPIView):
    required_scope = "read"

    class MemorySearchInputSerializer(HotPathInputSerializer):
        user_id = UserIdField(max_length=Memory.USER_ID_MAX_LENGTH)
        query = serializers.CharField(max_length=MAX_QUERY_LENGTH)
        top_k = serializers.IntegerField(min_value=1, max_value=MAX_TOP_K, default=10)
        mode = serializers.ChoiceField(choices=MODES, default="hybrid")
        kinds = serializers.ListField(child=serializers.ChoiceField(choices=MemoryKind.values), required=False,
                                      max_length=len(MemoryKind.values))
        statuses = serializers.ListField(child=serializers.ChoiceField(choices=MemoryStatus.values), required=False,
                                         max_length=len(MemoryStatus.values))
        status = serializers.ChoiceField(choices=MemoryStatus.values, required=False)
        entities = serializers.ListField(child=serializers.CharField(max_length=Memory.ENTITY_MAX_LENGTH),
                                         required=False, max_length=Memory.MAX_ENTITIES)
        memory_key = serializers.CharField(max_length=Memory.MEMORY_KEY_MAX_LENGTH, required=False)
        min_score = serializers.FloatField(min_value=0, max_value=1, required=False)
        min_confidence = serializers.FloatField(min_value=0, max_value=1, required=False)
        max_confidence = serializers.FloatField(min_value=0, max_value=1, required=False)
        created_after = serializers.DateTimeField(required=False)
        created_before = serializers.DateTimeField(required=False)
        task_type = serializers.CharField(max_length=100, required=False, allow_blank=True)
        explain = serializers.BooleanField(default=False)
        # Structured first (layers/long_term/graph/search.py): attribute conditions, one hop around an entity.
        attributes = serializers.DictField(required=False, help_text='conditions that must hold, e.g. '
                                           '{"employer": "网易"}; applied before the semantic paths')
        expand = serializers.CharField(max_length=Edge.ENTITY_MAX_LENGTH, required=False,
                                       help_text="an entity: search its one-hop neighbourhood in the graph")

    @extend_schema(
        summary="Search one user's memories (hybrid, vector or keyword), scored in [0, 1]",
        request=MemorySearchInputSerializer,
        description="`attributes` conditions (e.g. `{\"employer\": \"网易\"}`) narrow the candidates before the "
                    "keyword and vector paths; `expand` narrows them to an entity's one-hop neighbourhood in the "
                    "relation graph and lists those edges in `expansion`.",
        responses=inline_serializer("MemorySearchResponse", {
            "results": SearchResultSerializer(many=True),
            "expansion": NeighbourSerializer(many=True, required=False)}),
    )
    def post(self, request):
        data = self.MemorySearchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        params = dict(data.validated_data)
        status = params.pop("status", None)
        if status:
            params["statuses"] = [*params.get("statuses", []), status]
        quarantine_read_check(self.api_key, statuses=params.get("statuses", ()))
        attributes, expand = params.pop("attributes", None), params.pop("expand", None)
        scope = None
        if attributes is not None or expand is not None:
            scope = graph_search_scope(tenant_id=self.tenant.pk, user_id=params["user_id"], attributes=attributes,
                                       expand=expand)
            params["memory_ids"] = scope.memory_ids
        results = memory_search(tenant=self.tenant, **params)
        memory_access_record([scored.memory.pk for scored in results])
        body = {"results": SearchResultSerializer(results, many=True).data}
        if expand is not None:
            body["expansion"] = NeighbourSerializer(scope.expansion, many=True).data
        return Response(body)
