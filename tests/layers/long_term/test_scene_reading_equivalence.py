"""The compiled cue lists of layers/long_term/selectors/scenes.py read every text exactly as the plain reading did.

The reference below is the reading as it stood before the lists were compiled: each call builds its list's
alternation with the word-start look-behind in front of every Latin cue, a joint cue ("回家+票") asks each
part again through the same function, and the words naming the user are searched one by one. With it swapped in for `scenes._hits`, every query string of the
relevance dev batches (tests/layers/long_term/corpora/relevance_dev*.yaml; the sealed test part is never
read) and every LoCoMo dev question (../shared/bench/locomo/locomo_dev.json) must get the same
`query_read`, with and without a task type, and every memory text of both the same `text_scene`,
`pastime_kinds` and hits of the lists the second stage asks per row (layers/long_term/selectors/rerank.py).
Each comparison runs twice on the new side, so the kept hits of a text (`_CueList`'s memo) are compared too.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from layers.long_term.policy import Policy
from layers.long_term.selectors import scenes

REPO = Path(__file__).resolve().parents[3]
CORPORA = Path(__file__).resolve().parent / "corpora"
LOCOMO = REPO.parent / "shared" / "bench" / "locomo" / "locomo_dev.json"


def _reference_hits(text: str, cues: list[str]) -> list[str]:
    joint = [cue for cue in cues if "+" in cue]
    parts = []
    for cue in cues:
        if "+" in cue:
            continue
        cue = unicodedata.normalize("NFKC", cue).lower().strip()
        if not cue:
            continue
        if cue.isascii():
            parts.append(r"(?<![a-z])" + re.escape(cue).replace(r"\ ", r"\s+") + r"[a-z]*")
        else:
            parts.append(re.escape(cue))
    out = [m.group(0) for m in re.finditer("|".join(parts), text)] if parts else []
    out += [cue for cue in joint if all(_reference_hits(text, [part]) for part in cue.split("+") if part)]
    return list(dict.fromkeys(out))


def _reference_about_the_user(text: str, policy: Policy) -> bool:
    for word in policy.self_reference_words:
        word = word.lower()
        if word.isascii():
            if re.search(r"(?<![\w'’])" + re.escape(word).replace("'", "['’]") + r"(?![\w'’])", text):
                return True
        elif word in text:
            return True
    return False


def _dev_batches() -> list[dict]:
    paths = sorted(CORPORA.glob("relevance_dev*.yaml"))
    assert len(paths) >= 4 and not any("test" in path.name for path in paths)
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in paths]


def _locomo() -> list[dict]:
    return json.loads(LOCOMO.read_text(encoding="utf-8"))


def _queries() -> list[str]:
    relevance = [query["q"] for batch in _dev_batches() for persona in batch["personas"] for query in persona["queries"]]
    questions = [qa["question"] for sample in _locomo() for qa in sample["qa"] if isinstance(qa.get("question"), str)]
    assert len(relevance) > 500 and len(questions) > 500
    return list(dict.fromkeys(relevance + questions))


def _memory_texts() -> list[str]:
    memories = [memory["content"] for batch in _dev_batches() for persona in batch["personas"]
                for memory in persona["memories"]]
    turns = [turn["text"] for sample in _locomo() for key, session in sample["conversation"].items()
             if key.startswith("session_") and isinstance(session, list) for turn in session]
    assert len(memories) > 500 and len(turns) > 1000
    return list(dict.fromkeys(memories + turns))


def _row_lists(policy: Policy) -> list[list[str]]:
    """The lists read against row texts or per row: the scenes', the pastimes' and the question cues'."""
    return [*policy.scene_cues.values(), *policy.pastime_kinds.values(), policy.name_question_cues,
            policy.slot_question_cues]


def _read_all(policy: Policy, queries: list[str], texts: list[str]) -> tuple[list, list]:
    readings = [(scenes.query_read(query, policy), scenes.query_read(query, policy, "travel"),
                 scenes.pastimes_asked(query, policy)) for query in queries]
    lists = _row_lists(policy)
    rows = [(scenes.text_scene(text, policy), scenes.pastime_kinds(text, policy),
             [scenes.cue_hits(text, cues) for cues in lists]) for text in texts]
    return readings, rows


@pytest.fixture(scope="module")
def strings() -> tuple[list[str], list[str]]:
    return _queries(), _memory_texts()


def test_every_dev_query_and_memory_reads_as_the_reference(strings, monkeypatch):
    queries, texts = strings
    policy = Policy()
    first = _read_all(policy, queries, texts)
    again = _read_all(Policy(), queries, texts)  # a fresh policy, as each request reads: the lists' values key them
    monkeypatch.setattr(scenes, "_hits", _reference_hits)
    monkeypatch.setattr(scenes, "_about_the_user", _reference_about_the_user)
    reference = _read_all(policy, queries, texts)
    for new in (first, again):
        mismatched = [(query, got, want) for query, got, want in zip(queries, new[0], reference[0]) if got != want]
        assert not mismatched, mismatched[:3]
        mismatched = [(text, got, want) for text, got, want in zip(texts, new[1], reference[1]) if got != want]
        assert not mismatched, mismatched[:3]
    # the comparison has something to compare: cues and prototypes read scenes, topics fire
    assert sum(1 for reading, _, _ in reference[0] if reading.scene_source == "cue") > 100
    assert sum(1 for reading, _, _ in reference[0] if reading.topics) > 100
    assert sum(1 for scene, _, _ in reference[1] if scene) > 200
    assert sum(1 for reading, _, _ in reference[0] if reading.forms) > 50


EDGE_CUES = ["home for+flight", "回家+票", "c++", "3d", "wi-fi密码", "a b", "+", " ", "x+ +y", "(pre)", "ｓｋｉ",
             "allerg", "all", "Ｅ-mail", "e-mail", "gym+ "]
EDGE_TEXTS = ["heading home for the holidays, need a flight", "回家的票买了吗", "i write c++ and 3d shaders", "wifi",
              "wi-fi密码是多少", "a   b", "a\tb", "ab", "(pre) booking", "skiing in march", "allergies and all that",
              "e-mail me", "email", "x y", "", "+", "gym", "the gym tonight"]


def test_edge_cues_match_as_the_reference():
    """Cues a policy override may hold: joint ones with blank parts, punctuation and digits first, spaces,
    full-width letters, one cue a prefix of another (the first listed wins where both start)."""
    policy = replace(Policy(), topic_cues={"edge": EDGE_CUES, "reversed": EDGE_CUES[::-1]})
    for text in EDGE_TEXTS:
        for cues in policy.topic_cues.values():
            assert scenes.cue_hits(text, cues) == scenes.cue_hits(text, cues) \
                == _reference_hits(unicodedata.normalize("NFKC", text).lower(), cues), (text, cues)
    assert "home for+flight" in scenes.cue_hits("heading home for the holidays, need a flight", EDGE_CUES)
    assert scenes.cue_hits("allergies and all that", ["all", "allerg"]) == ["allergies", "all"]
    assert "+" in scenes.cue_hits("anything", ["+"])  # no part at all holds, as it always did
