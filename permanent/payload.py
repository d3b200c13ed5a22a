"""Validation and hashing of what a change request would apply.

The payload hash covers every field that decides the applied result, so an approval given for one
payload can never apply another.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import jsonschema
from django.utils.translation import gettext as _

from memoryhub.core.errors import InvalidInput, TooLarge
from permanent.models import KEY_MAX_LENGTH, KEY_PATTERN, USER_ID_MAX_LENGTH

VALUE_MAX_BYTES = 64 * 1024
_KEY_RE = re.compile(KEY_PATTERN)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def value_hash(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def payload_hash(*, tenant_id: int, key: str, user_id: str, action: str, value: Any, target_version: int | None,
                 base_version: int, schema: Any, required_approvals: int | None) -> str:
    body = {
        "tenant_id": tenant_id, "key": key, "user_id": user_id, "action": action, "value": value,
        "target_version": target_version, "base_version": base_version, "schema": schema,
        "required_approvals": required_approvals,
    }
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def change_request_payload_hash(change_request) -> str:
    return payload_hash(
        tenant_id=change_request.tenant_id, key=change_request.key, user_id=change_request.user_id,
        action=change_request.action, value=change_request.proposed_value,
        target_version=change_request.target_version, base_version=change_request.base_version,
        schema=change_request.proposed_schema, required_approvals=change_request.proposed_required_approvals,
    )


def validate_key(key: str) -> str:
    if not isinstance(key, str) or not key or len(key) > KEY_MAX_LENGTH or not _KEY_RE.match(key):
        raise InvalidInput(
            _("A key is 1-%(max)d letters, digits or '._:-', starting with a letter or digit.") % {"max": KEY_MAX_LENGTH},
            code="invalid_key", details={"key": str(key)[:KEY_MAX_LENGTH]},
        )
    return key


def validate_user_id(user_id: str) -> str:
    if not isinstance(user_id, str) or len(user_id) > USER_ID_MAX_LENGTH or any(ord(c) < 32 for c in user_id):
        raise InvalidInput(_("user_id must be at most %(max)d printable characters.") % {"max": USER_ID_MAX_LENGTH},
                           code="invalid_user_id")
    return user_id


def validate_value_size(value: Any) -> None:
    if len(canonical_json(value).encode("utf-8")) > VALUE_MAX_BYTES:
        raise TooLarge(_("A permanent value may be at most %(max)d bytes of JSON.") % {"max": VALUE_MAX_BYTES},
                       code="value_too_large")


def validate_schema(schema: Any) -> None:
    if schema is None:
        return
    if not isinstance(schema, dict):
        raise InvalidInput(_("The JSON Schema must be an object."), code="invalid_schema")
    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise InvalidInput(_("The JSON Schema is not valid: %(error)s") % {"error": exc.message},
                           code="invalid_schema")


def validate_against_schema(value: Any, schema: Any) -> None:
    """Refuse a value its entry's JSON Schema does not accept, naming where it fails."""
    if schema is None:
        return
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(value), key=lambda error: list(error.absolute_path))
    if errors:
        first = errors[0]
        raise InvalidInput(
            _("The value does not match the entry's JSON Schema: %(error)s") % {"error": first.message},
            code="schema_violation",
            details={"path": "/".join(str(part) for part in first.absolute_path), "errors": len(errors)},
        )
