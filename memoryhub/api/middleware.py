"""Request id on every response, and the checks that must run before any view parses the body."""
from __future__ import annotations

import re
import uuid

from django.conf import settings

from memoryhub.api.errors import json_error
from memoryhub.api.strings import bad_string_reason
from memoryhub.core.request_context import current_request_id

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
        try:
            response = self._early_refusal(request) or self.get_response(request)
        finally:
            current_request_id.reset(token)
        response["X-Request-ID"] = request_id
        return response

    def _early_refusal(self, request):
        if not request.path.startswith("/api/"):
            return None
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return json_error("malformed_request", "Content-Length is not a number.", 400)
        limit = settings.MAX_REQUEST_BODY_BYTES
        if length > limit:
            return json_error("body_too_large", f"request body is larger than {limit} bytes", 413,
                              {"limit_bytes": limit})
        reason = bad_string_reason(request.path)
        if reason:
            return json_error("malformed_request", f"the URL path {reason}", 400)
        for key, values in request.GET.lists():
            for value in [key, *values]:
                reason = bad_string_reason(value)
                if reason:
                    return json_error("malformed_request", f"query parameter {key!r} {reason}", 400)
        return None
