"""Agent API of the permanent layer: exact-key reads with ETags, and proposing changes.

Agents can propose (scope `propose`) and follow their requests; they can never approve.
"""
from __future__ import annotations

import hashlib

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from memoryhub.api.pagination import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    paginate_keyset,
    paginate_sorted,
)
from memoryhub.api.schema import errors
from memoryhub.api.serializers import InputSerializer, UserIdField
from memoryhub.api.views import TenantAPIView
from memoryhub.core.errors import InvalidInput, NotFound
from memoryhub.tenancy.models import Scope
from permanent.models import (
    KEY_MAX_LENGTH,
    MAX_REQUIRED_APPROVALS,
    REASON_MAX_LENGTH,
    USER_ID_MAX_LENGTH,
    ChangeAction,
    ChangeRequest,
    ChangeState,
)
from permanent.payload import validate_key, validate_user_id
from permanent.selectors import (
    change_request_get,
    change_requests_of_api_key,
    permanent_effective,
    permanent_entry_read,
)
from permanent.services import change_request_propose, change_request_withdraw

LIST_DEFAULT_LIMIT = MAX_LIMIT
_USER_ID_PARAM = OpenApiParameter("user_id", str, description="Also read this end user's own entries.")
_LIMIT_PARAM = OpenApiParameter("limit", int, description=f"Page size, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT}).")
_CURSOR_PARAM = OpenApiParameter("cursor", str, description="`next_cursor` of the previous page.")

_ENTRY_EXAMPLE = OpenApiExample("A global rule", response_only=True, value={
    "key": "safety.no_medical_advice", "scope": "global", "user_id": None, "version": 2,
    "value": {"refuse": True, "say": "Please ask a doctor."}, "updated_at": "2026-01-05T09:30:00Z"})
_REQUEST_EXAMPLE_VALUE = {
    "id": 41, "key": "rules.tone", "user_id": "", "action": "update", "proposed_value": "warm and brief",
    "target_version": None, "base_version": 1,
    "payload_hash": "3f1c9a0e5b7d4c2a9e8f1b6d0c3a5e7f9b1d3c5e7a9f0b2d4c6e8a0b1c3d5e7f",
    "origin": "agent", "state": "pending", "state_note": "", "reason": "Users found the tone too formal",
    "effective_at": None, "applied_version": None, "created_at": "2026-01-05T09:30:00Z",
    "decided_at": None, "applied_at": None, "approvals": []}


class EntryOutput(serializers.Serializer):
    key = serializers.CharField()
    scope = serializers.ChoiceField(choices=["global", "user"])
    user_id = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()
    value = serializers.JSONField()
    updated_at = serializers.DateTimeField()


class EntryListOutput(serializers.Serializer):
    results = EntryOutput(many=True)
    next_cursor = serializers.CharField(allow_null=True)


def _etag(parts: list[str]) -> str:
    return '"' + hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:32] + '"'


def _not_modified(request, etag: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    candidates = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in candidates or etag in candidates


def _query_user_id(request) -> str:
    return validate_user_id(request.query_params.get("user_id", ""))


class PermanentListApi(TenantAPIView):
    required_scope = Scope.READ

    @extend_schema(
        operation_id="permanent_list",
        summary="Current permanent entries: global ones plus the given user's own",
        description="A user's entry overrides a global one of the same key. Global keys under `rules.`, "
                    "`safety.` and `persona` are the tenant's system rules, also served in the context's "
                    "`system_rules` block. Send `If-None-Match` with the last ETag to get 304 when nothing changed.",
        parameters=[_USER_ID_PARAM, OpenApiParameter("prefix", str, description="Only keys starting with this."),
                    OpenApiParameter("limit", int, description=f"Page size, 1-{MAX_LIMIT} (default {LIST_DEFAULT_LIMIT})."),
                    _CURSOR_PARAM],
        responses={200: EntryListOutput, 304: None, **errors(400, 401, 403)},
        examples=[OpenApiExample("Rules of the tenant", response_only=True, value={
            "results": [_ENTRY_EXAMPLE.value], "next_cursor": None})],
    )
    def get(self, request):
        user_id = _query_user_id(request)
        prefix = request.query_params.get("prefix", "")
        if len(prefix) > KEY_MAX_LENGTH:
            validate_key(prefix)
        items = permanent_effective(tenant_id=self.tenant.id, user_id=user_id, prefix=prefix)
        page, next_cursor = paginate_sorted(items, params=request.query_params, key="key",
                                            default_limit=LIST_DEFAULT_LIMIT)
        etag = _etag([f"{i['key']}|{i['scope']}|{i['version']}|{i['value_hash']}" for i in page]
                     + [prefix, user_id, next_cursor or ""])
        if _not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response({"results": EntryOutput(page, many=True).data, "next_cursor": next_cursor},
                        headers={"ETag": etag})


class PermanentDetailApi(TenantAPIView):
    required_scope = Scope.READ

    @extend_schema(operation_id="permanent_get", summary="One permanent entry by exact key (the user's own when they have one)",
                   description="Exact match only, never a similarity search. With `user_id`, that user's own entry "
                               "of the key when there is one, else the global entry. Send `If-None-Match` with the "
                               "last ETag to get 304 when nothing changed.",
                   parameters=[_USER_ID_PARAM], responses={200: EntryOutput, 304: None, **errors(400, 401, 403, 404)},
                   examples=[_ENTRY_EXAMPLE])
    def get(self, request, key: str):
        validate_key(key)
        item = permanent_entry_read(tenant_id=self.tenant.id, key=key, user_id=_query_user_id(request))
        if item is None:
            raise NotFound(_("No active permanent entry has this key."), code="entry_not_found")
        etag = _etag([item["key"], item["scope"], item["user_id"] or "", str(item["version"]), item["value_hash"]])
        if _not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(EntryOutput(item).data, headers={"ETag": etag})


class ApprovalOutput(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["approve", "reject"])
    comment = serializers.CharField()
    at = serializers.DateTimeField(source="created_at")


class ChangeRequestOutput(serializers.ModelSerializer):
    approvals = ApprovalOutput(many=True, read_only=True)

    class Meta:
        model = ChangeRequest
        fields = ["id", "key", "user_id", "action", "proposed_value", "target_version", "base_version",
                  "payload_hash", "origin", "state", "state_note", "reason", "effective_at", "applied_version",
                  "created_at", "decided_at", "applied_at", "approvals"]


class ChangeRequestListOutput(serializers.Serializer):
    results = ChangeRequestOutput(many=True)
    next_cursor = serializers.CharField(allow_null=True)


class ChangeRequestCreateApi(TenantAPIView):
    # Listing is a read (a key lists only what it proposed itself); proposing needs `propose`.
    required_scopes = {"GET": Scope.READ, "POST": Scope.PROPOSE}

    @extend_schema(
        operation_id="permanent_change_request_list",
        summary="The change requests this API key proposed, newest first",
        description="Only the calling key's own proposals (other keys' and staff proposals are not listed), "
                    "optionally filtered by `state` or exact `key`; cursor-paginated.",
        parameters=[OpenApiParameter("state", str, enum=ChangeState.values, description="Only requests in this state."),
                    OpenApiParameter("key", str, description="Only requests for this exact key."),
                    _LIMIT_PARAM, _CURSOR_PARAM],
        responses={200: ChangeRequestListOutput, **errors(400, 401, 403)},
        examples=[OpenApiExample("One pending proposal", response_only=True,
                                 value={"results": [_REQUEST_EXAMPLE_VALUE], "next_cursor": None})],
    )
    def get(self, request):
        state = request.query_params.get("state", "")
        if state and state not in ChangeState.values:
            raise InvalidInput(_("Unknown state."), code="invalid_state", details={"allowed": ChangeState.values})
        key = request.query_params.get("key", "")
        if key:
            validate_key(key)
        queryset = change_requests_of_api_key(tenant_id=self.tenant.id, api_key_id=self.api_key.id, state=state,
                                              key=key)
        page, next_cursor = paginate_keyset(queryset, params=request.query_params, field="id", descending=True)
        return Response({"results": ChangeRequestOutput(page, many=True).data, "next_cursor": next_cursor})

    class Input(InputSerializer):
        action = serializers.ChoiceField(choices=ChangeAction.choices, default=ChangeAction.UPDATE)
        key = serializers.CharField(max_length=KEY_MAX_LENGTH)
        user_id = UserIdField(max_length=USER_ID_MAX_LENGTH, required=False, allow_blank=True, default="")
        value = serializers.JSONField(required=False)
        target_version = serializers.IntegerField(required=False, min_value=1)
        base_version = serializers.IntegerField(required=False, min_value=0)
        reason = serializers.CharField(max_length=REASON_MAX_LENGTH, required=False, allow_blank=True, default="")
        effective_at = serializers.DateTimeField(required=False, allow_null=True)
        schema = serializers.JSONField(required=False, allow_null=True)
        required_approvals = serializers.IntegerField(required=False, min_value=1, max_value=MAX_REQUIRED_APPROVALS)

    @extend_schema(
        operation_id="permanent_change_request_create",
        summary="Propose a change to a permanent entry (a reviewer must approve it)",
        description="Opens a pending request; nothing changes until a staff reviewer (never the proposing key, "
                    "nor the staff user who created it) approves it. `action` defaults to `update`: a key that "
                    "does not exist yet needs `\"action\": \"create\"` (else 400 `entry_not_found_use_create`). "
                    "`base_version` makes the request apply only on top of that version (409 when the entry moved). "
                    "`schema` and `required_approvals` are set on create only.",
        request=Input, responses={201: ChangeRequestOutput, **errors(400, 401, 403, 409)},
        examples=[
            OpenApiExample("Create a new rule", request_only=True, value={
                "action": "create", "key": "rules.tone", "value": "calm and friendly",
                "reason": "Set the default tone", "schema": {"type": "string", "maxLength": 200}}),
            OpenApiExample("Update an existing rule", request_only=True, value={
                "action": "update", "key": "rules.tone", "value": "warm and brief", "base_version": 1,
                "reason": "Users found the tone too formal"}),
            OpenApiExample("A user's own entry", request_only=True, value={
                "action": "create", "key": "preferences.language", "user_id": "user-42", "value": "zh"}),
            OpenApiExample("The pending request", response_only=True, status_codes=["201"],
                           value=_REQUEST_EXAMPLE_VALUE),
        ],
    )
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        extra = {"value": fields.pop("value")} if "value" in fields else {}
        change_request = change_request_propose(tenant=self.tenant, proposer_api_key=self.api_key, **fields, **extra)
        return Response(ChangeRequestOutput(change_request).data, status=status.HTTP_201_CREATED)


class ChangeRequestDetailApi(TenantAPIView):
    required_scope = Scope.READ

    @extend_schema(operation_id="permanent_change_request_get", summary="Follow one change request",
                   description="Any change request of the key's tenant: its state, approvals and applied version.",
                   responses={200: ChangeRequestOutput, **errors(401, 403, 404)},
                   examples=[OpenApiExample("Applied", response_only=True, value={
                       **_REQUEST_EXAMPLE_VALUE, "state": "applied", "applied_version": 2,
                       "decided_at": "2026-01-05T10:02:00Z", "applied_at": "2026-01-05T10:02:00Z",
                       "approvals": [{"decision": "approve", "comment": "OK", "at": "2026-01-05T10:02:00Z"}]})])
    def get(self, request, change_request_id: int):
        change_request = change_request_get(tenant_id=self.tenant.id, change_request_id=change_request_id)
        if change_request is None:
            raise NotFound(_("No such change request."), code="change_request_not_found")
        return Response(ChangeRequestOutput(change_request).data)


class ChangeRequestWithdrawApi(TenantAPIView):
    """The proposing key takes back its own request (agents can withdraw, never approve)."""

    required_scope = Scope.PROPOSE

    @extend_schema(operation_id="permanent_change_request_withdraw", summary="Withdraw a request this key proposed",
                   description="Only the key that proposed a request may withdraw it, and only before it is applied. "
                               "Agents can never approve.",
                   request=None, responses={200: ChangeRequestOutput, **errors(401, 403, 404, 409)},
                   examples=[OpenApiExample("Withdrawn", response_only=True,
                                            value={**_REQUEST_EXAMPLE_VALUE, "state": "withdrawn"})])
    def post(self, request, change_request_id: int):
        change_request = change_request_get(tenant_id=self.tenant.id, change_request_id=change_request_id)
        if change_request is None:
            raise NotFound(_("No such change request."), code="change_request_not_found")
        withdrawn = change_request_withdraw(change_request=change_request, api_key=self.api_key)
        return Response(ChangeRequestOutput(withdrawn).data)
