"""POST /api/v1/context"""
from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from layers.context.selectors import DEFAULT_PROFILE_TOP_K, context_assemble
from layers.context.serializers import CONFLICTS_EXAMPLE, ConflictSerializer
from layers.context.services import conflicts_count
from layers.long_term.graph.services import edges_access_record
from layers.long_term.models import Memory
from layers.long_term.services import memory_access_record
from memoryhub.api.serializers import HotPathInputSerializer, UserIdField
from memoryhub.api.views import TenantAPIView
from memoryhub.providers.tokens import tokenizer_name

MAX_TOKEN_BUDGET = 1_000_000
DEFAULT_TOKEN_BUDGET = 4000


class ContextBlockSerializer(serializers.Serializer):
    name = serializers.ChoiceField(choices=["system_rules", "user_profile", "session", "task_state", "user_input"])
    content = serializers.CharField(allow_blank=True)
    token_count = serializers.IntegerField()
    source_ids = serializers.ListField(child=serializers.CharField())
    items = serializers.ListField(child=serializers.DictField())


HOT_EDGE_EXAMPLE = OpenApiExample("The hot set first: an entity the session named", response_only=True, value={
    "blocks": [{"name": "user_profile", "content": "- (fact) 用户住在上海", "token_count": 9, "source_ids": ["memory:7"],
                "items": [{"source_id": "memory:7", "text": "- (fact) 用户住在上海", "token_count": 9, "score": 0.63,
                           "memory_id": 7, "kind": "fact", "reason": "hot_edge", "memory_key": "user.home_city",
                           "hot_edges": [{"edge_id": 3, "subject": "user", "predicate": "lives_in", "object": "上海",
                                          "rank": 1.4, "named": "上海"}]}]}],
    "token_budget": 1500, "token_count": 20, "dropped": [], "tokenizer": "cl100k_base", "conflicts": [],
})


class ContextApi(TenantAPIView):
    required_scope = "read"

    class ContextInputSerializer(HotPathInputSerializer):
        user_id = UserIdField(max_length=Memory.USER_ID_MAX_LENGTH)
        query = serializers.CharField(max_length=20000)
        session_id = serializers.CharField(max_length=200, required=False)
        token_budget = serializers.IntegerField(min_value=1, max_value=MAX_TOKEN_BUDGET, default=DEFAULT_TOKEN_BUDGET)
        task_type = serializers.CharField(max_length=100, required=False, allow_blank=True)
        profile_top_k = serializers.IntegerField(
            min_value=0, max_value=50, required=False, allow_null=True, default=DEFAULT_PROFILE_TOP_K,
            help_text="At most this many query matches in the profile; absent: as many as fit (layers/context/policy.py).")
        now = serializers.DateTimeField(
            required=False, help_text="The moment the context is for (ISO 8601 with an offset); absent: now. Habits "
                                      "whose time window holds it are served in the profile.")
        slots = serializers.DictField(
            required=False, help_text="The task's slots ({\"destination\": \"airport\"}): a conditional preference "
                                      "whose condition names a slot is checked against its value.")
        scene = serializers.CharField(max_length=100, required=False, allow_blank=True,
                                      help_text="The scene; absent: read from the query.")

    @extend_schema(
        summary="Assemble prompt blocks (rules, profile, session, task state, input) within a token budget",
        request=ContextInputSerializer,
        responses=inline_serializer("ContextResponse", {
            "blocks": ContextBlockSerializer(many=True),
            "token_budget": serializers.IntegerField(),
            "token_count": serializers.IntegerField(),
            "dropped": serializers.ListField(child=serializers.DictField()),
            "tokenizer": serializers.CharField(),
            "conflicts": ConflictSerializer(many=True),
        }),
        description="The profile draws on the hot set first: the user's hottest current graph edges (rank = (access "
                    "+ 1) × the predicate's business weight, policy.graph.predicate_weights) whose entity the query "
                    "or the session's working memory names bring the memory they came from, with reason "
                    "`hot_edge` and the edges in `hot_edges` (a match already served gets `hot_edges` instead); "
                    "at most policy.context.hot_edges_limit, each serving counted as an access. Over budget they "
                    "are dropped after the query's matches and before core facts.",
        examples=[CONFLICTS_EXAMPLE, HOT_EDGE_EXAMPLE],
    )
    def post(self, request):
        data = self.ContextInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        context = context_assemble(tenant=self.tenant, **data.validated_data)
        memory_access_record(context.memory_ids)
        edges_access_record(context.edge_ids)
        conflicts = conflicts_count(self.tenant, self.actor, context.conflicts, data.validated_data.get("session_id"),
                                    may_write=self.api_key.has_scope("write"))
        return Response({
            "blocks": [block.as_dict() for block in context.blocks],
            "token_budget": context.token_budget,
            "token_count": context.token_count,
            "dropped": context.dropped,
            "tokenizer": tokenizer_name(),
            "conflicts": conflicts,
        })
