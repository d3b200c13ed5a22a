"""The long-term layer's policy numbers for one tenant: code defaults, overridden by global permanent
entries under `policy.` (so changing them goes through the permanent layer's approval).

Override keys are the field names below, e.g. `policy.min_score` = 0.25 or
`policy.decay_alpha_days` = {"event": 60}. Dict-valued fields merge key by key over the defaults;
a value of the wrong type is ignored (logged) rather than breaking every search of the tenant.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, fields, replace
from typing import Any

from permanent.selectors import permanent_global_values

logger = logging.getLogger(__name__)

POLICY_PREFIX = "policy."


def _default_alpha() -> dict[str, float]:
    # Days for recency exp(-age/α) to fall to 1/e: stable traits last, one-off events fade.
    return {"preference": 365.0, "fact": 730.0, "event": 120.0, "episode": 60.0}


def _default_scene_weights() -> dict[str, dict[str, float]]:
    return {
        "recommendation": {"preference": 1.0, "fact": 0.8, "event": 0.6, "episode": 0.5},
        "scheduling": {"event": 1.0, "fact": 0.8, "preference": 0.7, "episode": 0.6},
        "support": {"episode": 1.0, "event": 0.9, "fact": 0.9, "preference": 0.6},
    }


def _default_single_valued() -> list[str]:
    return [
        "user.name", "user.home_city", "user.birthday", "user.timezone", "user.language",
        "user.occupation", "user.employer", "user.email_preference", "user.diet",
    ]


def _default_ttl_ladder() -> list[list[float | None]]:
    # [minimum importance, days to live or None for never]; first match wins (seed 001).
    return [[0.9, None], [0.7, 90.0], [0.4, 30.0], [0.0, 7.0]]


@dataclass(frozen=True)
class Policy:
    decay_alpha_days: dict[str, float] = field(default_factory=_default_alpha)
    scene_weights: dict[str, dict[str, float]] = field(default_factory=_default_scene_weights)
    min_score: float = 0.3
    single_valued_keys: list[str] = field(default_factory=_default_single_valued)
    ttl_ladder: list[list[float | None]] = field(default_factory=_default_ttl_ladder)
    # Negative feedbacks that halve a memory's weight (and halve it again at twice as many).
    negative_feedback_threshold: int = 3
    negative_feedback_factor: float = 0.5
    # Calibration of each retrieval path onto [0, 1] (fixed curves, never min-max per query):
    # keyword relevance = 1 - exp(-(bm25 / query idf mass) / keyword_scale) (see selectors.search);
    # vector relevance = clip((cos - lo) / (hi - lo)), lo/hi from USE v3: unrelated ~0.1-0.25, paraphrases 0.55+.
    keyword_scale: float = 1.0
    vector_cosine_low: float = 0.25
    vector_cosine_high: float = 0.75
    # Hybrid: where the keyword path matched it leads, and the dense path closes this share of the
    # remaining gap; where it did not match, dense relevance counts times `vector_only_share`.
    # (LoCoMo dev, in-process: BM25 alone Recall@10 0.646, this fusion 0.675; equal weights drag it down.)
    hybrid_vector_share: float = 0.5
    vector_only_share: float = 1.0
    # A memory next to a match in the same source session (adjacent turns) gains this share of the
    # match's relevance (LoCoMo dev: hybrid Recall@10 0.675 -> 0.717 at 0.5).
    context_neighbour_share: float = 0.5
    # Context: memories this important (allergies, health, identity: the ones that never expire) join
    # the user profile even when the query does not mention them; a restaurant question must still
    # see the peanut allergy. At most `core_profile_limit` of them, after the query's own matches.
    core_profile_min_importance: float = 0.9
    core_profile_limit: int = 3

    def is_single_valued(self, memory_key: str | None) -> bool:
        return bool(memory_key) and memory_key in self.single_valued_keys

    def ttl_days(self, importance: float) -> float | None:
        for minimum, days in self.ttl_ladder:
            if importance >= float(minimum):
                return None if days is None else float(days)
        return None

    def scene_weight(self, task_type: str | None, kind: str) -> float:
        if not task_type:
            return 1.0
        return float(self.scene_weights.get(task_type, {}).get(kind, 1.0))


_NUMBER_FIELDS = {"min_score", "negative_feedback_factor", "keyword_scale", "vector_cosine_low",
                  "vector_cosine_high", "hybrid_vector_share", "vector_only_share",
                  "context_neighbour_share", "core_profile_min_importance"}


_INTEGER_MINIMUMS = {"negative_feedback_threshold": 1, "core_profile_limit": 0}


def _coerce(name: str, value: Any, default: Any) -> Any:
    if name in _NUMBER_FIELDS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError("a number")
        return float(value)
    if name in _INTEGER_MINIMUMS:
        minimum = _INTEGER_MINIMUMS[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise TypeError(f"an integer of at least {minimum}")
        return value
    if name == "decay_alpha_days":
        if not isinstance(value, dict) or not all(isinstance(v, (int, float)) and v > 0 for v in value.values()):
            raise TypeError("an object of positive numbers")
        return {**default, **{k: float(v) for k, v in value.items()}}
    if name == "scene_weights":
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            raise TypeError("an object of objects")
        return {**default, **value}
    if name == "single_valued_keys":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError("a list of strings")
        return value
    if name == "ttl_ladder":
        if not isinstance(value, list) or not all(isinstance(r, list) and len(r) == 2 for r in value):
            raise TypeError("a list of [importance, days|null]")
        return sorted(value, key=lambda row: -float(row[0]))
    raise TypeError("a known policy field")


def tenant_policy(tenant_id: int) -> Policy:
    """The policy for `tenant_id`: defaults overridden by approved global `policy.*` entries."""
    policy = Policy()
    overrides = permanent_global_values(tenant_id=tenant_id, prefix=POLICY_PREFIX) or {}
    known = {f.name for f in fields(Policy)}
    changes = {}
    for key, value in overrides.items():
        name = key[len(POLICY_PREFIX):] if key.startswith(POLICY_PREFIX) else key
        if name not in known:
            continue
        try:
            changes[name] = _coerce(name, value, getattr(policy, name))
        except (TypeError, ValueError) as exc:
            logger.warning("ignoring policy override %s for tenant %s: expected %s", key, tenant_id, exc)
    return replace(policy, **changes) if changes else policy
