"""The MCP server (the official SDK's low-level `Server`): lists the tools the caller's key may use and
runs a call as its REST operation (memoryhub/mcp/operations.py).

The caller comes from the transport: the stdio command's key, or the Bearer key of the HTTP request
(memoryhub/mcp/apis.py), through `mcp_caller` (named apart from memoryhub.core.request_context's
`current_caller`, the REST caller the database router reads). Tool handlers run the synchronous Django
code with `sync_to_async(thread_sensitive=True)`, so it runs on the thread that owns the caller's
database connection (the request's thread under gunicorn, the main thread for stdio), as REST does.
"""
from __future__ import annotations

import functools
import json
from contextvars import ContextVar
from types import SimpleNamespace
from urllib.parse import quote

import mcp_types as types
from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.urls import resolve
from django.utils.translation import gettext as _
from mcp.server.lowlevel import Server
from rest_framework import serializers

from memoryhub.api.errors import error_body
from memoryhub.mcp.operations import Caller, operation_call
from memoryhub.mcp.schemas import tool_input
from memoryhub.mcp.tools import TOOLS, TOOLS_BY_NAME, ToolSpec
from memoryhub.tenancy.auth import HasTenantKey
from memoryhub.tenancy.services import api_key_authenticate

SERVER_NAME = "memoryhub"
INSTRUCTIONS = (
    "memoryhub keeps an agent's memory of its end users: sessions and their turns (short-term), task state "
    "(transient), long-term memories with search, and permanent rules changed only by human approval. "
    "Open a session, append the turns, ask get_context before each model call, remember what matters and "
    "recall it later. Errors carry the REST API's codes in structuredContent.error.code."
)

mcp_caller: ContextVar[Caller] = ContextVar("mcp_caller")


@functools.cache
def _view_class(spec: ToolSpec):
    sample = spec.path
    for name in tool_input(spec).path_params:
        sample = sample.replace("{%s}" % name, "1")
    return resolve(sample).func.cls


def tool_permitted(spec: ToolSpec, api_key) -> bool:
    """The REST permission check itself (memoryhub/tenancy/auth.py) on the tool's view and method."""
    request = SimpleNamespace(auth=api_key, method=spec.method)
    return HasTenantKey().has_permission(request, _view_class(spec)())


@functools.cache
def tool_definition(spec: ToolSpec) -> types.Tool:
    """The tool as tools/list describes it, built once per process: it follows from the code and the
    OpenAPI schema alone, never from the caller (who only decides which tools are listed)."""
    described = tool_input(spec)
    description = spec.description
    details = " ".join(part for part in (described.summary, described.description) if part)
    if details:
        description = f"{description}\n\nREST: {spec.method} {spec.path}. {details}"
    return types.Tool(
        name=spec.name, description=description, input_schema=described.schema,
        output_schema=described.output_schema,
        annotations=types.ToolAnnotations(read_only_hint=spec.read_only, destructive_hint=spec.destructive,
                                          idempotent_hint=spec.idempotent, open_world_hint=False))


def tools_for(caller: Caller) -> list[types.Tool]:
    """The tools the caller's key may use. The key is asked once per call: the HTTP request's own
    authentication (memoryhub/mcp/apis.py), or, for stdio, the presented key authenticated again."""
    api_key = caller.api_key or api_key_authenticate(presented=caller.presented_key)
    if api_key is None:
        return []
    return [tool_definition(spec) for spec in TOOLS if tool_permitted(spec, api_key)]


def _query_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_query_value(item) for item in value)
    return str(value)


def _result(status: int, body: dict) -> types.CallToolResult:
    failed = status >= 400
    if failed:
        error = body.get("error", {}) if isinstance(body, dict) else {}
        text = f"{error.get('code', 'error')}: {error.get('message', '')}"
    else:
        text = json.dumps(body, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=body,
                                is_error=failed)


def _invalid(fields: dict) -> types.CallToolResult:
    # The message and shape of a serializer's refusal (memoryhub/api/errors.py).
    return _result(400, error_body("invalid", "The request did not validate; see details.", {"fields": fields}))


def tool_call(caller: Caller, name: str, arguments: dict | None) -> types.CallToolResult:
    """Runs one tool as its REST operation; every failure is a tool error in the REST error format."""
    if caller.long_lived:
        # What Django does at the start of every request (an HTTP call's own request did it already): a
        # connection past DB_CONN_MAX_AGE or broken (a PostgreSQL restart) is dropped and reopened, so a
        # stdio server that lives for days keeps working.
        close_old_connections()
    spec = TOOLS_BY_NAME.get(name)
    if spec is None:
        return _result(404, error_body("unknown_tool", _("No tool named %(name)s.") % {"name": name},
                                       {"tools": [tool.name for tool in TOOLS]}))
    arguments = arguments or {}
    if not isinstance(arguments, dict):
        return _invalid({"non_field_errors": [_("The arguments must be an object.")]})
    described = tool_input(spec)
    known = {*described.path_params, *described.query_params, *described.body_params}
    if not described.has_body:
        unknown = sorted(set(arguments) - known)
        if unknown:
            # The body serializers refuse unknown fields (memoryhub/api/serializers.py); a tool without a
            # body refuses them alike instead of dropping them.
            return _invalid({name: [_("unknown field")] for name in unknown})
    path = spec.path
    missing = {}
    for param in described.path_params:
        value = arguments.get(param)
        if value is None or value == "":
            missing[param] = [str(serializers.Field.default_error_messages["required"])]
            continue
        path = path.replace("{%s}" % param, quote(_query_value(value), safe=""))
    if missing:
        return _invalid(missing)
    query = {param: _query_value(arguments[param]) for param in described.query_params
             if arguments.get(param) is not None}
    body = None
    if described.has_body:
        body = {key: value for key, value in arguments.items()
                if key not in described.path_params and key not in described.query_params}
    status, data = operation_call(caller=caller, method=spec.method, path=path, query=query, body=body)
    return _result(status, data)


async def _list_tools(ctx, params) -> types.ListToolsResult:
    caller = mcp_caller.get()
    return types.ListToolsResult(tools=await sync_to_async(tools_for, thread_sensitive=True)(caller))


async def _call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    caller = mcp_caller.get()
    return await sync_to_async(tool_call, thread_sensitive=True)(caller, params.name, params.arguments)


def build_server() -> Server:
    from django.conf import settings

    return Server(SERVER_NAME, version=settings.SPECTACULAR_SETTINGS.get("VERSION", ""),
                  instructions=INSTRUCTIONS, on_list_tools=_list_tools, on_call_tool=_call_tool)
