"""Running one REST operation in-process, for a tool call.

A tool call goes through the same Django handler as an HTTP request to /api/v1: the middleware (request
id, body limit, unstorable strings), URL resolution, the key's authentication and scopes, the per-key rate
limit, the deadlock retry, the view's serializers, the services with their audit, secret refusal and
quarantine, and the one error format. Nothing of that is repeated here, so MCP cannot behave differently
from REST. Only the transport differs: the request is built in memory instead of read from a socket
(as Django's own test client does), and Django's request_started/finished signals are not sent, since
the MCP request that carries the call is itself a request (HTTP) or the process's whole life (stdio).
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote_to_bytes, urlencode

from django.conf import settings
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest

if TYPE_CHECKING:
    from memoryhub.tenancy.models import ApiKey

_handler: BaseHandler | None = None


def _django_handler() -> BaseHandler:
    global _handler
    if _handler is None:
        handler = BaseHandler()
        handler.load_middleware()
        _handler = handler
    return _handler


@dataclass(frozen=True)
class Caller:
    """Who makes the calls: the presented API key, and the host and scheme the calls appear to use
    (the MCP request's own for HTTP; for stdio a host the deployment accepts, over a channel that never
    leaves the process and so counts as secure)."""
    presented_key: str
    host: str
    secure: bool
    request_id: str = ""
    # stdio: one process serves every call for as long as the agent runs (memoryhub/mcp/server.py).
    long_lived: bool = False
    # The MCP request's Accept-Language, so messages come in the language REST would answer in.
    accept_language: str = ""
    # HTTP: the key the MCP request itself authenticated, for what that request asks of it (tools/list).
    # stdio: None, and each message authenticates the presented key again (it may be revoked meanwhile).
    api_key: ApiKey | None = field(default=None, compare=False, repr=False)


def stdio_host() -> str:
    """A host name that ALLOWED_HOSTS accepts, for calls that arrive on no socket (stdio)."""
    for pattern in settings.ALLOWED_HOSTS:
        if pattern == "*":
            return "localhost"
        if pattern.startswith("."):
            return "mcp" + pattern
        return pattern
    return "localhost"


def operation_call(*, caller: Caller, method: str, path: str, query: dict[str, str],
                   body: dict | None) -> tuple[int, dict]:
    """Runs `method path` with the caller's key; returns the status and the JSON body."""
    raw = json.dumps(body, ensure_ascii=False).encode() if body is not None else b""
    environ = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        # What a WSGI server puts there: the path with its %-escapes decoded.
        "PATH_INFO": unquote_to_bytes(path).decode("iso-8859-1"),
        "QUERY_STRING": urlencode(query),
        "SERVER_NAME": caller.host.rsplit(":", 1)[0] if not caller.host.startswith("[") else caller.host,
        "SERVER_PORT": "443" if caller.secure else "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": caller.host,
        "HTTP_AUTHORIZATION": f"Bearer {caller.presented_key}",
        "HTTP_ACCEPT": "application/json",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https" if caller.secure else "http",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.errors": io.StringIO(),
        "wsgi.multiprocess": True,
        "wsgi.multithread": True,
        "wsgi.run_once": False,
    }
    if body is not None:
        environ["CONTENT_TYPE"] = "application/json"
        environ["CONTENT_LENGTH"] = str(len(raw))
    if caller.request_id:
        environ["HTTP_X_REQUEST_ID"] = caller.request_id
    if caller.accept_language:
        environ["HTTP_ACCEPT_LANGUAGE"] = caller.accept_language
    response = _django_handler().get_response(WSGIRequest(environ))
    content = response.content if not getattr(response, "streaming", False) else b"".join(response)
    try:
        data = json.loads(content) if content else {}
    except ValueError:
        data = {"error": {"code": "internal_error", "message": "the operation did not answer JSON", "details": {}}}
    return response.status_code, data
