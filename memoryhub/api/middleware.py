"""Request id on every response, the checks that must run before any view parses the body, the JSON
error format for every 404 under /api/, and the Content-Security-Policy of the pages staff open."""
from __future__ import annotations

import io
import re
import uuid

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.utils.translation import gettext as _

from memoryhub.api.errors import json_error
from memoryhub.api.strings import bad_string_reason
from memoryhub.core.request_context import current_caller, current_request_id

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


class RequestIdMiddleware:
    """Takes a sane `X-Request-ID` or makes one; refuses oversized bodies and unstorable URLs early."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        presented = request.headers.get("X-Request-ID", "")
        request_id = presented if _REQUEST_ID.match(presented) else uuid.uuid4().hex
        request.request_id = request_id
        token = current_request_id.set(request_id)
        # A thread serves many requests: the caller authentication sets lives for this one only.
        caller_token = current_caller.set(None)
        try:
            response = self._early_refusal(request) or self.get_response(request)
        finally:
            current_caller.reset(caller_token)
            current_request_id.reset(token)
        response = self._api_not_found(request, response)
        response["X-Request-ID"] = request_id
        return response

    @staticmethod
    def _api_not_found(request, response):
        """An unknown path or an id the URL pattern cannot parse (`/api/v1/memories/abc`) never reaches a
        view; with DEBUG on Django answers its HTML debug page instead of calling `handler404`. Under
        /api/ a client always gets the error format, whatever DEBUG says."""
        if (response.status_code == 404 and request.path.startswith("/api/")
                and not response.get("Content-Type", "").startswith("application/json")):
            return json_error("not_found", _("No such endpoint."), 404)
        return response

    @staticmethod
    def _chunked_body(request):
        """A body sent with `Transfer-Encoding: chunked` and no Content-Length: Django reads it as empty.
        Where the server has already de-chunked it and marks the end (gunicorn sets
        `wsgi.input_terminated`), read it here, within the body limit; elsewhere (the development
        server hands the raw socket over) answer 411 rather than act on an empty body."""
        if "chunked" not in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return None
        if request.META.get("CONTENT_LENGTH"):
            return None
        if not request.environ.get("wsgi.input_terminated"):
            return json_error("length_required", _("Send the body with a Content-Length header."), 411)
        limit = settings.MAX_REQUEST_BODY_BYTES
        raw = request.environ["wsgi.input"].read(limit + 1)
        if len(raw) > limit:
            return json_error("body_too_large", f"request body is larger than {limit} bytes", 413,
                              {"limit_bytes": limit})
        request.META["CONTENT_LENGTH"] = str(len(raw))
        request._stream = LimitedStream(io.BytesIO(raw), len(raw))
        return None

    @classmethod
    def body_refusal(cls, request):
        """The body checks every JSON endpoint applies before reading it (/api/ here, /mcp/ in its view):
        a chunked body framed or refused, a Content-Length that is a number and within the limit."""
        refused = cls._chunked_body(request)
        if refused is not None:
            return refused
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return json_error("malformed_request", "Content-Length is not a number.", 400)
        limit = settings.MAX_REQUEST_BODY_BYTES
        if length > limit:
            return json_error("body_too_large", f"request body is larger than {limit} bytes", 413,
                              {"limit_bytes": limit})
        return None

    def _early_refusal(self, request):
        if not request.path.startswith("/api/"):
            return None
        refused = self.body_refusal(request)
        if refused is not None:
            return refused
        reason = bad_string_reason(request.path)
        if reason:
            return json_error("malformed_request", f"the URL path {reason}", 400)
        for key, values in request.GET.lists():
            for value in [key, *values]:
                reason = bad_string_reason(value)
                if reason:
                    return json_error("malformed_request", f"query parameter {key!r} {reason}", 400)
        return None


# The console (Django's admin and our templates) and the Swagger page load scripts, styles and fonts
# from this origin only (drf-spectacular-sidecar serves Swagger's files locally). Inline styles stay
# allowed: the admin's own widgets and our templates set `style` attributes and <style> blocks, and
# Swagger UI renders inline styles; scripts never run inline. `data:` images are the admin's and
# Swagger's SVG icons. Nothing may frame these pages, and forms post back here only.
CONSOLE_CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    # Redoc builds its search index in a worker made from a blob of its own bundle.
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
CSP_PATHS = ("/admin/", "/api/docs/", "/api/redoc/")


class ContentSecurityPolicyMiddleware:
    """Sets CONSOLE_CSP on the console's and the API docs' pages (a view may set its own instead)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith(CSP_PATHS) and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = CONSOLE_CSP
        return response
