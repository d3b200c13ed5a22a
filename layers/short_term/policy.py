"""Short-term policy numbers: code defaults, overridden per tenant by approved permanent entries.

A global permanent entry `policy.short_term.<name>` (e.g. `policy.short_term.window_max_turns`)
replaces the default for that tenant, so changing a number goes through the approval workflow.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, fields, replace
from datetime import timedelta

from memoryhub.config import env_int
from permanent.selectors import permanent_global_values

logger = logging.getLogger(__name__)

POLICY_PREFIX = "policy.short_term."

# The window keeps the last 15 turns; a summary is due once 20 turns are unsummarised and at
# least 5 arrived since the last one, so summarising never runs on every turn (seed 000 §3.2).
DEFAULT_WINDOW_MAX_TURNS = 15
DEFAULT_SUMMARY_TRIGGER_TURNS = 20
DEFAULT_SUMMARY_MIN_NEW_TURNS = 5
DEFAULT_IDLE_TIMEOUT_MINUTES = env_int("SESSION_IDLE_TIMEOUT_MINUTES", 120)

# Upper bounds keep an override from turning a window into an unbounded read.
MAX_WINDOW_TURNS = 200


@dataclass(frozen=True)
class ShortTermPolicy:
    window_max_turns: int = DEFAULT_WINDOW_MAX_TURNS
    summary_trigger_turns: int = DEFAULT_SUMMARY_TRIGGER_TURNS
    summary_min_new_turns: int = DEFAULT_SUMMARY_MIN_NEW_TURNS
    idle_timeout_minutes: int = DEFAULT_IDLE_TIMEOUT_MINUTES

    @property
    def idle_timeout(self) -> timedelta:
        return timedelta(minutes=self.idle_timeout_minutes)


_BOUNDS = {
    "window_max_turns": (1, MAX_WINDOW_TURNS),
    "summary_trigger_turns": (1, 10_000),
    "summary_min_new_turns": (1, 10_000),
    "idle_timeout_minutes": (1, 60 * 24 * 30),
}


def short_term_policy(tenant_id: int) -> ShortTermPolicy:
    """The tenant's short-term policy. An override that is not an integer in range is ignored."""
    policy = ShortTermPolicy()
    overrides = permanent_global_values(tenant_id=tenant_id, prefix=POLICY_PREFIX)
    changes = {}
    for field in fields(ShortTermPolicy):
        key = POLICY_PREFIX + field.name
        if key not in overrides:
            continue
        value = overrides[key]
        low, high = _BOUNDS[field.name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            logger.warning("ignoring permanent entry %s=%r for tenant %s: not an integer in [%s, %s]",
                           key, value, tenant_id, low, high)
            continue
        changes[field.name] = value
    return replace(policy, **changes) if changes else policy
