"""Conditional preferences from what the user said: the offline parser's variants
(layers/long_term/conditions/parser.py) added to an extraction result as items the writer stores like any other,
after the same guard (layers/formation/extractor/guard.py). Called for every extractor, offline or LLM, so a
stated exception ("avoid highways unless I'm going to the airport") is kept either way."""
from __future__ import annotations

from dataclasses import replace

from layers.formation.extractor import (
    ExtractedItem,
    ExtractionResult,
    as_transcript_turns,
    guard_items,
)
from layers.long_term.conditions.parser import conditional_preferences_parse
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import contains_secret

# Said in so many words but read by rules: below a statement the user confirmed (1.0), so stored as inferred.
CONFIDENCE = 0.9
IMPORTANCE = 0.6


def conditional_items_add(result: ExtractionResult, transcript, *, user_id: str | None) -> ExtractionResult:
    """`result` with one item per general preference and conditional variant the user turns state."""
    items = []
    for turn in as_transcript_turns(transcript):
        if turn.role.lower() != "user" or contains_secret(turn.content) or injection_reasons(turn.content):
            continue
        for variant in conditional_preferences_parse(turn.content):
            items.append(ExtractedItem(
                kind="preference", memory_key=variant.memory_key, value=variant.value, content=variant.content,
                entities=(), confidence=CONFIDENCE, importance=IMPORTANCE, source_turn_seq=turn.seq,
                attributes={**variant.attributes(), "origin": "conditions"}))
    if not items:
        return result
    kept, dropped = guard_items(items, user_id=user_id)
    merged = result.dropped.copy()
    merged.update(dropped)
    return replace(result, items=[*result.items, *kept], dropped=merged)
