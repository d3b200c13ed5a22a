"""What the conditional-preference corpora's tests share (tests/layers/long_term/conditions): a variant's key, a
statement read into variants, and a `serve` case played through the context's conditions."""
from __future__ import annotations

import json

from layers.context.conflicts import profile_conditions_apply, request_facts
from layers.context.selectors import Part
from layers.long_term.conditions.parser import conditional_preferences_parse
from layers.long_term.services import memory_create


def variant_key(variant: dict) -> tuple:
    return (variant["memory_key"], variant["value"], json.dumps(variant.get("condition"), sort_keys=True))


def variants_read(text: str) -> list[dict]:
    """The variants the offline parser reads in a statement, as the corpora label them."""
    return [{"memory_key": v.memory_key, "value": v.value, "condition": v.condition}
            for v in conditional_preferences_parse(text)]


def serve_case_play(case: dict, tenant, *, actor, user_id: str) -> tuple[set[int], set[tuple[int, str]]]:
    """Store the case's variants for `user_id`, make its request, and return which stored variants (by index)
    the context serves and which conflicts (index, requested value) it reports."""
    ids = []
    for variant in case["stored"]:
        attributes = {"value": variant["value"], **({"condition": variant["condition"]} if "condition" in variant else {})}
        ids.append(memory_create(tenant=tenant, actor=actor, user_id=user_id, kind="preference",
                                 content=f"preference {variant['memory_key']} {variant['value']} {attributes}",
                                 memory_key=variant["memory_key"], attributes=attributes).memory.pk)
    facts = request_facts(tenant, query=case["query"], task_type=case.get("task_type"), slots=case.get("slots"),
                          scene=None)
    parts, conflicts = profile_conditions_apply(tenant, user_id, [], facts, Part)
    return ({ids.index(part.detail["memory_id"]) for part in parts},
            {(ids.index(c["memory_id"]), c["requested_value"]) for c in conflicts})
