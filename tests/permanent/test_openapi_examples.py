"""Every operation that takes a JSON body shows a request example in the OpenAPI schema, and every
example is one the API accepts: they are sent, in order, as one newcomer's walk through the layers."""
from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from memoryhub.api.examples import REQUEST_EXAMPLES

pytestmark = pytest.mark.django_db


def test_every_request_body_has_an_example():
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    missing = []
    for path, operations in paths.items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if content is not None and not content.get("examples"):
                missing.append((method, path))
    assert missing == []
    assert all(path in paths and method in paths[path] for method, path in REQUEST_EXAMPLES), \
        "an example names an operation the API no longer has"


def test_the_examples_are_accepted_in_order(api):
    ids = {"session_id": "chat-001", "name": "book_restaurant"}
    for (method, path), (name, body) in REQUEST_EXAMPLES.items():
        if "{history_id}" in path or path.endswith("/revert"):
            history = api.get(f"/api/v1/memories/{ids['memory_id']}/history").json()
            body = {"history_id": history["results"][-1]["history_id"]}
        url = path.format(**ids)
        response = getattr(api, f"{method}_json" if method != "get" else "get")(url, body)
        assert response.status_code < 300, (name, response.status_code, response.content[:400])
        data = response.json()
        if path == "/api/v1/memories":
            ids["memory_id"] = data["results"][0]["id"]
        if path.endswith("/tasks") and method == "post":
            ids["task_id"] = data["id"]
