"""Forgetting numbers, read through memoryhub/core/policy.py: code defaults, overridden per tenant by
approved global permanent entries `policy.forgetting.<field>`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from layers.long_term.models import MemoryKind
from memoryhub.core.policy import policy_read, setting


DEFAULT_CAPACITY = {kind: 1_000_000 for kind in MemoryKind.values}


@dataclass(frozen=True)
class ForgettingPolicy:
    SECTION: ClassVar[str] = "forgetting"

    expiry_keep_importance: float = setting(0.7, low=0.0, high=1.0)
    archive_score_below: float = setting(0.1, low=0.0, high=1.0)
    archive_idle_days: int = setting(30, low=1, high=3650)
    hard_delete_grace_days: int = setting(30, low=0, high=3650)
    # A habit (layers/forgetting/habits.py) that missed this many expected occurrences in a row starts
    # losing confidence, by `habit_decay_factor` per further miss, and is archived at `habit_missed_to_archive`.
    habit_missed_before_decay: int = setting(2, low=1, high=365)
    habit_decay_factor: float = setting(0.8, low=0.0, high=1.0)
    habit_missed_to_archive: int = setting(7, low=1, high=365)
    # Bounded owners (layers/forgetting/capacity.py): active memories one owner may keep per kind. Generous
    # by default, above the large owners issue 16 plans for (500k); a tenant tightens it per kind (merged).
    capacity_per_kind: dict[str, int] = setting(default_factory=lambda: dict(DEFAULT_CAPACITY), low=1, merge=True)


def forgetting_policy(tenant_id: int) -> ForgettingPolicy:
    """The tenant's forgetting numbers; an override of the wrong type or out of range is ignored (logged)."""
    return policy_read(ForgettingPolicy, tenant_id)
