"""Transient API: start tasks in a session, read the task stack, fill slots and move status;
and task types (read with any key, written with an admin-scoped key; staff also use the admin)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from layers.short_term.selectors import session_get
from layers.transient.models import EntityType, TaskStatus, TaskType
from layers.transient.policy import transient_policy
from layers.transient.selectors import (
    session_entities,
    task_get,
    task_stack,
    task_type_get,
    task_type_list,
)
from layers.transient.serializers import SessionEntityOutput, TaskChangeOutput, TaskOutput, TaskTypeOutput
from layers.transient.services import (
    task_start,
    task_type_create,
    task_type_update,
    task_update,
)
from memoryhub.api.schema import errors
from memoryhub.api.serializers import InputSerializer
from memoryhub.api.views import TenantAPIView
from memoryhub.core.errors import Conflict, InvalidInput


class SessionTasksApi(TenantAPIView):
    class TaskStartInput(InputSerializer):
        task_type = serializers.CharField(max_length=TaskType.NAME_MAX_LENGTH)
        parent_id = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        slots = serializers.DictField(required=False)

    class TaskStackOutput(serializers.Serializer):
        current_task_id = serializers.IntegerField(allow_null=True)
        results = TaskOutput(many=True)

    @extend_schema(
        summary="Start a task (optionally as a sub-task)",
        description="`task_type` names one of the tenant's task types (400 `unknown_task_type`). With "
                    "`parent_id`, the parent is suspended until this task is done or cancelled, then resumes "
                    "in the state it left (409 `parent_busy` if it already has a running sub-task). Unknown "
                    "slot names → 400 `unknown_slots`; oversized values → 413. Starts `ready` when every "
                    "required slot is given, else `collecting` with `missing_slots`. The session must be active.",
        request=TaskStartInput, responses={201: TaskOutput, **errors(400, 404, 409, 413)},
    )
    def post(self, request, session_id: str):
        session = session_get(tenant=self.tenant, session_id=session_id)
        data = self.TaskStartInput(data=request.data)
        data.is_valid(raise_exception=True)
        change = task_start(session=session, task_type_name=data.validated_data["task_type"],
                            parent_id=data.validated_data.get("parent_id"), slots=data.validated_data.get("slots"),
                            actor=self.actor)
        return Response(TaskOutput(change.task).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="The session's task stack, current first",
        description="Running tasks only (collecting, ready, executing, suspended); finished and expired ones "
                    "are not listed.",
        responses={200: TaskStackOutput, **errors(404)},
    )
    def get(self, request, session_id: str):
        session = session_get(tenant=self.tenant, session_id=session_id)
        stack = task_stack(session=session)
        return Response({"current_task_id": stack[0].id if stack else None,
                         "results": TaskOutput(stack, many=True).data})


class TaskDetailApi(TenantAPIView):
    class TaskUpdateInput(InputSerializer):
        slots = serializers.DictField(required=False, help_text="slot changes; null clears a slot")
        # Every status is accepted here so that a transition the table forbids (suspended included)
        # answers 409 from the service, not 400.
        status = serializers.ChoiceField(choices=TaskStatus.choices, required=False)

        def validate(self, attrs):
            if not attrs:
                raise serializers.ValidationError("send slots, status or both")
            return attrs

    @extend_schema(summary="Read a task", description="404 `task_expired` once its TTL has passed.",
                   responses={200: TaskOutput, **errors(404)})
    def get(self, request, task_id: int):
        return Response(TaskOutput(task_get(tenant=self.tenant, task_id=task_id)).data)

    @extend_schema(
        summary="Fill slots and/or change status",
        description="Slots merge (null clears one). Filling the last required slot moves collecting → ready. "
                    "Transitions: collecting → ready | cancelled; ready → executing | collecting | cancelled; "
                    "executing → done | cancelled; suspended → cancelled only (it resumes by itself when its "
                    "sub-task finishes). Anything else is 409 `illegal_transition`; `ready` with slots missing "
                    "is 409 `slots_missing`; a done or cancelled task is 409 `task_finished`. Finishing a "
                    "sub-task resumes its parent (`resumed_parent`). Renews `expires_at`.",
        request=TaskUpdateInput, responses={200: TaskChangeOutput, **errors(400, 404, 409, 413)},
    )
    def patch(self, request, task_id: int):
        task = task_get(tenant=self.tenant, task_id=task_id)
        data = self.TaskUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        change = task_update(task=task, slots=data.validated_data.get("slots"),
                             status=data.validated_data.get("status"), actor=self.actor)
        change.task.refresh_from_db()
        return Response(TaskChangeOutput(change.task, context={"resumed_parent": change.resumed_parent}).data)


class TaskTypesApi(TenantAPIView):
    required_scopes = {"GET": "read", "POST": "admin"}

    class TaskTypeCreateInput(InputSerializer):
        name = serializers.CharField(max_length=TaskType.NAME_MAX_LENGTH)
        description = serializers.CharField(required=False, allow_blank=True, max_length=2000)
        required_slots = serializers.ListField(child=serializers.CharField(), max_length=TaskType.MAX_SLOTS)
        optional_slots = serializers.ListField(child=serializers.CharField(), required=False,
                                               max_length=TaskType.MAX_SLOTS)
        default_ttl_seconds = serializers.IntegerField(required=False, min_value=TaskType.MIN_TTL_SECONDS,
                                                       max_value=TaskType.MAX_TTL_SECONDS)

    class TaskTypeListOutput(serializers.Serializer):
        results = TaskTypeOutput(many=True)

    @extend_schema(summary="List task types", operation_id="task_types_list", responses={200: TaskTypeListOutput})
    def get(self, request):
        return Response({"results": TaskTypeOutput(task_type_list(tenant=self.tenant), many=True).data})

    @extend_schema(summary="Define a task type (admin scope; audited)", request=TaskTypeCreateInput,
                   responses={201: TaskTypeOutput, **errors(400, 403, 409)})
    def post(self, request):
        data = self.TaskTypeCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        task_type = task_type_create(tenant=self.tenant, actor=self.actor, **data.validated_data)
        return Response(TaskTypeOutput(task_type).data, status=status.HTTP_201_CREATED)


class TaskTypeDetailApi(TenantAPIView):
    required_scopes = {"GET": "read", "PATCH": "admin"}

    class TaskTypeUpdateInput(InputSerializer):
        name = serializers.CharField(required=False, max_length=TaskType.NAME_MAX_LENGTH)
        description = serializers.CharField(required=False, allow_blank=True, max_length=2000)
        required_slots = serializers.ListField(child=serializers.CharField(), required=False,
                                               max_length=TaskType.MAX_SLOTS)
        optional_slots = serializers.ListField(child=serializers.CharField(), required=False,
                                               max_length=TaskType.MAX_SLOTS)
        default_ttl_seconds = serializers.IntegerField(required=False, min_value=TaskType.MIN_TTL_SECONDS,
                                                       max_value=TaskType.MAX_TTL_SECONDS)

    @extend_schema(summary="Read a task type", operation_id="task_type_get", responses={200: TaskTypeOutput, **errors(404)})
    def get(self, request, name: str):
        return Response(TaskTypeOutput(task_type_get(tenant=self.tenant, name=name)).data)

    @extend_schema(summary="Change a task type (admin scope; audited, versioned)", request=TaskTypeUpdateInput,
                   responses={200: TaskTypeOutput, **errors(400, 403, 404, 409)})
    def patch(self, request, name: str):
        task_type = task_type_get(tenant=self.tenant, name=name)
        data = self.TaskTypeUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(TaskTypeOutput(task_type_update(task_type=task_type, actor=self.actor,
                                                        **data.validated_data)).data)


class SessionEntitiesApi(TenantAPIView):
    class SessionEntitiesOutput(serializers.Serializer):
        session_id = serializers.CharField()
        size = serializers.IntegerField(help_text="how many entities the registry keeps (policy.transient.entity_registry_size)")
        results = SessionEntityOutput(many=True)

    @extend_schema(
        summary="The session's working memory: entities mentioned recently, latest first",
        description="A bounded registry (ring buffer) of the devices, places, people, products, documents, "
                    "orders, restaurants, media, vehicles and events the conversation named, with type, first "
                    "and last turn, and the attributes stated with them. Filled as turns are appended; the "
                    "append response's `resolutions` say what pronouns in user turns were taken to mean. "
                    "`type` filters (400 `invalid_entity_type`); `user_id`, when given, must own the session "
                    "(409 `session_user_mismatch`).",
        parameters=[OpenApiParameter("type", str, required=False, enum=list(EntityType.values)),
                    OpenApiParameter("user_id", str, required=False)],
        responses={200: SessionEntitiesOutput, **errors(400, 404, 409)},
        examples=[OpenApiExample("smart home", response_only=True, status_codes=["200"], value={
            "session_id": "home-1", "size": 50, "results": [
                {"id": 12, "name": "客厅的灯", "type": "device", "gender": "", "plural": False,
                 "guessed_type": False, "aliases": ["客厅灯"], "attributes": {"said": ["打开客厅的灯"],
                                                                             "clauses": [], "numbers": []},
                 "first_turn": 1, "last_turn": 5, "mentions": 3}]})],
    )
    def get(self, request, session_id: str):
        session = session_get(tenant=self.tenant, session_id=session_id)
        user_id = request.query_params.get("user_id")
        if user_id is not None and user_id != session.user_id:
            raise Conflict(_("this session belongs to another user"), code="session_user_mismatch")
        rows = session_entities(session=session)
        kind = request.query_params.get("type")
        if kind is not None:
            if kind not in EntityType.values:
                raise InvalidInput(_("type must be one of %(types)s") % {"types": ", ".join(EntityType.values)},
                                   code="invalid_entity_type", details={"field": "type"})
            rows = rows.filter(entity_type=kind)
        return Response({"session_id": session.session_id, "size": transient_policy(self.tenant.pk).entity_registry_size,
                         "results": SessionEntityOutput(rows, many=True).data})
