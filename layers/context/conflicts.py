"""Conditional preferences and conflict signals in the context (docs/architecture.md, "Conditional preferences").

The profile serves, per preference key, the variant whose condition holds for the request (its query, task
type, scene and the task's slots) and withholds the others (layers/long_term/conditions/selectors.py). Where
the request asks for another value than the preference that applies ("这次按价格从高到低排" against a
stored ascending sort, "play it loud" against volume low), the context says so in `conflicts`, so the agent
can ask instead of silently following either.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from layers.long_term.conditions.lexicon import topic_key
from layers.long_term.conditions.condition import RequestFacts, condition_text
from layers.long_term.conditions.reading import values_heard
from layers.long_term.conditions.selectors import (
    generic_requested,
    preference_variants_select,
    stored_value,
)
from layers.long_term.policy import tenant_policy
from layers.long_term.selectors.scenes import query_read
from layers.transient.selectors import task_stack


def request_facts(tenant, *, query: str, task_type: str | None, slots: dict | None, scene: str | None,
                  session=None, scene_of=None) -> RequestFacts:
    """The request as conditions see it. Without slots (or a task type) in the request, the session's current
    task gives them ("book_taxi" with destination 机场); the scene, when not given, is the one search reads
    from the query (`scene_of(task_type)`, when given, is the request's reading of it: the context reads the
    query once, layers/context/selectors.py)."""
    if session is not None and (not slots or not task_type):
        current = next(iter(task_stack(session=session)), None)
        if current is not None:
            slots = slots or current.slots
            task_type = task_type or current.task_type.name
    if not scene:
        scene = scene_of(task_type) if scene_of is not None else query_read(query, tenant_policy(tenant.pk), task_type).scene
    return RequestFacts(text=query, task_type=task_type or None, scene=scene, slots=dict(slots or {}))


def _line(memory, reason: str, detail: dict) -> str:
    if reason == "condition_match":
        return f"- ({memory.kind}) {memory.content} [{_('applies')}: {condition_text(detail['condition'])}]"
    return f"- ({memory.kind}) {memory.content}"


def _conflict(memory, facts: RequestFacts) -> dict | None:
    heard = values_heard(facts.text).get(topic_key(memory.memory_key)) or generic_requested(memory, facts.text)
    stored = stored_value(memory)
    if heard is None or stored is None or heard.value == stored:
        return None
    condition = (memory.attributes or {}).get("condition")
    why = (_("the request asks for '%(requested)s' ('%(words)s') where the stored preference says '%(stored)s'")
           % {"requested": heard.value, "words": heard.words, "stored": stored})
    return {"memory_id": memory.pk, "memory_key": memory.memory_key, "stored_value": stored,
            "requested_value": heard.value, "requested_words": heard.words,
            **({"condition": condition} if condition else {}), "why": why}


def profile_conditions_apply(tenant, user_id: str, parts: list, facts: RequestFacts, make_part) -> tuple[list, list]:
    """`parts` of the profile with the conditional variants resolved, and the conflicts with the request.
    `make_part(source_id, text, score, detail)` builds a profile line (layers/context/selectors.py)."""
    searched = {part.detail.get("memory_id") for part in parts}
    selection = preference_variants_select(tenant=tenant, user_id=user_id, facts=facts, searched_ids=searched)
    kept = [part for part in parts if part.detail.get("memory_id") not in selection.withheld]
    by_id = {part.detail.get("memory_id"): index for index, part in enumerate(kept)}
    conflicts = []
    for applied in selection.applied:
        memory = applied.memory
        detail = {"memory_id": memory.pk, "kind": memory.kind, "reason": applied.reason,
                  "memory_key": memory.memory_key, **applied.detail}
        text = _line(memory, applied.reason, applied.detail)
        if memory.pk in by_id:
            part = kept[by_id[memory.pk]]
            part.text, part.detail = text, {**part.detail, **detail}
        else:
            score = round(memory.importance * memory.confidence * memory.feedback_weight, 6)
            kept.append(make_part(f"memory:{memory.pk}", text, score, detail))
        conflict = _conflict(memory, facts)
        if conflict:
            conflicts.append(conflict)
    return kept, conflicts
