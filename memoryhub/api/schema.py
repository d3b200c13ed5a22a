"""OpenAPI pieces every API shares: how API keys authenticate, and the error responses' schema."""
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

ERROR = inline_serializer("Error", {
    "error": inline_serializer("ErrorBody", {
        "code": serializers.CharField(), "message": serializers.CharField(), "details": serializers.DictField(),
    }),
})


def errors(*statuses: int) -> dict:
    """Schema entries for the error responses an operation can give."""
    return {code: OpenApiResponse(ERROR) for code in statuses}


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "memoryhub.tenancy.auth.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "mh_<prefix>_<secret>"}
