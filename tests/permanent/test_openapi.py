"""The published OpenAPI: no maintainers' docstring leaks into a description, every operation has a
summary and carries its layer's tag, and the permanent operations show examples."""
from __future__ import annotations

import inspect

from django.urls import get_resolver
from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator
from drf_spectacular.plumbing import get_doc

LAYER_TAGS = {"service", "short-term", "long-term", "context", "transient", "permanent", "erasure", "reminders"}


def _schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _descriptions(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from _descriptions(value)
    elif isinstance(node, list):
        for item in node:
            yield from _descriptions(item)


def _api_view_docstrings() -> set[str]:
    docs = set()
    for _path, _regex, _method, callback in EndpointEnumerator().get_api_endpoints():
        cls = getattr(callback, "cls", None)
        if cls is None:
            continue
        docs.add(get_doc(cls))
        for name in ("get", "post", "put", "patch", "delete"):
            method = getattr(cls, name, None)
            if method is not None:
                docs.add(get_doc(method))
        for _name, member in inspect.getmembers(cls, inspect.isclass):
            docs.add(get_doc(member))  # nested input serializers
    return {doc for doc in docs if doc}


def test_no_docstring_becomes_a_description():
    get_resolver()  # import every urls module
    docstrings = _api_view_docstrings()
    assert docstrings, "the test must see the views' docstrings to prove anything"
    leaked = [d for d in _descriptions(_schema()) if d in docstrings]
    assert leaked == []


def test_every_operation_has_a_summary_and_one_layer_tag():
    schema = _schema()
    tags_used = set()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert operation.get("summary"), (method, path)
            assert len(operation["tags"]) == 1 and operation["tags"][0] in LAYER_TAGS, (method, path, operation["tags"])
            tags_used.add(operation["tags"][0])
    assert {tag["name"] for tag in schema["tags"]} == LAYER_TAGS
    assert tags_used == LAYER_TAGS
    assert schema["paths"]["/api/v1/permanent/change-requests"]["get"]["tags"] == ["permanent"]
    assert schema["paths"]["/api/v1/memories/search"]["post"]["tags"] == ["long-term"]


def test_the_permanent_operations_show_examples():
    paths = _schema()["paths"]
    create = paths["/api/v1/permanent/change-requests"]["post"]
    request_examples = create["requestBody"]["content"]["application/json"]["examples"]
    assert any(example["value"].get("action") == "create" for example in request_examples.values())
    for path, method, status in (("/api/v1/permanent/change-requests", "get", "200"),
                                 ("/api/v1/permanent/change-requests", "post", "201"),
                                 ("/api/v1/permanent/{key}", "get", "200"),
                                 ("/api/v1/permanent", "get", "200")):
        content = paths[path][method]["responses"][status]["content"]["application/json"]
        assert content.get("examples"), (method, path)
    assert "400" in paths["/api/v1/permanent/change-requests"]["get"]["responses"]


def test_every_operation_documents_the_503_a_contended_request_gets():
    # Handlers run under deadlock_retry; one that loses every attempt answers 503 in the error format.
    for path, operations in _schema()["paths"].items():
        for method, operation in operations.items():
            response = operation["responses"].get("503")
            assert response, (method, path)
            if path == "/api/v1/health":
                continue  # its own 503 is the degraded health report
            assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}, (
                method, path)
