"""The long-term layer's policy numbers for one tenant, read through memoryhub/core/policy.py: code
defaults overridden by global permanent entries `policy.long_term.<field>` (e.g.
`policy.long_term.min_score` = 0.25 or `policy.long_term.decay_alpha_days` = {"event": 60}).
Dict-valued fields merge key by key over the defaults; a value of the wrong type is ignored (logged)
rather than breaking every search of the tenant.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from layers.long_term.importance import IMPORTANCE_BY_KEY_FAMILY
from memoryhub.core.policy import policy_read, setting


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


def _ladder_sorted(ladder: list) -> list:
    if not all(len(row) == 2 and row[0] is not None for row in ladder):
        raise ValueError("a list of [importance, days|null]")
    return sorted(ladder, key=lambda row: -float(row[0]))


def _default_ttl_ladder() -> list[list[float | None]]:
    # [minimum importance, days to live or None for never]; first match wins (docs/architecture.md, "Forgetting").
    return [[0.9, None], [0.7, 90.0], [0.4, 30.0], [0.0, 7.0]]


@dataclass(frozen=True)
class Policy:
    SECTION: ClassVar[str] = "long_term"

    decay_alpha_days: dict[str, float] = setting(default_factory=_default_alpha, low=1e-6, merge=True)
    scene_weights: dict[str, dict[str, float]] = setting(default_factory=_default_scene_weights, low=0.0, merge=True)
    min_score: float = setting(0.3, low=0.0, high=1.0)
    single_valued_keys: list[str] = setting(default_factory=_default_single_valued)
    ttl_ladder: list[list[float | None]] = setting(default_factory=_default_ttl_ladder, low=0.0,
                                                   normalise=_ladder_sorted)
    # Negative feedbacks that halve a memory's weight (and halve it again at twice as many).
    negative_feedback_threshold: int = setting(3, low=1)
    negative_feedback_factor: float = setting(0.5, low=0.0, high=1.0)
    # Calibration of each retrieval path onto [0, 1] (fixed curves, never min-max per query):
    # keyword relevance = 1 - exp(-(bm25 / query idf mass) / keyword_scale) (see selectors.search);
    # vector relevance = clip((cos - lo) / (hi - lo)), lo/hi from USE v3: unrelated ~0.1-0.25, paraphrases 0.55+.
    keyword_scale: float = setting(1.0, low=1e-6)
    vector_cosine_low: float = setting(0.25, low=-1.0, high=1.0)
    vector_cosine_high: float = setting(0.75, low=-1.0, high=1.0)
    # Hybrid: where the keyword path matched it leads, and the dense path closes this share of the
    # remaining gap; where it did not match, dense relevance counts times `vector_only_share`.
    # (LoCoMo dev, in-process: BM25 alone Recall@10 0.646, this fusion 0.675; equal weights drag it down.)
    hybrid_vector_share: float = setting(0.5, low=0.0, high=1.0)
    vector_only_share: float = setting(1.0, low=0.0, high=1.0)
    # A memory next to a match in the same source session (adjacent turns) gains this share of the
    # match's relevance (LoCoMo dev: hybrid Recall@10 0.675 -> 0.717 at 0.5).
    context_neighbour_share: float = setting(0.5, low=0.0, high=1.0)
    # Context: memories this important (allergies, health, identity: the ones that never expire) join
    # the user profile even when the query does not mention them; a restaurant question must still
    # see the peanut allergy. At most `core_profile_limit` of them, after the query's own matches.
    core_profile_min_importance: float = setting(0.9, low=0.0, high=1.0)
    core_profile_limit: int = setting(3, low=0)
    # Importance of a memory written without one, by memory_key family (layers/long_term/importance.py).
    importance_by_key: dict[str, float] = setting(default_factory=lambda: dict(IMPORTANCE_BY_KEY_FAMILY), low=0.0,
                                                  high=1.0, merge=True)

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


def tenant_policy(tenant_id: int) -> Policy:
    """The policy for `tenant_id`: defaults overridden by approved global `policy.long_term.*` entries."""
    return policy_read(Policy, tenant_id)
