"""Extraction: turning session turns into candidate long-term memories (pure logic, no database).

Public interface for the jobs that write memories:

    extract_memories(turns, *, user_id=None) -> ExtractionResult      offline, deterministic rules
    guard_items(items, *, user_id) -> (kept, Counter of drop reasons) the shared safety gate
    key_allowed(memory_key) -> bool                                    only `user.*` keys (or None)

    TranscriptTurn(seq, role, content); as_transcript_turns(rows_or_dicts)
    ExtractedItem(kind, memory_key, value, content, entities, confidence, importance,
                  source_turn_seq, attributes, injection_reasons)  -> .quarantine
    ExtractionResult(items, dropped, extractor, extractor_version, covers_up_to) -> .extractor_label

Writer contract: for each item call `memory_create(kind=item.kind, content=item.content,
memory_key=item.memory_key, entities=item.entities, attributes=item.attributes,
confidence=item.confidence, importance=item.importance, source="extracted",
source_turn_from=item.source_turn_seq, source_turn_to=item.source_turn_seq,
extractor=result.extractor_label, user_id=<the session's user>)`; items with `.quarantine` must be
stored quarantined. `result.dropped` (secret / other_user / forbidden_key / invalid) is for the job
report and audit, never stored as content.
"""
from layers.formation.extractor.guard import guard_item, guard_items
from layers.formation.extractor.keys import key_allowed
from layers.formation.extractor.offline import (
    EXTRACTOR_NAME,
    EXTRACTOR_VERSION,
    extract_memories,
)
from layers.formation.extractor.types import (
    DROP_FORBIDDEN_KEY,
    DROP_INVALID,
    DROP_OTHER_USER,
    DROP_SECRET,
    EXTRACTED_KINDS,
    ExtractedItem,
    ExtractionResult,
    TranscriptTurn,
    as_transcript_turns,
)

__all__ = [
    "DROP_FORBIDDEN_KEY", "DROP_INVALID", "DROP_OTHER_USER", "DROP_SECRET", "EXTRACTED_KINDS", "EXTRACTOR_NAME",
    "EXTRACTOR_VERSION", "ExtractedItem", "ExtractionResult", "TranscriptTurn", "as_transcript_turns",
    "extract_memories", "guard_item", "guard_items", "key_allowed",
]
