"""DRF authentication by API key, and scope permissions. The tenant comes from the key only."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions, permissions

from memoryhub.core.request_context import Caller, current_caller
from memoryhub.tenancy.models import ApiKey, Scope
from memoryhub.tenancy.services import api_key_authenticate


class ApiKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        presented = self.presented_key(request)
        return None if presented is None else self.authenticate_presented(presented)

    @classmethod
    def presented_key(cls, request) -> str | None:
        """The key of `Authorization: Bearer <key>`, None without the header (read once, here, for REST
        and for the MCP endpoint alike)."""
        header = authentication.get_authorization_header(request)
        if not header:
            return None
        try:
            keyword, _sep, token = header.decode("ascii").partition(" ")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid API key."))
        if keyword != cls.keyword or not token.strip():
            raise exceptions.AuthenticationFailed(_("Use 'Authorization: Bearer <api key>'."))
        return token.strip()

    @staticmethod
    def authenticate_presented(presented: str):
        api_key = api_key_authenticate(presented=presented)
        if api_key is None:
            raise exceptions.AuthenticationFailed(_("Invalid or revoked API key."))
        current_caller.set(Caller(tenant_id=api_key.tenant_id, api_key_id=api_key.pk))
        return (None, api_key)

    def authenticate_header(self, request):
        return self.keyword


class HasTenantKey(permissions.BasePermission):
    """Requires an API key with the view's `required_scope` (read for safe methods, write otherwise)."""

    message = _("This API key lacks the scope this operation needs.")

    def has_permission(self, request, view):
        api_key = request.auth
        if not isinstance(api_key, ApiKey):
            raise exceptions.NotAuthenticated(_("An API key is required."))
        required = getattr(view, "required_scopes", {}).get(request.method)
        if required is None:
            required = getattr(view, "required_scope", None)
        if required is None:
            required = Scope.READ if request.method in permissions.SAFE_METHODS else Scope.WRITE
        if not api_key.has_scope(required):
            self.message = _("This API key lacks the '%(scope)s' scope.") % {"scope": required}
            return False
        return True
