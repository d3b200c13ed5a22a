"""Reading preference values and condition dimensions out of a piece of text (layers/long_term/conditions/lexicon.py)."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from layers.long_term.conditions.lexicon import (
    DIMENSION_PATTERNS,
    TOPIC_ANCHOR_PATTERNS,
    TOPIC_ANCHORED_PATTERNS,
    TOPIC_DOMAIN_PATTERNS,
    TOPIC_VALUE_PATTERNS,
)


@dataclass(frozen=True)
class Heard:
    memory_key: str
    value: str
    words: str
    start: int
    end: int


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def values_heard(text: str) -> dict[str, Heard]:
    """Per topic, the value the text says: the longest match wins ("不走高速" over "走高速"), then the first;
    a topic's anchored words count only where the text names the topic, and a match inside a longer match of
    another topic is that topic's ("low to high" is a price order, not a volume)."""
    text = _norm(text)
    best_by_key: dict[str, Heard] = {}
    for key, patterns in TOPIC_VALUE_PATTERNS.items():
        groups = [patterns]
        if key in TOPIC_ANCHORED_PATTERNS and TOPIC_ANCHOR_PATTERNS[key].search(text):
            groups.append(TOPIC_ANCHORED_PATTERNS[key])
        best: Heard | None = None
        for group in groups:
            for value, pattern in group.items():
                for match in pattern.finditer(text):
                    length = match.end() - match.start()
                    if best is None or length > best.end - best.start or (
                            length == best.end - best.start and match.start() < best.start):
                        best = Heard(key, value, match.group(0), match.start(), match.end())
        if best is not None:
            best_by_key[key] = best
    return {key: heard for key, heard in best_by_key.items() if not any(
        other.memory_key != key and other.start <= heard.start and heard.end <= other.end
        and other.end - other.start > heard.end - heard.start for other in best_by_key.values())}


def topics_in_domain(text: str) -> set[str]:
    """Topics the text is about although it may say no value ("navigate to the office" is about routes)."""
    text = _norm(text)
    return {key for key, pattern in TOPIC_DOMAIN_PATTERNS.items() if pattern.search(text)}


def dimensions_heard(text: str, *, exclude: tuple[tuple[int, int], ...] = ()) -> dict[str, list[str]]:
    """dimension -> canonical values named in the text, outside the spans in `exclude` (the words of a value)."""
    text = _norm(text)
    out: dict[str, list[str]] = {}
    for dimension, values in DIMENSION_PATTERNS.items():
        for value, pattern in values.items():
            for match in pattern.finditer(text):
                if any(start <= match.start() < end for start, end in exclude):
                    continue
                out.setdefault(dimension, [])
                if value not in out[dimension]:
                    out[dimension].append(value)
                break
    return out
