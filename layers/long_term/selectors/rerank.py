"""The search's optional second stage: the first stage's best candidates re-scored with evidence that
stage does not weigh, then cut at `min_score` and `top_k` (layers/long_term/selectors/search.py).

Each piece of evidence closes a fixed share of the gap the first stage left:
relevance = 1 − (1 − first-stage relevance)(1 − boost), boost = 1 − Π(1 − share × feature). So a memory
the first stage found irrelevant stays irrelevant, the order among equal evidence is kept, and the result
depends on the query and the memory only (never on the other candidates), which keeps `min_score` one
meaning. The features, each in [0, 1]:

- speaker: the memory is a transcript line labelled with a speaker ("[date] Caroline: …", "Ana: …") whom
  the query names ("what did Caroline say about …"). BM25 weighs the name like any word, and a name that
  labels half the lines has little IDF, yet a question about a person is answered by that person's own
  lines first. The user's own lines ("user: …") are not a speaker for this: the query's "I" is the user.
- coverage: how many of the query's concepts (a term with its bridges) the memory holds together, as
  (matched − 1) / (concepts − 1): BM25 already rewards one matching term, and rewards one rare term as much
  as several common ones, while a memory that answers the whole question usually holds several of its
  concepts at once. (Counting the first match too lifted incidental one-word matches, such as "likes" for
  "what's the weather like", over the context floor.)

Measured on the LoCoMo dev split and the relevance dev part (docs/benchmarks.md, "Retrieval (issue 12)").
"""
from __future__ import annotations

import re

from layers.long_term.policy import Policy

# "[9:00 am on 3 March, 2024] Caroline: …" or "Caroline: …": a short label of letters before a colon.
_SPEAKER = re.compile(r"^\s*(?:\[[^\]]{0,80}\]\s*)?([^\W\d_][\w .'-]{0,38}?)\s*[:：]")
NOT_SPEAKERS = frozenset({"user", "assistant", "system", "tool", "note", "用户", "用户让记住", "助手"})


def speaker_of(content: str) -> str | None:
    """The speaker label a transcript line starts with, lowercased, or None."""
    match = _SPEAKER.match(content)
    if not match:
        return None
    label = match.group(1).strip().lower()
    # "User's diet: vegetarian." is a keyed fact's template, not a line the user said
    first_word = re.split(r"[\s']", label, maxsplit=1)[0]
    if label in NOT_SPEAKERS or first_word in NOT_SPEAKERS or label.startswith("用户"):
        return None
    return label


def names_speaker(query_lower: str, speaker: str | None) -> bool:
    if not speaker:
        return False
    if speaker.isascii():
        return re.search(r"(?<![\w])" + re.escape(speaker) + r"(?![\w])", query_lower) is not None
    return speaker in query_lower


def _co_coverage(matched: int, concepts: int) -> float:
    if concepts < 2 or matched < 2:
        return 0.0
    return min(1.0, (matched - 1) / (concepts - 1))


def rerank_row(row: dict, *, query_lower: str, concept_count: int, policy: Policy) -> dict:
    """The second stage's features, boost and relevance for one first-stage row (its explain part)."""
    speaker = speaker_of(row["content"])
    features = {
        "speaker": 1.0 if names_speaker(query_lower, speaker) else 0.0,
        "coverage": _co_coverage(int(row.get("matched_concepts") or 0), concept_count),
    }
    shares = {"speaker": policy.rerank_speaker_share, "coverage": policy.rerank_coverage_share}
    remaining = 1.0
    for name, value in features.items():
        remaining *= 1.0 - shares[name] * value
    boost = 1.0 - remaining
    first = float(row["relevance"])
    relevance = 1.0 - (1.0 - first) * (1.0 - boost) if first > 0 else 0.0
    return {"first_stage_relevance": first, "first_stage_score": float(row["score"]), "features": features,
            "speaker": speaker, "boost": boost, "relevance": relevance}


def rerank(rows: list[dict], *, query: str, concept_count: int, policy: Policy, min_score: float,
           top_k: int) -> list[dict]:
    """The rows re-scored (relevance and score replaced, the stage's details under `rerank`), cut at
    `min_score`, best first, at most `top_k`."""
    query_lower = query.lower()
    out = []
    for row in rows:
        stage = rerank_row(row, query_lower=query_lower, concept_count=concept_count, policy=policy)
        score = (stage["relevance"] * row["recency"] * row["scene"] * row["confidence_factor"]
                 * row["feedback_factor"])
        if score < min_score or stage["relevance"] <= 0:
            continue
        out.append({**row, "relevance": stage["relevance"], "score": score, "rerank": stage})
    out.sort(key=lambda r: (-r["score"], -r["id"]))
    return out[:top_k]
