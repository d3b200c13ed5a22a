"""Base view for tenant-scoped API views, and the whoami endpoint."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.core.actors import Actor


class TenantAPIView(APIView):
    """An API view whose tenant comes from the calling key and nowhere else."""

    @property
    def api_key(self):
        return self.request.auth

    @property
    def tenant(self):
        return self.request.auth.tenant

    @property
    def actor(self) -> Actor:
        return Actor.for_api_key(self.request.auth)


class WhoAmIView(TenantAPIView):
    @extend_schema(
        summary="The calling key's tenant, name and scopes",
        responses=inline_serializer("WhoAmI", {
            "tenant": serializers.CharField(), "key_name": serializers.CharField(),
            "key_prefix": serializers.CharField(), "scopes": serializers.ListField(child=serializers.CharField()),
        }),
    )
    def get(self, request):
        return Response({"tenant": self.tenant.slug, "key_name": self.api_key.name,
                         "key_prefix": self.api_key.prefix, "scopes": self.api_key.scopes})
