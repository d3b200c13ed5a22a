"""/mcp/ as an HTTP endpoint of the deployment: Bearer key, the error format, CSRF exemption, the
security headers and body limit of /api/, JSON-RPC answered as JSON (memoryhub/mcp/apis.py)."""
from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}
HEADERS = {"HTTP_ACCEPT": "application/json, text/event-stream"}


def _post(client, body, key=None, **extra):
    if key:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    return client.post("/mcp/", data=json.dumps(body), content_type="application/json", **HEADERS, **extra)


def test_without_a_key_or_with_a_bad_one_it_is_401_in_the_error_format():
    client = Client(enforce_csrf_checks=True)
    missing = _post(client, INITIALIZE)
    assert missing.status_code == 401
    assert missing.json()["error"]["code"] == "unauthenticated"
    assert missing["WWW-Authenticate"] == "Bearer"
    bad = _post(client, INITIALIZE, key="mh_nope_nope")
    assert bad.status_code == 401 and bad.json()["error"]["message"] == "Invalid or revoked API key."
    wrong_scheme = _post(client, INITIALIZE, HTTP_AUTHORIZATION="Basic abc")
    assert wrong_scheme.status_code == 401


def test_a_key_gets_json_rpc_answers_as_json_without_a_csrf_token(make_client, tenant):
    key = make_client(tenant, scopes=["read"]).plaintext
    client = Client(enforce_csrf_checks=True)
    response = _post(client, INITIALIZE, key=key, HTTP_X_REQUEST_ID="mcp-req-1")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response["X-Request-ID"] == "mcp-req-1"
    assert response["X-Content-Type-Options"] == "nosniff"
    result = response.json()["result"]
    assert result["serverInfo"]["name"] == "memoryhub" and "tools" in result["capabilities"]
    listed = _post(client, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, key=key,
                   HTTP_MCP_PROTOCOL_VERSION="2025-11-25")
    assert listed.status_code == 200, listed.content
    assert {tool["name"] for tool in listed.json()["result"]["tools"]} == {
        "recall", "get_context", "get_window", "get_permanent", "list_reminders"}


def test_a_call_runs_under_the_request_id_of_the_mcp_request(make_client, tenant):
    key = make_client(tenant, scopes=["read", "write"]).plaintext
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "remember", "arguments": {
        "memories": [{"user_id": "alice", "content": "Alice likes tea", "client_id": "c1"}]}}}
    response = _post(Client(), call, key=key, HTTP_X_REQUEST_ID="mcp-req-2", HTTP_MCP_PROTOCOL_VERSION="2025-11-25")
    result = response.json()["result"]
    assert result["isError"] is False
    assert result["structuredContent"]["results"][0]["trace_id"] == "mcp-req-2"


def test_a_body_over_the_limit_is_413_before_it_is_read(make_client, tenant, settings):
    key = make_client(tenant, scopes=["read"]).plaintext
    settings.MAX_REQUEST_BODY_BYTES = 100
    response = _post(Client(), {**INITIALIZE, "padding": "x" * 200}, key=key)
    assert response.status_code == 413 and response.json()["error"]["code"] == "body_too_large"


@pytest.mark.parametrize("method", ["get", "delete", "put"])
def test_only_post_is_served_so_no_stream_holds_a_worker_thread(method, make_client, tenant):
    key = make_client(tenant, scopes=["read"]).plaintext
    response = getattr(Client(), method)("/mcp/", HTTP_AUTHORIZATION=f"Bearer {key}", **HEADERS)
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_malformed_json_rpc_gets_the_sdks_json_rpc_errors(make_client, tenant):
    key = make_client(tenant, scopes=["read"]).plaintext
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    unparsable = Client().post("/mcp/", data="not json", content_type="application/json", **HEADERS, **auth)
    assert unparsable.status_code == 400 and unparsable.json()["error"]["code"] == -32700
    html_only = Client().post("/mcp/", data=json.dumps(INITIALIZE), content_type="application/json",
                              HTTP_ACCEPT="text/html", **auth)
    assert html_only.status_code == 406


def test_messages_other_than_tool_calls_count_against_the_keys_rate_limit(make_client, tenant, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                                          "api_key": "3/day"}}
    key = make_client(tenant, scopes=["read"]).plaintext
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "get_permanent", "arguments": {"key": "rules.tone"}}}
    version = {"HTTP_MCP_PROTOCOL_VERSION": "2025-11-25"}
    assert _post(Client(), INITIALIZE, key=key).status_code == 200
    called = _post(Client(), call, key=key, **version).json()["result"]  # counted once, by its operation
    assert called["structuredContent"]["error"]["code"] == "entry_not_found"
    assert _post(Client(), listing, key=key, **version).status_code == 200
    limited = _post(Client(), listing, key=key, **version)
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert int(limited["Retry-After"]) > 0
    refused_call = _post(Client(), call, key=key, **version).json()["result"]
    assert refused_call["isError"] and refused_call["structuredContent"]["error"]["code"] == "rate_limited"


def test_a_tool_error_speaks_the_language_the_mcp_request_asked_for(make_client, tenant):
    key = make_client(tenant, scopes=["read", "write"]).plaintext
    call = {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "forget", "arguments": {"memory_id": 999999999}}}
    version = {"HTTP_MCP_PROTOCOL_VERSION": "2025-11-25"}
    english = _post(Client(), call, key=key, **version).json()["result"]["structuredContent"]["error"]
    chinese = _post(Client(), call, key=key, HTTP_ACCEPT_LANGUAGE="zh-hans", **version).json()["result"]
    assert english == {"code": "not_found", "message": "memory not found", "details": {}}
    assert chinese["structuredContent"]["error"] == {"code": "not_found", "message": "未找到记忆", "details": {}}


def test_tools_list_authenticates_once_and_builds_no_definition(make_client, tenant, monkeypatch):
    """The request's own authentication is the only key lookup of a tools/list over HTTP (the Bearer
    header read once), and the tool definitions are built once per process, never per call."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from memoryhub.mcp import server
    from memoryhub.tenancy.models import ApiKey

    key = make_client(tenant, scopes=["read"]).plaintext
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    first = _post(Client(), listing, key=key, HTTP_MCP_PROTOCOL_VERSION="2025-11-25")
    assert first.status_code == 200, first.content
    built = []
    monkeypatch.setattr(server, "tool_input", lambda spec: built.append(spec) or pytest.fail("rebuilt"))
    with CaptureQueriesContext(connection) as queries:
        second = _post(Client(), listing, key=key, HTTP_MCP_PROTOCOL_VERSION="2025-11-25")
    assert second.status_code == 200, second.content
    assert second.json()["result"]["tools"] == first.json()["result"]["tools"] and built == []
    key_lookups = [q["sql"] for q in queries.captured_queries if ApiKey._meta.db_table in q["sql"]]
    assert len(key_lookups) == 1, key_lookups
