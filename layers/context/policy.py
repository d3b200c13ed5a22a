"""Context assembly's policy numbers (read through memoryhub/core/policy.py; overridable by approved
permanent entries `policy.context.<field>`).

The profile block takes the best memories that fit the budget, not a fixed handful: up to
`profile_candidates` of the query's matches scoring at least `profile_min_score` (a floor below search's
`min_score`, so a user with few memories still gets the ones that bear on the query), plus the core facts
(layers/long_term/policy.py `core_profile_*`), which a flood of high-scoring matches can never push out:
over budget, matches go first, lowest score first, and core facts last.

The floor is a score, and a score's scale moves whenever the search does (a query embedded another way, a
second-stage factor), while the order of a user's own memories for a question moves much less: the LoCoMo
end-to-end coverage fell 0.740 -> 0.708 between 0deb963 and 2e0facd with no change to formation or to the
context, its spans scored ~10 % lower and fell under 0.2 (docs/benchmarks.md, "End to end through
sessions"). So the first `profile_fill_matches` matches by rank are served down to `profile_fill_min_score`
when the user's own words hold a query term (BM25 evidence not only in a span's kept question) and no other
scene than the query's claims them (the core facts' gate): the top of the ranking is what a search would have
shown, and a weather question still gets no diet. `profile_candidates` is the second stage's pool
(layers/long_term/policy.py `rerank_pool`): every match it re-scored may be served when the budget holds it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from memoryhub.core.policy import policy_read, setting


@dataclass(frozen=True)
class Policy:
    SECTION: ClassVar[str] = "context"

    profile_min_score: float = setting(0.2, low=0.0, high=1.0)
    profile_candidates: int = setting(30, low=1, high=100)
    # The top of the ranking served under the floor (the module's docstring); 0 turns it off.
    profile_fill_matches: int = setting(10, low=0, high=100)
    profile_fill_min_score: float = setting(0.1, low=0.0, high=1.0)
    # A habit (kind `habit`) joins the profile while its window holds the context's moment, from this confidence
    # up (a habit that stopped loses confidence, layers/forgetting/habits.py).
    habit_min_confidence: float = setting(0.3, low=0.0, high=1.0)
    # Hot and cold (layers/long_term/graph): at most this many of the user's hottest current edges whose entity
    # the query or the session names are drawn on first, each through the memory it came from.
    hot_edges_limit: int = setting(5, low=0, high=50)


def context_policy(tenant_id: int) -> Policy:
    return policy_read(Policy, tenant_id)
