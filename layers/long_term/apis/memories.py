"""CRUD of memories: /api/v1/memories, /api/v1/memories/{id} and its actions."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from layers.long_term.models import Memory, MemoryKind, MemorySource, MemoryStatus
from layers.long_term.apis.quarantine import quarantine_read_check
from layers.long_term.selectors import memory_get, memory_history, memory_list
from layers.long_term.serializers import (
    MemoryOutputSerializer,
    MemoryWriteOutputSerializer,
)
from layers.long_term.services import (
    memory_create_batch,
    memory_feedback,
    memory_quarantine_release,
    memory_restore,
    memory_revert,
    memory_soft_delete,
    memory_update,
)
from layers.long_term.services.create import MAX_BATCH
from layers.long_term.services.validation import TURN_NUMBER_MAX, memory_item_shape_error
from memoryhub.api.identifiers import validate_user_id
from memoryhub.api.pagination import paginate_keyset
from memoryhub.api.serializers import InputSerializer
from memoryhub.api.views import TenantAPIView
from memoryhub.core.errors import InvalidInput


class MemoryInputSerializer(InputSerializer):
    """One memory to write (documentation of the body; the service validates every item)."""
    user_id = serializers.CharField(max_length=Memory.USER_ID_MAX_LENGTH)
    content = serializers.CharField(max_length=Memory.CONTENT_MAX_LENGTH)
    kind = serializers.ChoiceField(choices=MemoryKind.choices, default=MemoryKind.FACT)
    memory_key = serializers.CharField(required=False)
    entities = serializers.ListField(child=serializers.CharField(), required=False)
    attributes = serializers.DictField(required=False)
    confidence = serializers.FloatField(min_value=0, max_value=1, default=1.0)
    importance = serializers.FloatField(
        min_value=0, max_value=1, required=False,
        help_text="0-1; sets the TTL and whether it is a core fact. When omitted it is inferred from kind, "
                  "memory_key and content (allergies, conditions, medication 0.9+; tastes 0.5).")
    source = serializers.ChoiceField(choices=MemorySource.choices, default=MemorySource.STATED)
    client_id = serializers.CharField(required=False)
    agent_id = serializers.CharField(required=False)
    source_session_id = serializers.CharField(required=False)
    source_turn_from = serializers.IntegerField(required=False, min_value=1, max_value=TURN_NUMBER_MAX)
    source_turn_to = serializers.IntegerField(required=False, min_value=1, max_value=TURN_NUMBER_MAX)


class MemoryBatchInputSerializer(InputSerializer):
    memories = MemoryInputSerializer(many=True)


def _item(raw, index: int) -> dict:
    problem = memory_item_shape_error(raw)
    if problem:
        message, errors = problem
        raise InvalidInput(message, code="invalid", details={"items": [{"index": index, "errors": errors}]})
    return dict(raw)


def _write_output(write) -> dict:
    return {**MemoryOutputSerializer(write.memory).data, "outcome": write.outcome}


def _user_id_param(params) -> str | None:
    value = params.get("user_id")
    return validate_user_id(value, max_length=Memory.USER_ID_MAX_LENGTH) if value else None


def _split(values: list[str]) -> list[str]:
    return [part for value in values for part in value.split(",") if part]


class MemoriesApi(TenantAPIView):
    """GET lists memories (cursor pagination); POST writes one memory or a batch."""

    @extend_schema(
        summary="List memories with filters", operation_id="memories_list",
        parameters=[
            OpenApiParameter("user_id", str), OpenApiParameter("kind", str, description="comma-separated kinds"),
            OpenApiParameter("status", str, description="comma-separated statuses (default active)"),
            OpenApiParameter("memory_key", str), OpenApiParameter("entity", str),
            OpenApiParameter("created_after", OpenApiTypes.DATETIME),
            OpenApiParameter("created_before", OpenApiTypes.DATETIME),
            OpenApiParameter("cursor", str), OpenApiParameter("limit", int),
        ],
        responses=inline_serializer("MemoryListResponse", {
            "results": MemoryOutputSerializer(many=True), "next_cursor": serializers.CharField(allow_null=True)}),
    )
    def get(self, request):
        params = request.query_params
        times = {}
        for name in ("created_after", "created_before"):
            if params.get(name):
                field = serializers.DateTimeField()
                try:
                    times[name] = field.to_internal_value(params[name])
                except serializers.ValidationError:
                    raise InvalidInput(_("%s must be an ISO 8601 date-time") % name, code="invalid")
        statuses = _split(params.getlist("status"))
        quarantine_read_check(self.api_key, statuses=statuses)
        queryset = memory_list(
            tenant=self.tenant, user_id=_user_id_param(params), kinds=_split(params.getlist("kind")),
            statuses=statuses, memory_key=params.get("memory_key") or None,
            entities=_split(params.getlist("entity")), **times)
        rows, next_cursor = paginate_keyset(queryset, params=params, field="id", descending=True)
        return Response({"results": MemoryOutputSerializer(rows, many=True).data, "next_cursor": next_cursor})

    @extend_schema(
        summary="Write one memory, or a batch of up to 100 (all or nothing)",
        request=PolymorphicProxySerializer(component_name="MemoryCreateRequest",
                                           serializers=[MemoryInputSerializer, MemoryBatchInputSerializer],
                                           resource_type_field_name=None),
        responses={201: PolymorphicProxySerializer(
            component_name="MemoryCreateResponse",
            serializers=[MemoryWriteOutputSerializer,
                         inline_serializer("MemoryBatchResponse",
                                           {"results": MemoryWriteOutputSerializer(many=True)})],
            resource_type_field_name=None)},
    )
    def post(self, request):
        body = request.data
        if not isinstance(body, dict):
            raise InvalidInput(_("the body must be a memory object or {\"memories\": [...]}"), code="invalid")
        if "memories" in body:
            batch = body["memories"]
            if set(body) != {"memories"} or not isinstance(batch, list):
                raise InvalidInput(_("a batch body is {\"memories\": [...]} and nothing else"), code="invalid")
            if len(batch) > MAX_BATCH:
                raise InvalidInput(_("at most %d memories per batch") % MAX_BATCH, code="batch_too_large")
            items = [_item(raw, index) for index, raw in enumerate(batch)]
            writes = memory_create_batch(tenant=self.tenant, actor=self.actor, items=items)
            return Response({"results": [_write_output(w) for w in writes]}, status=status.HTTP_201_CREATED)
        item = _item(body, 0)
        writes = memory_create_batch(tenant=self.tenant, actor=self.actor, items=[item], name_items=False)
        return Response(_write_output(writes[0]), status=status.HTTP_201_CREATED)


class MemoryDetailApi(TenantAPIView):
    class MemoryPatchInputSerializer(InputSerializer):
        default_error_messages = {"unknown_field": _("this field cannot be changed")}

        content = serializers.CharField(max_length=Memory.CONTENT_MAX_LENGTH, required=False)
        kind = serializers.ChoiceField(choices=MemoryKind.choices, required=False)
        memory_key = serializers.CharField(max_length=Memory.MEMORY_KEY_MAX_LENGTH, required=False, allow_blank=True)
        entities = serializers.ListField(child=serializers.CharField(max_length=Memory.ENTITY_MAX_LENGTH),
                                         required=False, max_length=Memory.MAX_ENTITIES)
        attributes = serializers.DictField(required=False)
        confidence = serializers.FloatField(min_value=0, max_value=1, required=False)
        importance = serializers.FloatField(min_value=0, max_value=1, required=False)

    @extend_schema(summary="Read one memory", responses=MemoryOutputSerializer)
    def get(self, request, memory_id: int):
        memory = memory_get(tenant=self.tenant, memory_id=memory_id)
        quarantine_read_check(self.api_key, memory=memory)
        return Response(MemoryOutputSerializer(memory).data)

    @extend_schema(summary="Correct a memory (new version; new content is re-embedded)",
                   request=MemoryPatchInputSerializer, responses=MemoryOutputSerializer)
    def patch(self, request, memory_id: int):
        memory = memory_get(tenant=self.tenant, memory_id=memory_id)
        data = self.MemoryPatchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        memory = memory_update(memory=memory, actor=self.actor, **data.validated_data)
        return Response(MemoryOutputSerializer(memory).data)

    # 200 with the deleted memory (status "deleted"): drf-spectacular files a DELETE's body under 204
    @extend_schema(summary="Soft-delete a memory (restorable)", responses={200: MemoryOutputSerializer})
    def delete(self, request, memory_id: int):
        memory = memory_soft_delete(memory=memory_get(tenant=self.tenant, memory_id=memory_id), actor=self.actor)
        return Response(MemoryOutputSerializer(memory).data)


class MemoryRestoreApi(TenantAPIView):
    @extend_schema(summary="Restore a soft-deleted memory", request=None, responses=MemoryOutputSerializer)
    def post(self, request, memory_id: int):
        memory = memory_restore(memory=memory_get(tenant=self.tenant, memory_id=memory_id), actor=self.actor)
        return Response(MemoryOutputSerializer(memory).data)


class MemoryReleaseApi(TenantAPIView):
    required_scope = "admin"

    @extend_schema(summary="Release a quarantined memory after review", request=None,
                   responses=MemoryOutputSerializer)
    def post(self, request, memory_id: int):
        memory = memory_quarantine_release(memory=memory_get(tenant=self.tenant, memory_id=memory_id),
                                           actor=self.actor)
        return Response(MemoryOutputSerializer(memory).data)


class MemoryRevertApi(TenantAPIView):
    class MemoryRevertInputSerializer(InputSerializer):
        history_id = serializers.IntegerField(min_value=1)

    @extend_schema(summary="Bring back an earlier version (as a new version)", request=MemoryRevertInputSerializer,
                   responses=MemoryOutputSerializer)
    def post(self, request, memory_id: int):
        data = self.MemoryRevertInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        memory = memory_revert(memory=memory_get(tenant=self.tenant, memory_id=memory_id),
                               history_id=data.validated_data["history_id"], actor=self.actor)
        return Response(MemoryOutputSerializer(memory).data)


class MemoryFeedbackApi(TenantAPIView):
    class MemoryFeedbackInputSerializer(InputSerializer):
        useful = serializers.BooleanField()

    @extend_schema(summary="Useful / not useful feedback (three negatives halve the memory's weight)",
                   request=MemoryFeedbackInputSerializer, responses=MemoryOutputSerializer)
    def post(self, request, memory_id: int):
        data = self.MemoryFeedbackInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        memory = memory_feedback(memory=memory_get(tenant=self.tenant, memory_id=memory_id), actor=self.actor,
                                 useful=data.validated_data["useful"])
        return Response(MemoryOutputSerializer(memory).data)


class HistoryOutputSerializer(serializers.Serializer):
    history_id = serializers.IntegerField()
    history_date = serializers.DateTimeField()
    history_type = serializers.ChoiceField(choices=["+", "~", "-"])
    change_reason = serializers.CharField(source="history_change_reason", allow_null=True)
    kind = serializers.CharField()
    content = serializers.CharField()
    memory_key = serializers.CharField(allow_blank=True)
    entities = serializers.ListField(child=serializers.CharField())
    attributes = serializers.DictField()
    confidence = serializers.FloatField()
    importance = serializers.FloatField()
    status = serializers.ChoiceField(choices=MemoryStatus.choices)
    valid_to = serializers.DateTimeField(allow_null=True)
    superseded_by = serializers.IntegerField(source="superseded_by_id", allow_null=True)
    mention_count = serializers.IntegerField()
    feedback_weight = serializers.FloatField()


class MemoryHistoryApi(TenantAPIView):
    @extend_schema(
        summary="Every version of a memory, newest first",
        parameters=[OpenApiParameter("cursor", str), OpenApiParameter("limit", int)],
        responses=inline_serializer("MemoryHistoryResponse", {
            "results": HistoryOutputSerializer(many=True), "next_cursor": serializers.CharField(allow_null=True)}),
    )
    def get(self, request, memory_id: int):
        memory = memory_get(tenant=self.tenant, memory_id=memory_id)
        rows, next_cursor = paginate_keyset(memory_history(memory=memory), params=request.query_params,
                                            field="history_id", descending=True)
        return Response({"results": HistoryOutputSerializer(rows, many=True).data, "next_cursor": next_cursor})
