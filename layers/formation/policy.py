"""Formation numbers, read through memoryhub/core/policy.py: code defaults, overridden per tenant by
approved global permanent entries `policy.formation.<field>` (e.g. `policy.formation.extract_every_turns`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from memoryhub.core.policy import policy_read, setting


@dataclass(frozen=True)
class FormationPolicy:
    SECTION: ClassVar[str] = "formation"

    # Extraction runs once this many turns piled up after the cursor, and at session end.
    extract_every_turns: int = setting(10, low=1, high=10_000)
    # Importance of the `episode` memory written for a summarised span (→ 30-day TTL by the ladder).
    episode_importance: float = setting(0.5, low=0.0, high=1.0)
    # Keep the user's own statements as episode memories over short spans (layers/formation/spans.py).
    keep_statement_spans: bool = True
    # A span's importance is inferred from its words (layers/long_term/importance.py) but stays below
    # the core-facts threshold: the extracted fact, not its raw span, is what every context must carry.
    span_max_importance: float = setting(0.85, low=0.0, high=1.0)
    # The learned recall back-up of the offline extractor (layers/formation/extractor/learned.py): for a fact
    # family the rules left empty in a user turn, a value span a CRF tagger finds in a clause the rules
    # accepted becomes an item. On by default (it raised recall and kept precision within 0.02 on held-out dev
    # batches): see docs/benchmarks.md, "Learned recall back-up in the product". extract_memories reads this
    # code default when called bare; the extraction service passes the tenant's value
    # (formation_policy(tenant).learned_backup, layers/formation/services/extraction.py), so an approved
    # policy.formation.learned_backup override turns it off or on for that tenant.
    learned_backup: bool = True

    # Habits from repetition (layers/formation/habits/): the user's requests of the last
    # `habit_lookback_days`, read in the tenant's zone (or `habit_time_zone`), become a habit when one request
    # recurs on at least `habit_min_days` distinct days within a time-of-day window of at most
    # `habit_window_max_minutes` (served at least `habit_window_min_minutes` wide), on a weekday pattern
    # covering at least `habit_min_coverage` of its expected days, the other days at least `habit_min_purity`
    # empty (layers/formation/habits/patterns.py).
    habit_lookback_days: int = setting(28, low=1, high=365)
    habit_min_days: int = setting(3, low=2, high=365)
    habit_window_max_minutes: int = setting(60, low=10, high=720)
    habit_window_min_minutes: int = setting(30, low=0, high=720)
    habit_min_coverage: float = setting(0.7, low=0.0, high=1.0)
    habit_min_purity: float = setting(0.6, low=0.0, high=1.0)
    # "": the tenant's time zone (Tenant.time_zone, memoryhub/tenancy/selectors.tenant_time_zone), the one
    # reminders read in; an IANA name here overrides it for habits alone.
    habit_time_zone: str = ""
    # ≥ 0.7: a 90-day TTL that is extended on expiry; whether a habit still holds is the habit decay's call
    # (layers/forgetting/habits.py), not the TTL's.
    habit_importance: float = setting(0.7, low=0.0, high=1.0)


def formation_policy(tenant_id: int) -> FormationPolicy:
    """The tenant's formation policy. An override of the wrong type or out of range is ignored (logged)."""
    return policy_read(FormationPolicy, tenant_id)
