"""Finding strings PostgreSQL cannot store: NUL bytes and lone UTF-16 surrogates."""
from __future__ import annotations

from typing import Any


def bad_string_reason(value: str) -> str | None:
    if "\x00" in value:
        return "contains a NUL byte"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "contains a lone surrogate"
    return None


def find_bad_string(value: Any, path: str = "$") -> tuple[str, str] | None:
    """The JSON path and reason of the first unstorable string (key or value) in a parsed body."""
    if isinstance(value, str):
        reason = bad_string_reason(value)
        return (path, reason) if reason else None
    if isinstance(value, dict):
        for key, item in value.items():
            reason = bad_string_reason(key) if isinstance(key, str) else None
            if reason:
                return (f"{path}.<key>", reason)
            found = find_bad_string(item, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = find_bad_string(item, f"{path}[{index}]")
            if found:
                return found
    return None
