"""Reference resolution over the working-memory registry of one session (offline, zh and en).

A referring expression ("它", "那家", "the blue one", "those two", "there") sets constraints
(referring.py); the registry's entities that agree with them and with the predicate of the utterance
(agreement.py) are the candidates; attributes, ordinals, groups and recency choose among them, with a
confidence (scoring.py). The registry itself is registry.py; mentions come from extract.py.
"""
from __future__ import annotations

from layers.transient.references.referring import references_find, zero_reference
from layers.transient.references.registry import (
    MAX_REFERENCES,
    MAX_TURN_CHARS,
    Entity,
    Registry,
)
from layers.transient.references.scoring import (
    CONFIDENCE_THRESHOLD,
    Resolution,
    reference_resolve,
)

__all__ = ["CONFIDENCE_THRESHOLD", "MAX_REFERENCES", "MAX_TURN_CHARS", "Entity", "Registry", "Resolution",
           "references_resolve_text"]


def references_resolve_text(registry: Registry, utterance: str) -> list[Resolution]:
    """Every referring expression of `utterance` resolved against the registry (before the
    utterance's own mentions are added)."""
    utterance = utterance[:MAX_TURN_CHARS]
    refs = references_find(utterance)[:MAX_REFERENCES]
    if not refs:
        zero = zero_reference(utterance)
        refs = [zero] if zero else []
    return [reference_resolve(registry, ref, utterance) for ref in refs]
