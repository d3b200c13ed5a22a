"""Which variant of a user's conditional preferences applies to a request."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from layers.long_term.conditions.lexicon import TOPIC_BY_KEY, topic_key
from layers.long_term.conditions.model import (
    RequestFacts,
    condition_holds,
    condition_normalise,
)
from layers.long_term.conditions.reading import topics_in_domain, values_heard
from layers.long_term.models import Memory, MemoryStatus

PREFERENCE_PREFIX = "user.preference."


@dataclass
class Applied:
    """A variant served for the request, and why."""
    memory: Memory
    reason: str  # "condition_match" | "condition_default"
    detail: dict = field(default_factory=dict)


@dataclass
class VariantSelection:
    applied: list[Applied] = field(default_factory=list)
    # variants not to serve for this request: a condition that does not hold, a default an exception overrides
    withheld: dict[int, str] = field(default_factory=dict)


def preference_variants(*, tenant, user_id: str) -> list[Memory]:
    """The user's active preferences that have variants: keyed `user.preference.*`, or carrying a condition."""
    active = Memory.objects.filter(tenant=tenant, user_id=user_id, status=MemoryStatus.ACTIVE).exclude(memory_key="")
    # the general rows of keys the client named outside `user.preference.` come with their exceptions
    keys = set(active.filter(attributes__has_key="condition").values_list("memory_key", flat=True))
    return list(active.filter(Q(memory_key__startswith=PREFERENCE_PREFIX) | Q(memory_key__in=keys)).order_by("id"))


def stored_value(memory: Memory) -> str | None:
    """What a preference says: `attributes.value`, else the value its content says (lexicon topics)."""
    value = (memory.attributes or {}).get("value")
    if isinstance(value, str) and value.strip():
        return value
    heard = values_heard(memory.content).get(topic_key(memory.memory_key))
    return heard.value if heard else None


def preference_variants_select(*, tenant, user_id: str, facts: RequestFacts,
                               searched_ids: set[int] = frozenset()) -> VariantSelection:
    """Per memory key: the variants whose condition holds for `facts` (most specific first) override the
    general preference; with none holding, the general preference applies. A key is looked at when the
    request is about it: a lexicon topic's words or values (layers/long_term/conditions/lexicon.py), a condition
    holding by the request's slots, task type or scene, or, for a key the lexicon does not know, a condition
    holding by the query's words or a search hit on a variant. Every conditional variant not served is withheld."""
    groups: dict[str, list[Memory]] = {}
    for memory in preference_variants(tenant=tenant, user_id=user_id):
        groups.setdefault(memory.memory_key, []).append(memory)
    about = topics_in_domain(facts.text) | set(values_heard(facts.text))
    selection = VariantSelection()
    for key, rows in groups.items():
        conditional = [m for m in rows if isinstance((m.attributes or {}).get("condition"), dict)]
        general = [m for m in rows if m not in conditional]
        matched = []
        for memory in conditional:
            evidence = condition_holds(memory.attributes["condition"], facts)
            if evidence is None:
                selection.withheld[memory.pk] = "condition_not_met"
            else:
                matched.append((memory, evidence))
        known, about_topic = topic_known(topic_key(key)), topic_key(key) in about
        # a search hit makes an unknown key's variants relevant; a lexicon topic's words decide for its own
        hit = not known and any(m.pk in searched_ids for m in rows)
        if known and not about_topic:
            # a lexicon topic's exception heard only in the query's words needs the request to be about the
            # topic ("what time does the airport shuttle leave?" is not a route); a slot, task type or scene
            # is the request saying so itself
            matched = [(m, ev) for m, ev in matched if any(e["via"] != "query" for e in ev)]
            for memory in conditional:
                if memory not in [m for m, _ in matched]:
                    selection.withheld.setdefault(memory.pk, "not_about_topic")
        relevant = bool(matched) or about_topic or hit
        if not relevant:
            continue
        if matched:
            matched.sort(key=lambda pair: (-len(pair[1]), -pair[0].pk))
            for memory, evidence in matched:
                selection.applied.append(Applied(memory, "condition_match", {
                    "condition": condition_normalise(memory.attributes["condition"]), "evidence": evidence,
                    **({"overrides": [m.pk for m in general]} if general else {})}))
            for memory in general:
                selection.withheld[memory.pk] = "overridden_by_condition"
        elif general:
            for memory in general:
                selection.applied.append(Applied(memory, "condition_default", {
                    **({"not_holding": [m.pk for m in conditional]} if conditional else {})}))
    return selection


def topic_known(memory_key: str) -> bool:
    return memory_key in TOPIC_BY_KEY
