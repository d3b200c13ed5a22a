"""Forgetting numbers, read through memoryhub/core/policy.py: code defaults, overridden per tenant by
approved global permanent entries `policy.forgetting.<field>`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from memoryhub.core.policy import policy_read, setting


@dataclass(frozen=True)
class ForgettingPolicy:
    SECTION: ClassVar[str] = "forgetting"

    expiry_keep_importance: float = setting(0.7, low=0.0, high=1.0)
    archive_score_below: float = setting(0.1, low=0.0, high=1.0)
    archive_idle_days: int = setting(30, low=1, high=3650)
    hard_delete_grace_days: int = setting(30, low=0, high=3650)


def forgetting_policy(tenant_id: int) -> ForgettingPolicy:
    """The tenant's forgetting numbers; an override of the wrong type or out of range is ignored (logged)."""
    return policy_read(ForgettingPolicy, tenant_id)
