"""Reads of the permanent layer. Seams used by other layers before the permanent issue lands:
these return nothing until entries exist."""
from __future__ import annotations

from typing import Any


def permanent_global_values(*, tenant_id: int, prefix: str) -> dict[str, Any]:
    """Current values of active global entries whose key starts with `prefix` ({key: value})."""
    return {}


def permanent_system_rules(*, tenant_id: int) -> list[dict[str, Any]]:
    """The global rules served in the context's `system_rules` block: [{key, version, value}]."""
    return []
