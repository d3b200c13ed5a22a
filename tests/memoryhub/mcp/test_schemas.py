"""Tool input schemas come from the REST operations' serializers (memoryhub/mcp/schemas.py)."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from layers.short_term.models import TurnRole
from memoryhub.mcp.schemas import openapi_schema, tool_input
from memoryhub.mcp.server import tool_definition, tool_permitted
from memoryhub.mcp.tools import TOOLS, TOOLS_BY_NAME

READ_TOOLS = {"recall", "get_context", "get_window", "get_permanent", "list_reminders"}


def test_every_tool_names_a_documented_operation_and_has_a_valid_object_schema():
    paths = openapi_schema()["paths"]
    assert [spec.name for spec in TOOLS] == [
        "remember", "recall", "get_context", "open_session", "append_turns", "get_window", "start_task",
        "update_task", "get_permanent", "propose_permanent_change", "forget", "list_reminders"]
    for spec in TOOLS:
        assert spec.method.lower() in paths[spec.path], spec.name
        schema = tool_definition(spec).input_schema
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert "$ref" not in repr(schema), spec.name


def test_schemas_carry_the_serializers_fields_limits_and_enums():
    recall = tool_input(TOOLS_BY_NAME["recall"]).schema
    assert set(recall["required"]) == {"user_id", "query"}
    assert recall["properties"]["top_k"] == {"type": "integer", "maximum": 100, "minimum": 1, "default": 10}
    assert recall["properties"]["mode"]["enum"] == ["hybrid", "vector", "keyword"]
    assert recall["properties"]["explain"]["default"] is False

    remember = tool_input(TOOLS_BY_NAME["remember"]).schema
    assert remember["required"] == ["memories"]
    item = remember["properties"]["memories"]["items"]
    assert set(item["required"]) == {"user_id", "content"}
    assert item["properties"]["confidence"]["maximum"] == 1
    assert remember["examples"][0]["memories"][0]["content"] == "Alice is vegetarian"

    window = tool_input(TOOLS_BY_NAME["get_window"])
    assert window.path_params == ("session_id",) and set(window.query_params) == {"max_turns", "max_tokens"}
    assert not window.has_body and window.schema["required"] == ["session_id"]

    append = tool_input(TOOLS_BY_NAME["append_turns"])
    assert append.path_params == ("session_id",) and append.body_params == ("turns",)
    turn = append.schema["properties"]["turns"]["items"]
    assert turn["properties"]["role"]["enum"] == TurnRole.values
    # nullable fields become a null alternative in plain JSON Schema
    assert turn["properties"]["client_id"]["type"] == ["string", "null"]


@pytest.mark.django_db
def test_a_read_key_is_permitted_the_read_tools_only(make_client, tenant):
    read = make_client(tenant, scopes=["read"]).api_key
    write = make_client(tenant, scopes=["read", "write"]).api_key
    propose = make_client(tenant, scopes=["read", "propose"]).api_key
    assert {spec.name for spec in TOOLS if tool_permitted(spec, read)} == READ_TOOLS
    assert {spec.name for spec in TOOLS if tool_permitted(spec, write)} == {
        spec.name for spec in TOOLS} - {"propose_permanent_change"}
    assert {spec.name for spec in TOOLS if tool_permitted(spec, propose)} == READ_TOOLS | {"propose_permanent_change"}


def test_annotations_say_which_tools_change_nothing_and_which_destroy():
    hints = {spec.name: tool_definition(spec).annotations for spec in TOOLS}
    # get_context counts preference conflicts for a write key (memoryhub/mcp/tools.py), so it is not read-only.
    assert {name for name, hint in hints.items() if hint.read_only_hint} == READ_TOOLS - {"get_context"}
    assert {name for name, hint in hints.items() if hint.destructive_hint} == {"forget", "update_task"}


def test_output_schemas_are_the_operations_success_bodies():
    outputs = {spec.name: tool_input(spec).output_schema for spec in TOOLS}
    # every tool answers a body, forget included (DELETE /api/v1/memories/{id} is 200 with the memory)
    assert {name for name, schema in outputs.items() if schema is None} == set()
    for name, schema in outputs.items():
        if schema is not None:
            Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object", name
    assert outputs["remember"]["required"] == ["results"]
    assert "status" in outputs["forget"]["properties"]
    assert "explain" in outputs["recall"]["properties"]["results"]["items"]["properties"]
