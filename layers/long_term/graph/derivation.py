"""Which edges one memory states: from its memory_key family (policy.graph.predicates), the attribute
or first entity that names the object, and any explicit `relations` attribute
([{subject?, predicate, object}], subject defaulting to the user). Pure: no database."""
from __future__ import annotations

from dataclasses import dataclass

from layers.long_term.graph.models import USER_ENTITY, Edge, entity_key
from layers.long_term.graph.policy import GraphPolicy, family_of


@dataclass(frozen=True)
class EdgeSpec:
    subject: str
    predicate: str
    object: str

    @property
    def identity(self) -> tuple[str, str, str]:
        return entity_key(self.subject), self.predicate, entity_key(self.object)


def _text(value) -> str | None:
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        text = " ".join(str(value).split())[:Edge.ENTITY_MAX_LENGTH]
        return text or None
    return None


def _predicate_for(memory_key: str, policy: GraphPolicy) -> str | None:
    family = family_of(policy.predicates, memory_key)
    if family:
        return policy.predicates[family]
    # A key of the user's own outside the table still says something about them: user.favourite_colour
    # derives "favourite_colour".
    if memory_key.startswith("user.") and memory_key.count(".") == 1:
        return memory_key[len("user."):][:Edge.PREDICATE_MAX_LENGTH] or None
    return None


def edges_for(*, memory_key: str, attributes: dict, entities: list[str], policy: GraphPolicy) -> list[EdgeSpec]:
    """The edges a memory with these fields states, each once."""
    attributes = attributes if isinstance(attributes, dict) else {}
    found: list[EdgeSpec] = []
    predicate = _predicate_for(memory_key, policy) if memory_key else None
    if predicate:
        family = family_of(policy.object_attributes, memory_key)
        target = _text(attributes.get(policy.object_attributes[family])) if family else None
        named = family_of(policy.named_families, memory_key) is not None
        if named:
            # The role: as the client named it (relation: 女儿), else the key's last part (daughter).
            role = target or _text(memory_key.rsplit(".", 1)[-1])
            name = _text(attributes.get("name")) or next(
                (_text(e) for e in entities if _text(e) and entity_key(e) != entity_key(role or "")), None)
            if role:
                found.append(EdgeSpec(USER_ENTITY, predicate, role))
                if name:
                    found.append(EdgeSpec(role, "named", name))
        else:
            target = target or next((_text(e) for e in entities if _text(e)), None)
            if target:
                found.append(EdgeSpec(USER_ENTITY, predicate, target))
    for relation in attributes.get("relations") or []:
        if not isinstance(relation, dict):
            continue
        subject = _text(relation.get("subject")) or USER_ENTITY
        target, verb = _text(relation.get("object")), relation.get("predicate")
        if target and isinstance(verb, str) and verb:
            found.append(EdgeSpec(subject, verb[:Edge.PREDICATE_MAX_LENGTH], target))
    unique: dict[tuple, EdgeSpec] = {}
    for spec in found:
        unique.setdefault(spec.identity, spec)
    return list(unique.values())
