"""Tool input schemas, made from the REST API's own OpenAPI schema (drf-spectacular over the views'
serializers), so a tool takes exactly what its operation takes.

A tool's arguments are one flat object: the operation's path parameters, its query parameters and the
properties of its JSON body. OpenAPI 3.0 is turned into plain JSON Schema on the way: references are
inlined (a tool schema must stand alone) and `nullable` becomes a `null` alternative.
"""
from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field

from memoryhub.mcp.tools import ToolSpec


@dataclass(frozen=True)
class ToolInput:
    schema: dict
    path_params: tuple[str, ...]
    query_params: tuple[str, ...]
    body_params: tuple[str, ...]
    has_body: bool
    summary: str = ""
    description: str = ""
    examples: list = field(default_factory=list)
    output_schema: dict | None = None


@functools.cache
def openapi_schema() -> dict:
    """The public OpenAPI document as /api/schema/ serves it (built once per process, with the same
    generator: memoryhub/api/schema.SerialSchemaGenerator, which also keeps concurrent first builds
    from racing; functools.cache alone lets two threads build at once)."""
    from drf_spectacular.settings import spectacular_settings

    return spectacular_settings.DEFAULT_GENERATOR_CLASS().get_schema(request=None, public=True)


def _json_schema(node, components: dict, seen: tuple = ()):
    if isinstance(node, list):
        return [_json_schema(item, components, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        if name in seen:
            raise ValueError(f"recursive schema {name} cannot be inlined")
        resolved = _json_schema(components[name], components, (*seen, name))
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        return {**resolved, **_json_schema(siblings, components, seen)}
    out = {key: _json_schema(value, components, seen) for key, value in node.items()}
    # drf-spectacular wraps a referenced enum with a default in a one-item allOf; flatten it.
    if list(out.get("allOf", ())) and len(out["allOf"]) == 1:
        out = {**out.pop("allOf")[0], **out}
    if out.pop("nullable", False):
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    out.pop("readOnly", None)
    out.pop("writeOnly", None)
    return out


@functools.cache
def tool_input(spec: ToolSpec) -> ToolInput:
    document = openapi_schema()
    components = document["components"]["schemas"]
    operation = document["paths"][spec.path][spec.method.lower()]
    properties: dict = {}
    required: list[str] = []
    path_params, query_params = [], []
    for parameter in operation.get("parameters", []):
        if parameter["in"] not in ("path", "query"):
            continue
        name = parameter["name"]
        schema = _json_schema(parameter.get("schema", {}), components)
        if parameter.get("description"):
            schema["description"] = parameter["description"]
        properties[name] = schema
        if parameter["in"] == "path":
            path_params.append(name)
            required.append(name)
        else:
            query_params.append(name)
            if parameter.get("required"):
                required.append(name)
    body_params: list[str] = []
    examples: list = []
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None:
        schema = _json_schema(body["schema"], components)
        if "oneOf" in schema:
            schema = next(variant for variant in schema["oneOf"]
                          if spec.body_variant in variant.get("properties", {}))
        for name, prop in schema.get("properties", {}).items():
            if name in properties:
                raise ValueError(f"{spec.name}: body field {name!r} collides with a parameter")
            properties[name] = prop
            body_params.append(name)
        required.extend(schema.get("required", []))
        for example in body.get("examples", {}).values():
            value = example.get("value")
            if isinstance(value, dict) and set(value) <= set(body_params):
                examples.append(value)
    input_schema = {"type": "object", "properties": properties, "additionalProperties": False}
    output_schema = _output_schema(spec, operation, components)
    if required:
        input_schema["required"] = required
    if examples:
        input_schema["examples"] = examples
    return ToolInput(schema=copy.deepcopy(input_schema), path_params=tuple(path_params),
                     query_params=tuple(query_params), body_params=tuple(body_params), has_body=body is not None,
                     summary=operation.get("summary", ""), description=operation.get("description", ""),
                     examples=examples, output_schema=output_schema)


def _output_schema(spec: ToolSpec, operation: dict, components: dict) -> dict | None:
    """The operation's success body (its first 2xx response), which is the tool's structuredContent.
    The SDK's client checks every successful result against it, so a drift shows at the first call."""
    for status in sorted(operation.get("responses", {})):
        if not status.startswith("2"):
            continue
        content = operation["responses"][status].get("content", {}).get("application/json")
        if content is None:
            return None
        schema = _json_schema(content["schema"], components)
        if "oneOf" in schema:
            schema = next(variant for variant in schema["oneOf"]
                          if spec.output_variant in variant.get("properties", {}))
        return schema if schema.get("type") == "object" else None
    return None
