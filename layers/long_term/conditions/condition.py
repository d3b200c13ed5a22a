"""The condition of a conditional preference and whether it holds for a request.

A conditional preference is a long-term memory whose `attributes` hold `condition`, a small object of
dimension → value or values ({"destination": "airport"}, {"audio": ["music", "radio"]}), and `value`, what
the preference says under it ("allowed"). Its variants share one `memory_key`
(`user.preference.route.highways`): the row without a condition is the general preference, each row with one
is an exception. Keeping the dimension in `attributes` (not in the key) leaves the key family whole for the
key-cardinality policy (layers/long_term/policy.py `single_valued_keys`), for search's key weights and for
listing by key; two variants differ by condition, so supersession of a single-valued key compares the
condition too (`condition_signature`).

A condition holds when every dimension holds (AND) and a dimension holds when any of its values does (OR):
`task_type` and `scene` against the request's task type and scene, a dimension named like one of the task's
slots against that slot's value, any other against the words of the query (layers/long_term/conditions/lexicon.py).
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from layers.long_term.conditions.lexicon import canonical_value, value_pattern

CONDITION_MAX_DIMENSIONS = 5
CONDITION_MAX_VALUES = 10
CONDITION_VALUE_MAX_LENGTH = 100
VALUE_MAX_LENGTH = 200
DIMENSION_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
# Dimensions read from the request itself rather than from its words.
REQUEST_DIMENSIONS = ("task_type", "scene")


def condition_errors(attributes: Any, field: str = "attributes") -> list[dict]:
    """Problems with `attributes.condition` and `attributes.value`, as [{field, code, message}]; a memory
    without a condition has none."""
    if not isinstance(attributes, dict) or "condition" not in attributes:
        return []
    errors = []

    def bad(path, code, message):
        errors.append({"field": path, "code": code, "message": str(message)})

    condition = attributes["condition"]
    path = f"{field}.condition"
    if not isinstance(condition, dict) or not condition:
        bad(path, "invalid_condition", _("condition must be a non-empty object of dimension to value(s)"))
    elif len(condition) > CONDITION_MAX_DIMENSIONS:
        bad(path, "invalid_condition", _("a condition has at most %d dimensions") % CONDITION_MAX_DIMENSIONS)
    else:
        for name, values in condition.items():
            where = f"{path}.{name}"
            if not isinstance(name, str) or not DIMENSION_NAME.match(name):
                bad(where, "invalid_condition",
                    _("a dimension is a lowercase name of letters, digits and _ (at most 40 characters)"))
                continue
            listed = values if isinstance(values, list) else [values]
            if not listed or len(listed) > CONDITION_MAX_VALUES or not all(
                    isinstance(v, str) and v.strip() and len(v) <= CONDITION_VALUE_MAX_LENGTH for v in listed):
                bad(where, "invalid_condition",
                    _("a dimension's value is a non-empty string or a list of at most %(count)d of them, "
                      "each at most %(length)d characters")
                    % {"count": CONDITION_MAX_VALUES, "length": CONDITION_VALUE_MAX_LENGTH})
    value = attributes.get("value")
    if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > VALUE_MAX_LENGTH):
        bad(f"{field}.value", "invalid", _("value must be a non-empty string of at most %d characters")
            % VALUE_MAX_LENGTH)
    return errors


def condition_normalise(condition: dict) -> dict:
    """Sorted dimensions, each a sorted list of canonical values ("机场" → "airport"): one condition, one form."""
    out = {}
    for name in sorted(condition):
        values = condition[name] if isinstance(condition[name], list) else [condition[name]]
        out[name] = sorted({canonical_value(name, v) for v in values})
    return out


def condition_signature(attributes: dict | None) -> str:
    """What tells variants of one key apart: '' for the general preference, else the normalised condition."""
    condition = (attributes or {}).get("condition")
    if not isinstance(condition, dict) or not condition:
        return ""
    return json.dumps(condition_normalise(condition), ensure_ascii=False, sort_keys=True)


def condition_text(condition: dict) -> str:
    return ", ".join(f"{name}={'|'.join(values)}" for name, values in condition_normalise(condition).items())


@dataclass(frozen=True)
class RequestFacts:
    """What a condition is checked against: the query's words, the task type, the scene, the task's slots."""
    text: str
    task_type: str | None = None
    scene: str | None = None
    slots: dict = field(default_factory=dict)

    @property
    def normalised_text(self) -> str:
        return unicodedata.normalize("NFKC", self.text)


def _slot_text(value) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(_slot_text(v) for v in value)
    return "" if value is None else str(value)


def condition_holds(condition: dict, facts: RequestFacts) -> list[dict] | None:
    """The evidence for each dimension ([{dimension, value, via, heard}]) when the whole condition holds,
    else None."""
    evidence = []
    text = facts.normalised_text
    for name, values in condition_normalise(condition).items():
        found = None
        for value in values:
            if name in REQUEST_DIMENSIONS:
                given = facts.task_type if name == "task_type" else facts.scene
                if given and given.casefold() == value.casefold():
                    found = {"dimension": name, "value": value, "via": name, "heard": given}
            elif name in facts.slots:
                slot = unicodedata.normalize("NFKC", _slot_text(facts.slots[name]))
                heard = value_pattern(name, value).search(slot)
                if heard or slot.casefold() == value.casefold():
                    found = {"dimension": name, "value": value, "via": "slot", "heard": slot}
            else:
                heard = value_pattern(name, value).search(text)
                if heard:
                    found = {"dimension": name, "value": value, "via": "query", "heard": heard.group(0)}
            if found:
                break
        if found is None:
            return None
        evidence.append(found)
    return evidence
