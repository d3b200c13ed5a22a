"""Reference resolution over the working-memory registry of one session (offline, zh and en).

A referring expression ("它", "那家", "the blue one", "those two", "there") sets constraints
(referring.py); the registry's entities that agree with them and with the predicate of the utterance
(agreement.py) are the candidates; attributes, ordinals, groups and recency choose among them, with a
confidence (scoring.py). The registry itself is registry.py; mentions come from extract.py.
"""
from __future__ import annotations

from dataclasses import replace

from layers.transient.references.extract import mentions_extract
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

PREFIX_WINDOW = 200
PREFIX_REFERENCES = 3

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
    resolutions = []
    # Antecedents inside the utterance: near the reference, and looked for at a few references only, so
    # a long turn stays cheap on the append path (one extraction of the utterance, then a window each).
    named = [m for m in mentions_extract(utterance, "user") if not m.weak] if refs else []
    budget = PREFIX_REFERENCES
    for ref in refs:
        scratch, originals = registry, {}
        low = max(0, ref.start - PREFIX_WINDOW)
        if ref.place:
            # "Is parking expensive there?": a place in the clause of "there" is not what it points to.
            clause = max(utterance.rfind(mark, 0, ref.start) for mark in ",.;!?，。；！？")
            named_here = [m for m in named if m.end <= clause + 1]
            end = clause + 1
        else:
            named_here, end = named, ref.start
        if budget and low < end and any(low <= m.start and m.end <= end for m in named_here):
            budget -= 1
            scratch, originals = _with_prefix(registry, utterance[low:end])
        resolution = reference_resolve(scratch, ref, utterance)
        resolution.entities = [originals.get(id(e), e) for e in resolution.entities]
        resolutions.append(resolution)
    return resolutions


def _with_prefix(registry: Registry, prefix: str) -> tuple[Registry, dict]:
    """The registry as it stands at a reference inside the utterance: "Did the invoice and receipt go
    through? Send them to finance" names the antecedents before the pronoun. A copy of the registry with
    the prefix added as the latest turn; {id(copy): original} maps what was copied back."""
    originals, copies = {}, []
    for entity in registry.entities:
        copy = replace(entity, aliases=list(entity.aliases), attributes=list(entity.attributes),
                       clauses=list(entity.clauses), numbers=list(entity.numbers))
        originals[id(copy)] = entity
        copies.append(copy)
    scratch = Registry(copies, size=registry.size)
    for name in ("asked_types", "asked_name"):
        if hasattr(registry, name):
            setattr(scratch, name, getattr(registry, name))
    scratch.update(max((e.last_turn for e in registry.entities), default=0) + 1, "user", prefix)
    return scratch, originals
