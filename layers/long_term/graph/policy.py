"""The graph's policy for one tenant (memoryhub/core/policy.py): which predicate each memory_key family
derives, where its object is, the business weight of each predicate (hot and cold), and the JSON Schema
of each key family's attributes. Overridden by global permanent entries `policy.graph.<field>`; dict
fields merge key by key over the defaults, so one family's schema can change without restating all.

A family is an exact key (`user.employer`) or a prefix ending in `*` (`user.relationship.*`); the most
specific one that matches a key applies, and `*` alone applies to every memory.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from memoryhub.core.policy import policy_read, setting

_TEXT = {"type": "string", "minLength": 1, "maxLength": 200}


def _default_predicates() -> dict[str, str]:
    return {
        "user.employer": "works_at", "user.former_employer": "worked_at", "user.occupation": "works_as",
        "user.home_city": "lives_in", "user.work_city": "works_in", "user.hometown": "comes_from",
        "user.allergies": "allergic_to", "user.health_conditions": "has_condition", "user.medications": "takes",
        "user.food_restrictions": "avoids", "user.diet": "follows_diet", "user.likes": "likes",
        "user.dislikes": "dislikes", "user.languages": "speaks", "user.education": "studied_at",
        "user.name": "named", "user.relationship.*": "has_relative", "user.pet.*": "has_pet",
    }


def _default_object_attributes() -> dict[str, str]:
    # The attribute that names the object when the client gave one; otherwise the memory's first entity.
    return {"user.employer": "employer", "user.former_employer": "employer", "user.home_city": "city",
            "user.work_city": "city", "user.allergies": "allergen", "user.relationship.*": "relation",
            "user.pet.*": "species"}


def _default_weights() -> dict[str, float]:
    # What it costs an agent to miss the fact: health first, then who and where the user is, tastes last.
    return {"allergic_to": 1.0, "has_condition": 1.0, "takes": 0.9, "avoids": 0.8, "follows_diet": 0.7,
            "named": 0.7, "has_relative": 0.7, "has_pet": 0.6, "works_at": 0.7, "lives_in": 0.7,
            "works_as": 0.6, "works_in": 0.6, "speaks": 0.5, "comes_from": 0.4, "studied_at": 0.4,
            "worked_at": 0.3, "likes": 0.4, "dislikes": 0.4, "resolved_by": 0.8}


def _default_schemas() -> dict[str, dict[str, Any]]:
    # Only the named attributes are typed: others (the extractor's lang, session, turns) stay free.
    return {
        "*": {"type": "object", "properties": {"relations": {
            "type": "array", "maxItems": 20, "items": {
                "type": "object", "required": ["predicate", "object"], "additionalProperties": False,
                "properties": {"subject": _TEXT, "object": _TEXT,
                               "predicate": {"type": "string", "pattern": "^[a-z][a-z0-9_]{0,63}$"}}}}}},
        "user.employer": {"type": "object", "properties": {"employer": _TEXT, "role": _TEXT, "since": _TEXT}},
        "user.relationship.*": {"type": "object", "properties": {
            "relation": _TEXT, "name": _TEXT, "age": {"type": "integer", "minimum": 0, "maximum": 150}}},
        "user.pet.*": {"type": "object", "properties": {
            "species": _TEXT, "name": _TEXT, "breed": _TEXT, "age": {"type": "integer", "minimum": 0, "maximum": 100}}},
        "user.allergies": {"type": "object", "properties": {
            "allergen": _TEXT, "severity": {"enum": ["mild", "moderate", "severe"]}}},
        "user.home_city": {"type": "object", "properties": {"city": _TEXT}},
        "user.work_city": {"type": "object", "properties": {"city": _TEXT}},
    }


@dataclass(frozen=True)
class GraphPolicy:
    SECTION: ClassVar[str] = "graph"

    predicates: dict[str, str] = setting(default_factory=_default_predicates, merge=True)
    object_attributes: dict[str, str] = setting(default_factory=_default_object_attributes, merge=True)
    # Families whose object is a role (女儿, dog) that may carry a name: "女儿 —named→ 朵朵".
    named_families: list[str] = setting(default_factory=lambda: ["user.relationship.*", "user.pet.*"])
    predicate_weights: dict[str, float] = setting(default_factory=_default_weights, low=0.0, high=10.0, merge=True)
    default_weight: float = setting(0.5, low=0.0, high=10.0)
    attribute_schemas: dict[str, dict[str, Any]] = setting(default_factory=_default_schemas, merge=True)

    def weight(self, predicate: str) -> float:
        return float(self.predicate_weights.get(predicate, self.default_weight))


def family_of(patterns, memory_key: str) -> str | None:
    """The most specific family in `patterns` that `memory_key` belongs to (exact, then longest prefix)."""
    if memory_key in patterns:
        return memory_key
    prefixes = [p for p in patterns if p.endswith("*") and p != "*" and memory_key.startswith(p[:-1])]
    return max(prefixes, key=len) if prefixes else None


def graph_policy(tenant_id: int) -> GraphPolicy:
    return policy_read(GraphPolicy, tenant_id)
