"""One error format for every 4xx: {"error": {"code", "message", "details"}}."""
from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from memoryhub.core.errors import DomainError
from memoryhub.core.locks import DEADLOCK_ATTEMPTS, is_deadlock

logger = logging.getLogger(__name__)

# A request that lost every attempt to a deadlock or a serialisation failure (memoryhub/api/views.py
# retries it) did nothing: the client may send it again, shortly.
CONTENDED_RETRY_AFTER_SECONDS = 1

_DRF_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.AuthenticationFailed: "unauthenticated",
    exceptions.NotAuthenticated: "unauthenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "rate_limited",
    exceptions.ValidationError: "invalid",
}


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _flatten_detail(detail):
    if isinstance(detail, dict):
        return {key: _flatten_detail(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_flatten_detail(item) for item in detail]
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status_code)
    if isinstance(exc, OperationalError) and is_deadlock(exc):
        logger.warning("request lost %d attempts to PostgreSQL aborts (%s)", DEADLOCK_ATTEMPTS,
                       exc.__cause__.sqlstate)
        return Response(
            error_body("contended", "The request collided with concurrent writes to the same data and was "
                       "not applied; send it again.", {"retry_after_seconds": CONTENDED_RETRY_AFTER_SECONDS}),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(CONTENDED_RETRY_AFTER_SECONDS)})
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("body_too_large", str(exc)), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for klass, c in _DRF_CODES.items() if isinstance(exc, klass)), "error")
    if isinstance(exc, exceptions.ValidationError):
        details = _flatten_detail(exc.detail)
        if not isinstance(details, dict):
            details = {"non_field_errors": details}
        response.data = error_body(code, "The request did not validate; see details.", {"fields": details})
    else:
        message = str(exc.detail) if not isinstance(exc.detail, (dict, list)) else "request failed"
        details = {}
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            details["retry_after_seconds"] = int(exc.wait)
        response.data = error_body(code, message, details)
    return response


def json_error(code: str, message: str, status_code: int, details: dict | None = None) -> JsonResponse:
    return JsonResponse(error_body(code, message, details), status=status_code,
                        json_dumps_params={"ensure_ascii": False})


def handler404(request, exception=None):
    if request.path.startswith("/api/"):
        return json_error("not_found", "No such endpoint.", 404)
    from django.views.defaults import page_not_found
    return page_not_found(request, exception)


def handler500(request):
    if request.path.startswith("/api/"):
        return json_error("internal_error", "Internal error; it has been logged.", 500)
    from django.views.defaults import server_error
    return server_error(request)
