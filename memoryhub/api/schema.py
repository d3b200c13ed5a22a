"""OpenAPI pieces every API shares: how API keys authenticate, the error responses' schema, and the
generator every schema is built with."""
import threading

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import get_doc, get_override
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

ERROR = inline_serializer("Error", {
    "error": inline_serializer("ErrorBody", {
        "code": serializers.CharField(), "message": serializers.CharField(), "details": serializers.DictField(),
    }),
})


CONTENDED = "Contended or unavailable: retry after the Retry-After header's seconds."


def errors(*statuses: int) -> dict:
    """Schema entries for the error responses an operation can give."""
    return {code: OpenApiResponse(ERROR) for code in statuses}


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "memoryhub.tenancy.auth.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "mh_<prefix>_<secret>"}


# One tag per room, so the docs group operations by layer (the first path segment would split
# `memories` from `memories/search` and lump `users/` erasure with nothing).
TAGS = {
    "layers.transient": "transient",
    "layers.short_term": "short-term",
    "layers.long_term": "long-term",
    "layers.context": "context",
    "layers.erasure": "erasure",
    "layers.reminders": "reminders",
    "permanent": "permanent",
    "memoryhub": "service",
}


def tag_of_module(module: str) -> str:
    parts = module.split(".")
    for length in (2, 1):
        tag = TAGS.get(".".join(parts[:length]))
        if tag:
            return tag
    return "service"


class PublicAutoSchema(AutoSchema):
    """Descriptions only from what an operation states for clients (`extend_schema(description=…)`,
    field `help_text`), never from docstrings: those are written for the people who maintain the code
    and name internals (locks, modules, services). Tags come from the view's room."""

    def get_description(self) -> str:
        return ""

    def get_tags(self) -> list[str]:
        return [tag_of_module(type(self.view).__module__)]

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if not get_override(serializer, "description") and schema.get("description") == get_doc(serializer.__class__):
            schema.pop("description", None)
        return schema

    def _get_response_bodies(self, direction="response"):
        # Every handler runs under deadlock_retry (memoryhub/api/views.py): a request that loses every
        # attempt to PostgreSQL's deadlock detection is a 503 "contended" with Retry-After, on any operation.
        responses = super()._get_response_bodies(direction)
        if direction == "response" and "503" not in responses:
            responses["503"] = self._get_response_for_code(OpenApiResponse(ERROR, description=CONTENDED),
                                                           "503", direction=direction)
        return responses

    def _map_response_type_hint(self, method):
        schema = super()._map_response_type_hint(method)
        schema.pop("description", None)  # a method field's docstring is for maintainers
        return schema


_GENERATION = threading.Lock()


class SerialSchemaGenerator(SchemaGenerator):
    """drf-spectacular's generator, one schema at a time per process.

    Its extension registry resolves each extension's target class lazily, on first use, by assigning the
    class attribute in place (drf_spectacular/plumbing.py, `_load_class`): two threads building a schema
    at once (a gunicorn worker's first /api/schema/ and first MCP call, or two first MCP calls) can see
    each other's half-done state and fail with "'NoneType' object has no attribute 'startswith'". Building
    under one lock makes the first build resolve everything and later ones read it."""

    def get_schema(self, request=None, public=False):
        with _GENERATION:
            return super().get_schema(request=request, public=public)
