"""A tool call is its REST operation: the key's rate limit counts both, and the stdio command refuses a
key REST would refuse (memoryhub/mcp/server.py, memoryhub/mcp/management/commands/mcp.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from layers.short_term.models import Turn
from memoryhub.core.actors import Actor
from memoryhub.mcp.operations import Caller
from memoryhub.mcp.server import tool_call, tools_for
from memoryhub.tenancy.services import api_key_revoke
from tests.support.processes import BASE_DIR, private_env

pytestmark = pytest.mark.django_db


def test_tool_calls_and_rest_requests_share_the_keys_rate_limit(make_client, tenant, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                                          "api_key": "3/day"}}
    client = make_client(tenant, scopes=["read"])
    caller = Caller(presented_key=client.plaintext, host="testserver", secure=False)
    first = tool_call(caller, "get_permanent", {"key": "rules.tone"})
    assert first.structured_content["error"]["code"] == "entry_not_found"
    assert client.get("/api/v1/permanent/rules.tone").status_code == 404
    assert tool_call(caller, "list_reminders", {}).is_error is False
    limited = tool_call(caller, "get_permanent", {"key": "rules.tone"})
    assert limited.is_error
    assert limited.structured_content["error"]["code"] == "rate_limited"
    assert limited.structured_content["error"]["details"]["retry_after_seconds"] > 0
    assert client.get("/api/v1/permanent/rules.tone").status_code == 429


def test_a_revoked_key_lists_nothing_and_every_call_is_unauthenticated(make_client, tenant):
    client = make_client(tenant, scopes=["read"])
    caller = Caller(presented_key=client.plaintext, host="testserver", secure=False)
    assert len(tools_for(caller)) == 5
    api_key_revoke(api_key=client.api_key, actor=Actor.system("tests"))
    assert tools_for(caller) == []
    refused = tool_call(caller, "recall", {"user_id": "alice", "query": "tea"})
    assert refused.is_error and refused.structured_content["error"]["code"] == "unauthenticated"


@pytest.mark.parametrize("arguments, message", [
    (["--api-key", "mh_nope_nope"], "Invalid or revoked API key."),
    ([], "Give --api-key or set MEMORYHUB_API_KEY."),
])
def test_the_stdio_command_refuses_to_start_without_a_valid_key(arguments, message):
    env = {key: value for key, value in private_env(os.environ.get("REDIS_URL", ""), "unused").items()
           if key != "MEMORYHUB_API_KEY"}
    finished = subprocess.run([sys.executable, "manage.py", "mcp", *arguments], cwd=BASE_DIR, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 1
    assert message in finished.stderr
    assert finished.stdout == ""


def test_one_end_users_memories_never_answer_for_another(make_client, tenant):
    client = make_client(tenant, scopes=["read", "write"])
    caller = Caller(presented_key=client.plaintext, host="testserver", secure=False)
    written = tool_call(caller, "remember", {"memories": [
        {"user_id": "alice", "kind": "preference", "content": "Alice is vegetarian", "memory_key": "diet"}]})
    alice_id = written.structured_content["results"][0]["id"]
    for_alice = tool_call(caller, "recall", {"user_id": "alice", "query": "what does she eat?"})
    assert [hit["id"] for hit in for_alice.structured_content["results"]] == [alice_id]
    for_bob = tool_call(caller, "recall", {"user_id": "bob", "query": "what does she eat?"})
    assert for_bob.structured_content["results"] == []
    context = tool_call(caller, "get_context", {"user_id": "bob", "query": "dinner ideas", "token_budget": 800})
    assert "vegetarian" not in json.dumps(context.structured_content)


def test_a_secret_said_in_a_turn_is_redacted_before_storage_as_over_rest(make_client, tenant):
    client = make_client(tenant, scopes=["read", "write"])
    caller = Caller(presented_key=client.plaintext, host="testserver", secure=False)
    assert not tool_call(caller, "open_session", {"session_id": "s-1", "user_id": "alice"}).is_error
    appended = tool_call(caller, "append_turns", {"session_id": "s-1", "turns": [
        {"role": "user", "content": "my password is hunter2-Secret-99, keep it safe", "client_id": "t1"}]})
    assert [item["index"] for item in appended.structured_content["redactions"]] == [0]
    window = tool_call(caller, "get_window", {"session_id": "s-1"}).structured_content
    assert "hunter2" not in window["turns"][0]["content"]
    assert not Turn.objects.filter(content__contains="hunter2").exists()


def test_tool_definitions_are_built_once_and_the_key_is_asked_at_every_listing(make_client, tenant):
    """stdio: the same definitions each time (built once per process); the presented key is authenticated
    again at each listing, so a key revoked while the process lives lists nothing."""
    client = make_client(tenant, scopes=["read", "write"])
    caller = Caller(presented_key=client.plaintext, host="testserver", secure=False, long_lived=True)
    first, second = tools_for(caller), tools_for(caller)
    assert [tool.name for tool in first] == [tool.name for tool in second]
    assert all(a is b for a, b in zip(first, second))
    api_key_revoke(api_key=client.api_key, actor=Actor.system("tests"))
    assert tools_for(caller) == []
