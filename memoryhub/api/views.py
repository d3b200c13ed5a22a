"""Base view for tenant-scoped API views, and the whoami endpoint."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.core.actors import Actor
from memoryhub.core.locks import deadlock_retry

# Every handler a view defines runs under `deadlock_retry`: a request whose transaction PostgreSQL
# aborted as a deadlock victim or a serialisation failure is run again whole, so no endpoint (a new one
# included) shows that abort to its client. Services open their own transactions, so a handler starts
# outside any (ATOMIC_REQUESTS is off) and the retry sits at the outermost boundary; a service whose
# transaction sits inside another is retried by that outer boundary (memoryhub/core/locks.py). The
# request body is parsed once (DRF caches `request.data`), and work enqueued with `on_commit` by the
# aborted attempt was discarded with it. When every attempt loses, the error handler answers 503 with
# Retry-After (memoryhub/api/errors.py).
RETRIED_HANDLERS = ("get", "post", "put", "patch", "delete")


class TenantAPIView(APIView):
    """An API view whose tenant comes from the calling key and nowhere else."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in RETRIED_HANDLERS:
            handler = cls.__dict__.get(name)
            if handler is not None:
                # functools.wraps inside keeps the handler's attributes, among them drf-spectacular's
                # `kwargs["schema"]` set by @extend_schema.
                setattr(cls, name, deadlock_retry(handler))

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
