"""Value types shared by every extractor (offline rules, LLM) and by the writer that stores their output."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

EXTRACTED_KINDS = ("preference", "fact", "event")

# Reasons an extractor leaves an item out; the counts travel with the result so jobs can report them.
DROP_SECRET = "secret"              # a password, key, card or ID number was in it
DROP_OTHER_USER = "other_user"      # it was about, or addressed to, another user's scope
DROP_FORBIDDEN_KEY = "forbidden_key"  # it tried to write a permanent/system/policy key
DROP_INVALID = "invalid"            # the LLM item did not fit the schema


@dataclass(frozen=True)
class TranscriptTurn:
    seq: int
    role: str  # "user" | "assistant" | "tool" | "system"
    content: str
    # An earlier turn passed only so later turns can refer back to it ("我有两个孩子" before "大的叫毛毛"):
    # extractors read it for context and emit nothing from it.
    context: bool = False


def as_transcript_turns(turns: Iterable[Any]) -> list[TranscriptTurn]:
    """Accepts `layers.short_term.models.Turn` rows, mappings or TranscriptTurns; sorted by seq."""
    out = []
    for turn in turns:
        if isinstance(turn, TranscriptTurn):
            out.append(turn)
        elif isinstance(turn, Mapping):
            out.append(TranscriptTurn(int(turn["seq"]), str(turn["role"]), str(turn.get("content") or ""),
                                      bool(turn.get("context"))))
        else:
            out.append(TranscriptTurn(int(turn.seq), str(turn.role), str(turn.content or "")))
    return sorted(out, key=lambda t: t.seq)


@dataclass(frozen=True)
class ExtractedItem:
    """One candidate long-term memory. Maps 1:1 onto `memory_create(...)` arguments:
    kind, content, memory_key, entities, attributes, confidence, importance, source="extracted",
    source_turn_from=source_turn_to=source_turn_seq. When `injection_reasons` is non-empty the
    writer must store it quarantined (memory_create also re-checks)."""

    kind: str
    memory_key: str | None
    value: str | None
    content: str
    entities: tuple[str, ...]
    confidence: float
    importance: float
    source_turn_seq: int
    attributes: dict = field(default_factory=dict)
    injection_reasons: tuple[str, ...] = ()

    @property
    def quarantine(self) -> bool:
        return bool(self.injection_reasons)


@dataclass
class ExtractionResult:
    items: list[ExtractedItem]
    dropped: Counter = field(default_factory=Counter)  # reason -> count (see DROP_*)
    extractor: str = ""
    extractor_version: str = ""
    covers_up_to: int | None = None  # highest turn seq looked at (the job's cursor moves here)

    @property
    def extractor_label(self) -> str:
        return f"{self.extractor}@{self.extractor_version}"
