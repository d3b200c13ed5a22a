"""Short-term policy numbers, read through memoryhub/core/policy.py: code defaults, overridden per
tenant by approved global permanent entries `policy.short_term.<field>` (e.g.
`policy.short_term.window_max_turns`), so changing a number goes through the approval workflow.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import ClassVar

from memoryhub.core.config import env_int
from memoryhub.core.policy import policy_read, setting

# The window keeps the last 15 turns; a summary is due once 20 turns are unsummarised and at
# least 5 arrived since the last one, so summarising never runs on every turn.
DEFAULT_WINDOW_MAX_TURNS = 15
DEFAULT_SUMMARY_TRIGGER_TURNS = 20
DEFAULT_SUMMARY_MIN_NEW_TURNS = 5
DEFAULT_IDLE_TIMEOUT_MINUTES = env_int("SESSION_IDLE_TIMEOUT_MINUTES", 120)

# Upper bounds keep an override from turning a window into an unbounded read.
MAX_WINDOW_TURNS = 200


@dataclass(frozen=True)
class ShortTermPolicy:
    SECTION: ClassVar[str] = "short_term"

    window_max_turns: int = setting(DEFAULT_WINDOW_MAX_TURNS, low=1, high=MAX_WINDOW_TURNS)
    summary_trigger_turns: int = setting(DEFAULT_SUMMARY_TRIGGER_TURNS, low=1, high=10_000)
    summary_min_new_turns: int = setting(DEFAULT_SUMMARY_MIN_NEW_TURNS, low=1, high=10_000)
    idle_timeout_minutes: int = setting(DEFAULT_IDLE_TIMEOUT_MINUTES, low=1, high=60 * 24 * 30)

    @property
    def idle_timeout(self) -> timedelta:
        return timedelta(minutes=self.idle_timeout_minutes)


def short_term_policy(tenant_id: int) -> ShortTermPolicy:
    """The tenant's short-term policy. An override that is not an integer in range is ignored."""
    return policy_read(ShortTermPolicy, tenant_id)
