"""POST /mcp/: the MCP server over streamable HTTP, inside the WSGI deployment.

The deployment is WSGI (gunicorn, memoryhub/wsgi.py), so the transport is the SDK's *stateless*
streamable HTTP with JSON responses, driven from this Django view: every POST carries one JSON-RPC
message and gets its answer as one JSON body, no session to keep between requests and no open SSE
stream, which is what a WSGI worker thread can serve (a long-lived stream would hold a thread per
client). Each request runs the SDK's own ASGI handler (`StreamableHTTPSessionManager`) to completion
on an event loop of its own via `async_to_sync`, so the protocol (both its handshake and its
per-request eras, batching, errors) is the SDK's, not ours. Mounting an ASGI app beside Django would
need a second server process, a second auth and a second set of headers; here the request passes the
same middleware as /api/ (request id, security headers) and the same API key authentication.

CSRF-exempt: a browser cannot send the Bearer key across origins without a CORS preflight, which
nothing here answers, and no cookie authenticates this endpoint.
"""
from __future__ import annotations

import functools
import json
from types import SimpleNamespace

import anyio
from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions

from memoryhub.api.errors import json_error
from memoryhub.api.middleware import RequestIdMiddleware
from memoryhub.api.throttling import ApiKeyRateThrottle
from memoryhub.mcp.operations import Caller
from memoryhub.mcp.server import build_server, mcp_caller
from memoryhub.tenancy.auth import ApiKeyAuthentication

# Headers of the SDK's answer that reach the client; hop-by-hop ones are the WSGI server's business.
_PASSED_HEADERS = {"content-type", "mcp-session-id", "mcp-protocol-version", "allow", "www-authenticate"}


@functools.cache
def _server():
    return build_server()


def _unauthenticated(message: str) -> HttpResponse:
    response = json_error("unauthenticated", message, 401)
    response["WWW-Authenticate"] = ApiKeyAuthentication.keyword
    return response


def _asgi_scope(request) -> dict:
    headers = []
    for key, value in request.META.items():
        if key.startswith("HTTP_"):
            name = key[5:].replace("_", "-").lower()
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            name = key.replace("_", "-").lower()
        else:
            continue
        if value:
            headers.append((name.encode("latin-1"), str(value).encode("latin-1", "replace")))
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": request.method,
        "scheme": request.scheme, "path": request.path_info, "raw_path": request.path.encode(),
        "root_path": "", "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "headers": headers, "client": (request.META.get("REMOTE_ADDR", ""), 0),
        "server": (request.get_host(), None),
    }


async def _serve(scope: dict, body: bytes, caller: Caller) -> tuple[int, list, bytes]:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    mcp_caller.set(caller)
    answered = anyio.Event()
    sent: dict = {"status": 500, "headers": [], "body": bytearray()}
    body_given = False

    async def receive():
        nonlocal body_given
        if not body_given:
            body_given = True
            return {"type": "http.request", "body": body, "more_body": False}
        # The client "disconnects" only once the whole answer is out, as a client that waits for it does.
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            sent["status"], sent["headers"] = message["status"], message.get("headers", [])
        elif message["type"] == "http.response.body":
            sent["body"] += message.get("body", b"")
            if not message.get("more_body"):
                answered.set()

    # One manager a request: it lives for one run() (memoryhub's stateless use keeps nothing between).
    manager = StreamableHTTPSessionManager(app=_server(), stateless=True, json_response=True,
                                           max_request_body_size=settings.MAX_REQUEST_BODY_BYTES)
    async with manager.run():
        await manager.handle_request(scope, receive, send)
    return sent["status"], sent["headers"], bytes(sent["body"])


def _rate_limited(request, api_key) -> HttpResponse | None:
    """The key's REST rate limit (memoryhub/api/throttling.py) for what is not a tool call: a tool call is
    counted by its own operation (memoryhub/mcp/operations.py), everything else (initialize, tools/list,
    pings) here, so each message counts once and listing cannot go unmetered."""
    try:
        message = json.loads(request.body)
    except ValueError:
        message = None
    if isinstance(message, dict) and message.get("method") == "tools/call":
        return None
    throttle = ApiKeyRateThrottle()
    if throttle.allow_request(SimpleNamespace(auth=api_key), None):
        return None
    refusal = exceptions.Throttled(throttle.wait())
    response = json_error("rate_limited", str(refusal.detail), 429, {"retry_after_seconds": int(refusal.wait)})
    response["Retry-After"] = str(int(refusal.wait))
    return response


@csrf_exempt
def mcp_endpoint(request):
    if request.method != "POST":
        # GET would open the SDK's standalone SSE stream, which never ends: a worker thread held for as
        # long as the client stays; DELETE ends a session, and there are none. The specification lets a
        # server without them answer 405.
        response = json_error("method_not_allowed", _("The MCP endpoint takes POST only (stateless, JSON)."), 405)
        response["Allow"] = "POST"
        return response
    # The /api/ body checks of memoryhub/api/middleware.py, on this path too.
    refused = RequestIdMiddleware.body_refusal(request)
    if refused is not None:
        return refused
    try:
        presented = ApiKeyAuthentication.presented_key(request)
        if presented is None:
            return _unauthenticated(_("An API key is required."))
        _user, api_key = ApiKeyAuthentication.authenticate_presented(presented)
    except exceptions.AuthenticationFailed as exc:
        return _unauthenticated(str(exc.detail))
    refused = _rate_limited(request, api_key)
    if refused is not None:
        return refused
    # The key this request authenticated: tools/list of this request asks it, not the database again.
    caller = Caller(presented_key=presented, host=request.get_host(), secure=request.is_secure(),
                    request_id=getattr(request, "request_id", ""),
                    accept_language=request.headers.get("Accept-Language", ""), api_key=api_key)
    status, headers, body = async_to_sync(_serve)(_asgi_scope(request), request.body, caller)
    response = HttpResponse(body, status=status)
    for name, value in headers:
        name = name.decode("latin-1").lower()
        if name in _PASSED_HEADERS:
            response[name] = value.decode("latin-1")
    return response
