"""The client's models are the server's OpenAPI schema rendered by memoryhub_client._codegen: the
committed file must be exactly what the live schema renders to, and every operation has a method."""
from __future__ import annotations

import inspect
import json
from pathlib import Path

import memoryhub_client
import pydantic
import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from memoryhub_client import _stubgen, models
from memoryhub_client._codegen import render
from memoryhub_client.client import _Operations


def _schema() -> dict:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(schema))


def test_committed_models_are_the_rendered_schema():
    committed = Path(memoryhub_client.__file__).with_name("models.py").read_text(encoding="utf-8")
    assert render(_schema()) == committed, (
        "clients/python/memoryhub_client/models.py is stale: run `make client-models` (that is "
        "`manage.py spectacular --format openapi-json --file s.json && "
        "python -m memoryhub_client._codegen s.json > clients/python/memoryhub_client/models.py`)")


def test_every_operation_of_the_schema_has_a_client_method():
    source = inspect.getsource(_Operations)
    operation_ids = {operation["operationId"] for methods in _schema()["paths"].values()
                     for name, operation in methods.items() if name in {"get", "post", "put", "patch", "delete"}}
    assert operation_ids == set(models.OPERATIONS)
    missing = sorted(op for op in operation_ids if f'"{op}"' not in source)
    assert missing == []


def test_a_model_refuses_a_field_the_schema_does_not_have():
    with pytest.raises(pydantic.ValidationError):
        models.MemorySearchInputRequest(user_id="alice", query="diet", top_n=3)


def test_committed_client_stub_is_the_rendered_one():
    """client.pyi types the async client's operations as coroutines; it must follow client.py."""
    committed = Path(memoryhub_client.__file__).with_name("client.pyi").read_text(encoding="utf-8")
    assert _stubgen.render() == committed, (
        "clients/python/memoryhub_client/client.pyi is stale: run `make client-models` (that is "
        "`python -m memoryhub_client._stubgen > clients/python/memoryhub_client/client.pyi`)")
