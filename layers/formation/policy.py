"""Formation numbers: code defaults, overridden per tenant by approved permanent entries.

A global permanent entry `policy.formation.<name>` (e.g. `policy.formation.extract_every_turns` = 20)
replaces the default for that tenant, so changing a number goes through the approval workflow.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, fields, replace

from permanent.selectors import permanent_global_values

logger = logging.getLogger(__name__)

POLICY_PREFIX = "policy.formation."


@dataclass(frozen=True)
class FormationPolicy:
    # Extraction runs once this many turns piled up after the cursor, and at session end.
    extract_every_turns: int = 10
    # Importance of the `episode` memory written for a summarised span (→ 30-day TTL by the ladder).
    episode_importance: float = 0.5


_BOUNDS = {
    "extract_every_turns": (1, 10_000),
    "episode_importance": (0.0, 1.0),
}


def formation_policy(tenant_id: int) -> FormationPolicy:
    """The tenant's formation policy. An override of the wrong type or out of range is ignored (logged)."""
    policy = FormationPolicy()
    overrides = permanent_global_values(tenant_id=tenant_id, prefix=POLICY_PREFIX) or {}
    changes = {}
    for field in fields(FormationPolicy):
        key = POLICY_PREFIX + field.name
        if key not in overrides:
            continue
        value, (low, high) = overrides[key], _BOUNDS[field.name]
        integer = isinstance(field.default, int)
        valid_type = (isinstance(value, int) if integer else isinstance(value, (int, float)))
        if isinstance(value, bool) or not valid_type or not low <= value <= high:
            logger.warning("ignoring permanent entry %s=%r for tenant %s: expected a number in [%s, %s]",
                           key, value, tenant_id, low, high)
            continue
        changes[field.name] = value if integer else float(value)
    return replace(policy, **changes) if changes else policy
