"""Conditional preferences' policy numbers (memoryhub/core/policy.py; overridable by approved permanent entries
`policy.conditions.<field>`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from memoryhub.core.policy import policy_read, setting


@dataclass(frozen=True)
class Policy:
    SECTION: ClassVar[str] = "conditions"

    # Three corrections of the same preference the same way change the default. Counted in
    # distinct conversations (a session, or a request without one) within `correction_window_days`.
    correction_threshold: int = setting(3, low=1, high=100)
    correction_window_days: float = setting(90.0, low=1.0)
    # Whether a context request that contradicts a stored preference is counted as a correction at all.
    corrections_counted: bool = setting(True)


def conditions_policy(tenant_id: int) -> Policy:
    return policy_read(Policy, tenant_id)
