"""Erasure and export of one end user (scope `admin`)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from layers.erasure.services import user_erase, user_export_deliver
from memoryhub.api.views import TenantAPIView
from memoryhub.tenancy.models import Scope
from permanent.payload import validate_user_id


class UserEraseApi(TenantAPIView):
    required_scope = Scope.ADMIN

    @extend_schema(
        operation_id="user_erase",
        summary="Erase everything stored about one end user (all layers, history, caches)",
        # 200 with the report: drf-spectacular files a DELETE's body under 204 unless told
        responses={200: inline_serializer("UserErasure", {
            "user_id": serializers.CharField(),
            "deleted": serializers.DictField(child=serializers.IntegerField()),
            "redis_keys": serializers.IntegerField(),
        })},
    )
    def delete(self, request, user_id: str):
        # Only what cannot be stored is refused here, not the stricter rule for new writes
        # (memoryhub/api/identifiers.py): an id stored before that rule must stay erasable.
        validate_user_id(user_id)
        report = user_erase(tenant=self.tenant, user_id=user_id, actor=self.actor)
        return Response({"user_id": user_id, **report.as_dict()})


class UserExportApi(TenantAPIView):
    required_scope = Scope.ADMIN

    @extend_schema(
        operation_id="user_export",
        summary="Export everything stored about one end user as JSON, per model, history included",
        responses=inline_serializer("UserExport", {
            "user_id": serializers.CharField(),
            "data": serializers.DictField(child=serializers.ListField(child=serializers.DictField())),
        }),
    )
    def get(self, request, user_id: str):
        validate_user_id(user_id)
        data = user_export_deliver(tenant_id=self.tenant.id, user_id=user_id, actor=self.actor)
        return Response({"user_id": user_id, "data": data})
