"""Checking memory fields before anything is written (shared by create, batch create and correct)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from layers.long_term.conditions.condition import condition_errors
from layers.long_term.graph.schemas import attribute_schema_errors
from layers.long_term.models import Memory, MemoryKind, MemorySource
from memoryhub.api.identifiers import user_id_error
from memoryhub.api.strings import find_bad_string
from memoryhub.core.errors import InvalidInput
from memoryhub.safety.secrets import find_secrets, secret_message, secrets_in_json

# Turn numbers are stored in PostgreSQL integer columns; a larger one would overflow there (500).
TURN_NUMBER_MAX = 2 ** 31 - 1
# The fields a client may give a new memory (the API's body, one line of an import).
CREATE_FIELDS = ("user_id", "content", "kind", "memory_key", "entities", "attributes", "confidence", "importance",
                 "source", "client_id", "agent_id", "source_session_id", "source_turn_from", "source_turn_to")


def memory_item_shape_error(raw: Any, *, check_strings: bool = False) -> tuple[str, list[dict]] | None:
    """What is wrong with the shape of one memory to create, before its fields are checked: (message,
    [{field, code, message}]), or None. The API's parser already refuses NUL bytes and lone surrogates in a
    body; a line of an import file asks for the same check with `check_strings`."""
    if not isinstance(raw, dict):
        return _("each memory must be a JSON object"), [{"field": "", "code": "invalid",
                                                         "message": str(_("not a JSON object"))}]
    unknown = sorted(set(raw) - set(CREATE_FIELDS))
    if unknown:
        return (_("unknown fields: %s") % ", ".join(unknown),
                [{"field": name, "code": "unknown_field", "message": str(_("unknown field"))} for name in unknown])
    for name in ("source_turn_from", "source_turn_to"):
        value = raw.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= TURN_NUMBER_MAX):
            return (_("%s must be a positive integer") % name,
                    [{"field": name, "code": "invalid", "message": str(_("not a positive integer"))}])
    for name in ("agent_id", "source_session_id"):
        value = raw.get(name)
        if value is not None and (not isinstance(value, str) or len(value) > 200):
            return (_("%s must be a string of at most 200 characters") % name,
                    [{"field": name, "code": "invalid", "message": str(_("not a short string"))}])
    if check_strings:
        found = find_bad_string(raw)
        if found:
            path, reason = found
            return reason, [{"field": path, "code": "invalid_string", "message": reason}]
    return None


def memory_fields_errors(*, user_id: Any, kind: Any, content: Any, memory_key: Any = None, entities: Any = (),
                         attributes: Any = None, confidence: Any = 1.0, importance: Any = 0.5,
                         source: Any = MemorySource.STATED, client_id: Any = None,
                         tenant_id: int | None = None) -> list[dict]:
    """Problems with one memory's fields, as [{field, code, message}] (empty when it can be written).

    With `tenant_id`, attributes are also checked against their key family's JSON Schema
    (policy.graph.attribute_schemas, layers/long_term/graph/schemas.py)."""
    errors = []

    def bad(field, code, message):
        errors.append({"field": field, "code": code, "message": str(message)})

    if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > Memory.USER_ID_MAX_LENGTH:
        bad("user_id", "invalid", _("user_id must be a non-empty string of at most %d characters")
            % Memory.USER_ID_MAX_LENGTH)
    elif user_id_error(user_id, max_length=Memory.USER_ID_MAX_LENGTH):
        bad("user_id", "invalid", user_id_error(user_id, max_length=Memory.USER_ID_MAX_LENGTH))
    if kind not in MemoryKind.values:
        bad("kind", "invalid_kind", _("kind must be one of %s") % ", ".join(MemoryKind.values))
    if not isinstance(content, str) or not content.strip():
        bad("content", "blank", _("content must be a non-empty string"))
    elif len(content) > Memory.CONTENT_MAX_LENGTH:
        bad("content", "too_long", _("content is longer than %d characters") % Memory.CONTENT_MAX_LENGTH)
    elif find_secrets(content):
        kinds = sorted({finding.kind for finding in find_secrets(content)})
        bad("content", "secret_detected", _("content holds a secret (%s); secrets are never stored as memories")
            % ", ".join(kinds))
    if memory_key is not None and (not isinstance(memory_key, str) or len(memory_key) > Memory.MEMORY_KEY_MAX_LENGTH):
        bad("memory_key", "invalid", _("memory_key must be a string of at most %d characters")
            % Memory.MEMORY_KEY_MAX_LENGTH)
    if not isinstance(entities, (list, tuple)) or len(entities) > Memory.MAX_ENTITIES or not all(
            isinstance(e, str) and 0 < len(e) <= Memory.ENTITY_MAX_LENGTH for e in entities):
        bad("entities", "invalid", _("entities must be a list of at most %d non-empty strings") % Memory.MAX_ENTITIES)
    if attributes is not None and not isinstance(attributes, dict):
        bad("attributes", "invalid", _("attributes must be a JSON object"))
    # A conditional preference's condition and value (layers/long_term/conditions/condition.py).
    errors.extend(condition_errors(attributes))
    for name, value in (("confidence", confidence), ("importance", importance)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            bad(name, "out_of_range", _("%s must be a number between 0 and 1") % name)
    if source not in MemorySource.values:
        bad("source", "invalid", _("source must be one of %s") % ", ".join(MemorySource.values))
    # Secrets are refused wherever a client's text is stored, not only in `content` (the same detector,
    # keys and values of `attributes` included); the message names the place, never the secret.
    failed = {error["field"] for error in errors}
    for field, value in (("memory_key", memory_key), ("entities", entities), ("attributes", attributes)):
        if value and field not in failed:
            for path, kinds in secrets_in_json(value, field):
                bad(path, "secret_detected", secret_message(path, kinds))
    if client_id is not None and (not isinstance(client_id, str) or not client_id
                                  or len(client_id) > Memory.CLIENT_ID_MAX_LENGTH):
        bad("client_id", "invalid", _("client_id must be a non-empty string of at most %d characters")
            % Memory.CLIENT_ID_MAX_LENGTH)
    # Only for otherwise sound fields: a schema message quotes the value, which must not be a secret.
    if tenant_id is not None and not errors:
        errors.extend(attribute_schema_errors(tenant_id=tenant_id, memory_key=memory_key, attributes=attributes))
    return errors


def raise_item_errors(errors_by_index: dict[int, list[dict]], *, batch: bool) -> None:
    if not errors_by_index:
        return
    codes = {error["code"] for errors in errors_by_index.values() for error in errors}
    code = "secret_detected" if "secret_detected" in codes else "invalid"
    if batch:
        items = [{"index": index, "errors": errors} for index, errors in sorted(errors_by_index.items())]
        message = _("%(count)d of the memories cannot be stored; nothing was written") % {"count": len(items)}
        raise InvalidInput(message, code=code, details={"items": items})
    errors = errors_by_index[0]
    raise InvalidInput(errors[0]["message"], code=code,
                       details={"fields": {error["field"]: [error["message"]] for error in errors}})
