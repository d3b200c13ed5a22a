"""Typed attributes: the JSON Schema of a memory's key family (policy.graph.attribute_schemas), checked
on every write beside the other field checks (layers/long_term/services/validation.py)."""
from __future__ import annotations

import json
import logging
from functools import lru_cache

from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from layers.long_term.graph.policy import family_of, graph_policy

logger = logging.getLogger(__name__)


@lru_cache(maxsize=256)
def _validator(schema_json: str) -> Draft202012Validator | None:
    schema = json.loads(schema_json)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        # A governed schema that is not one is ignored (like any policy value that does not fit), never
        # a reason to refuse every write of the family.
        logger.warning("ignoring attribute schema that is not a JSON Schema: %s", exc.message)
        return None
    return Draft202012Validator(schema)


def _path(error) -> str:
    return ".".join(["attributes", *(str(part) for part in error.absolute_path)])


def attribute_schema_errors(*, tenant_id: int, memory_key: str | None, attributes) -> list[dict]:
    """Problems of `attributes` against the schemas for every memory (`*`) and for its key family, as
    [{field, code, message}] with field the attribute's path (`attributes.age`); empty when they fit."""
    if not isinstance(attributes, dict) or not attributes:
        return []
    schemas = graph_policy(tenant_id).attribute_schemas
    families = ["*"] if "*" in schemas else []
    family = family_of(schemas, memory_key) if memory_key else None
    if family and family != "*":
        families.append(family)
    errors = []
    for name in families:
        validator = _validator(json.dumps(schemas[name], sort_keys=True))
        if validator is None:
            continue
        for error in sorted(validator.iter_errors(attributes), key=lambda e: list(e.absolute_path)):
            errors.append({"field": _path(error), "code": "schema_mismatch",
                           "message": _("%(field)s does not fit the schema of %(family)s: %(reason)s")
                           % {"field": _path(error), "family": name if name != "*" else _("every memory"),
                              "reason": error.message}})
    return errors
