"""The one reader of policy numbers: typed code defaults per section, overridden per tenant.

A section is a frozen dataclass with a `SECTION` name; each field is a typed default, declared with
`setting(...)` when it has bounds or merges. One key convention: the override of field `f` of section
`s` is the value of the global permanent entry `policy.<s>.<f>` (e.g. `policy.long_term.min_score`),
so changing a number goes through the permanent layer's approval. One validation style: a value must
fit the field's annotated type (int, float, bool, str, list[...], dict[str, ...], `| None`) and its
bounds; one that does not is ignored and logged, never breaking the tenant's requests. Dict fields
with `merge=True` merge key by key over the default.

Where the overrides come from is registered by the app that stores them (permanent, in its
`AppConfig.ready`): this module sits below every app and imports none.
"""
from __future__ import annotations

import dataclasses
import logging
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

logger = logging.getLogger(__name__)

POLICY_PREFIX = "policy."

P = TypeVar("P")
OverrideSource = Callable[..., dict[str, Any]]  # (tenant_id=, prefix=) -> {key: value}

_source: OverrideSource | None = None


def policy_source_register(source: OverrideSource) -> None:
    global _source
    _source = source


def setting(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING,
            low: float | None = None, high: float | None = None, merge: bool = False,
            normalise: Callable[[Any], Any] | None = None) -> Any:
    """A policy field with bounds (numbers: the value; lists and dicts: each number inside), merging,
    or a normaliser applied after validation (e.g. sorting a ladder)."""
    metadata = {"low": low, "high": high, "merge": merge, "normalise": normalise}
    if default_factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


class PolicyValueError(ValueError):
    pass


def _check(value: Any, kind: Any, low: float | None, high: float | None) -> Any:
    """`value` as `kind`, or PolicyValueError saying what was expected."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _check(value, option, low, high)
            except PolicyValueError:
                continue
        raise PolicyValueError(f"one of {options}")
    if kind is bool:
        if not isinstance(value, bool):
            raise PolicyValueError("true or false")
        return value
    if kind in (int, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
            raise PolicyValueError("an integer" if kind is int else "a number")
        if (low is not None and value < low) or (high is not None and value > high):
            raise PolicyValueError(f"a number in [{low}, {high}]")
        return kind(value)
    if kind is str:
        if not isinstance(value, str):
            raise PolicyValueError("a string")
        return value
    if origin is list:
        (item,) = typing.get_args(kind) or (Any,)
        if not isinstance(value, list):
            raise PolicyValueError("a list")
        return [_check(v, item, low, high) for v in value]
    if origin is dict:
        key_kind, item = typing.get_args(kind) or (str, Any)
        if not isinstance(value, dict):
            raise PolicyValueError("an object")
        return {_check(k, key_kind, None, None): _check(v, item, low, high) for k, v in value.items()}
    if kind is Any:
        return value
    raise PolicyValueError(f"a {kind}")


def policy_coerce(policy_class: type, name: str, value: Any, default: Any) -> Any:
    """One override of `policy_class.name` validated (and merged or normalised) the way `policy_read`
    does it; PolicyValueError when it does not fit. The console uses this to refuse a bad proposal."""
    field = {f.name: f for f in dataclasses.fields(policy_class)}[name]
    kind = typing.get_type_hints(policy_class)[name]
    meta = field.metadata
    checked = _check(value, kind, meta.get("low"), meta.get("high"))
    if meta.get("merge") and isinstance(default, dict):
        checked = {**default, **checked}
    if meta.get("normalise"):
        checked = meta["normalise"](checked)
    return checked


def policy_read(policy_class: type[P], tenant_id: int) -> P:
    """The tenant's values of one section: code defaults overridden by `policy.<SECTION>.<field>` entries."""
    policy = policy_class()
    if _source is None:
        return policy
    prefix = f"{POLICY_PREFIX}{policy_class.SECTION}."
    overrides = _source(tenant_id=tenant_id, prefix=prefix) or {}
    changes = {}
    for field in dataclasses.fields(policy_class):
        key = prefix + field.name
        if key not in overrides:
            continue
        try:
            changes[field.name] = policy_coerce(policy_class, field.name, overrides[key], getattr(policy, field.name))
        except (PolicyValueError, TypeError, ValueError) as exc:
            logger.warning("ignoring policy override %s for tenant %s: expected %s", key, tenant_id, exc)
    return dataclasses.replace(policy, **changes) if changes else policy
