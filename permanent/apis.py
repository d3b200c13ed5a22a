"""Agent API of the permanent layer: exact-key reads with ETags, and proposing changes.

Agents can propose (scope `propose`) and follow their requests; they can never approve.
"""
from __future__ import annotations

import hashlib

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from memoryhub.api.pagination import MAX_LIMIT, paginate_sorted
from memoryhub.api.views import TenantAPIView
from memoryhub.core.errors import NotFound
from memoryhub.tenancy.models import Scope
from permanent.models import (
    KEY_MAX_LENGTH,
    MAX_REQUIRED_APPROVALS,
    REASON_MAX_LENGTH,
    USER_ID_MAX_LENGTH,
    ChangeAction,
    ChangeRequest,
)
from permanent.payload import validate_key, validate_user_id
from permanent.selectors import (
    change_request_get,
    permanent_effective,
    permanent_entry_read,
)
from permanent.services import change_request_propose, change_request_withdraw

LIST_DEFAULT_LIMIT = MAX_LIMIT
_USER_ID_PARAM = OpenApiParameter("user_id", str, description="Also read this end user's own entries.")


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
                    OpenApiParameter("cursor", str, description="`next_cursor` of the previous page.")],
        responses={200: EntryListOutput, 304: None},
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
                   parameters=[_USER_ID_PARAM], responses={200: EntryOutput, 304: None})
    def get(self, request, key: str):
        validate_key(key)
        item = permanent_entry_read(tenant_id=self.tenant.id, key=key, user_id=_query_user_id(request))
        if item is None:
            raise NotFound(_("No active permanent entry has this key."), code="entry_not_found")
        etag = _etag([item["key"], item["scope"], item["user_id"] or "", str(item["version"]), item["value_hash"]])
        if _not_modified(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(EntryOutput(item).data, headers={"ETag": etag})


class ChangeRequestOutput(serializers.ModelSerializer):
    approvals = serializers.SerializerMethodField()

    class Meta:
        model = ChangeRequest
        fields = ["id", "key", "user_id", "action", "proposed_value", "target_version", "base_version",
                  "payload_hash", "origin", "state", "state_note", "reason", "effective_at", "applied_version",
                  "created_at", "decided_at", "applied_at", "approvals"]

    def get_approvals(self, obj) -> list[dict]:
        return [{"decision": a.decision, "comment": a.comment, "at": a.created_at.isoformat()}
                for a in obj.approvals.all()]


class ChangeRequestCreateApi(TenantAPIView):
    required_scope = Scope.PROPOSE

    class Input(serializers.Serializer):
        action = serializers.ChoiceField(choices=ChangeAction.choices, default=ChangeAction.UPDATE)
        key = serializers.CharField(max_length=KEY_MAX_LENGTH)
        user_id = serializers.CharField(max_length=USER_ID_MAX_LENGTH, required=False, allow_blank=True, default="")
        value = serializers.JSONField(required=False)
        target_version = serializers.IntegerField(required=False, min_value=1)
        base_version = serializers.IntegerField(required=False, min_value=0)
        reason = serializers.CharField(max_length=REASON_MAX_LENGTH, required=False, allow_blank=True, default="")
        effective_at = serializers.DateTimeField(required=False, allow_null=True)
        schema = serializers.JSONField(required=False, allow_null=True)
        required_approvals = serializers.IntegerField(required=False, min_value=1, max_value=MAX_REQUIRED_APPROVALS)

    @extend_schema(operation_id="permanent_change_request_create", summary="Propose a change to a permanent entry (a reviewer must approve it)",
                   request=Input, responses={201: ChangeRequestOutput})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        extra = {"value": fields.pop("value")} if "value" in fields else {}
        change_request = change_request_propose(tenant=self.tenant, proposer_api_key=self.api_key, **fields, **extra)
        return Response(ChangeRequestOutput(change_request).data, status=status.HTTP_201_CREATED)


class ChangeRequestDetailApi(TenantAPIView):
    required_scope = Scope.READ

    @extend_schema(operation_id="permanent_change_request_get", summary="Follow one change request", responses=ChangeRequestOutput)
    def get(self, request, change_request_id: int):
        change_request = change_request_get(tenant_id=self.tenant.id, change_request_id=change_request_id)
        if change_request is None:
            raise NotFound(_("No such change request."), code="change_request_not_found")
        return Response(ChangeRequestOutput(change_request).data)


class ChangeRequestWithdrawApi(TenantAPIView):
    """The proposing key takes back its own request (agents can withdraw, never approve)."""

    required_scope = Scope.PROPOSE

    @extend_schema(operation_id="permanent_change_request_withdraw", summary="Withdraw a request this key proposed",
                   request=None, responses=ChangeRequestOutput)
    def post(self, request, change_request_id: int):
        change_request = change_request_get(tenant_id=self.tenant.id, change_request_id=change_request_id)
        if change_request is None:
            raise NotFound(_("No such change request."), code="change_request_not_found")
        withdrawn = change_request_withdraw(change_request=change_request, api_key=self.api_key)
        return Response(ChangeRequestOutput(withdrawn).data)
