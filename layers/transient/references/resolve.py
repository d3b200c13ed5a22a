"""Reference resolution over the working-memory registry of one session (offline, zh and en).

A referring expression ("它", "那家", "the blue one", "those two", "there") sets constraints
(referring.py); the registry's entities that agree with them and with the predicate of the utterance
(agreement.py) are the candidates; attributes, ordinals, groups and recency choose among them, with a
confidence (scoring.py). The registry itself is registry.py; mentions come from extract.py.
"""
from __future__ import annotations

import re
from dataclasses import replace

from layers.transient.references.extract import mentions_extract
from layers.transient.references.referring import references_find, zero_reference
from layers.transient.references.registry import (
    MAX_REFERENCES,
    MAX_TURN_CHARS,
    Entity,
    Registry,
    entity_key,
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
    names = [m.name for m in named]  # the utterance's own names, no topic of any reference (scoring._topical)
    budget = PREFIX_REFERENCES
    for ref in refs:
        governed = _governed(utterance, ref, named)
        named_ref = [m for m in named if m not in governed]
        scratch, originals = registry, {}
        low = max(0, ref.start - PREFIX_WINDOW)
        if ref.place:
            # "Is parking expensive there?": a place in the clause of "there" is not what it points to.
            clause = max(utterance.rfind(mark, 0, ref.start) for mark in ",.;!?，。；！？")
            named_here = [m for m in named_ref if m.end <= clause + 1]
            end = clause + 1
        else:
            named_here, end = named_ref, ref.start
        if budget and low < end and any(low <= m.start and m.end <= end for m in named_here):
            budget -= 1
            scratch, originals = _with_prefix(registry, utterance[low:end], governed)
        resolution = reference_resolve(scratch, ref, utterance, not_these={entity_key(m.name) for m in governed},
                                       named=names)
        resolution.entities = [originals.get(id(e), e) for e in resolution.entities]
        resolution.candidates = [originals.get(id(e), e) for e in resolution.candidates]
        resolutions.append(resolution)
    return resolutions


# "a claim for it", "flights to both of them", "the refund for it": the noun the reference depends on;
# "attach it to the email", "send them to Priya": where it goes. Neither is what the reference means.
_GOVERNS = re.compile(r"\s+(?:for|to|of|about|on|from|with|into|against)\s+(?:the\s+|my\s+)?$", re.I)
_GOVERNED = re.compile(r"^\s+(?:to|into|onto|with|for|on|in|from)\s+(?:(?:the|my|a|an|our|your)\s+)?$", re.I)


def _governed(utterance: str, ref, named: list) -> list:
    """The mentions of the utterance tied to the reference by a preposition (English only: in zh the
    words of "把它发给张总" are kept apart by the verb, and 它的X is a part of it, not a mention)."""
    end = ref.start + len(ref.text)
    return [m for m in named
            if (m.end <= ref.start and _GOVERNS.fullmatch(" " + utterance[m.end:ref.start]))
            or (m.start >= end and _GOVERNED.fullmatch(utterance[end:m.start]))]


def _with_prefix(registry: Registry, prefix: str, governed: list = ()) -> tuple[Registry, dict]:
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
    touched = scratch.update(max((e.last_turn for e in registry.entities), default=0) + 1, "user", prefix)
    keys = {entity_key(m.name) for m in governed}
    # A governed noun is not added as if it had been said before the reference.
    scratch.entities = [e for e in scratch.entities
                        if not (e.key in keys and any(e is t for t in touched) and id(e) not in originals)]
    return scratch, originals
