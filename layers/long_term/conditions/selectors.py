"""Which variant of a user's conditional preferences applies to a request."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

import re

from layers.long_term.conditions.lexicon import GENERIC_TOPIC_DOMAINS, TOPIC_BY_KEY, topic_key
from layers.long_term.conditions.condition import (
    RequestFacts,
    condition_holds,
    condition_normalise,
)
from layers.long_term.conditions.reading import Heard, topics_in_domain, values_heard
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
        # a key the lexicon does not know is about the request when the request says its topic: the
        # topic's words (lexicon.GENERIC_TOPICS), the key's own words or a value stored under it
        relevant = bool(matched) or about_topic or hit or (not known and generic_about(key, rows, facts.text))
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


def _key_words(memory_key: str) -> list[str]:
    """The words of a key's last part, as stems: `user.preference.hotel_floor` → hotel, floor; `lighting` → light."""
    tail = memory_key.removeprefix(PREFERENCE_PREFIX).rsplit(".", 1)[-1]
    words = [w for w in re.split(r"[_\W]+", tail.lower()) if len(w) >= 3]
    return [re.sub(r"(?:ing|ment|ments|ations?|s)$", "", w) if len(w) > 5 else w for w in words]


def _said(words: str, text: str) -> re.Match | None:
    """`words` said in `text`: Latin on word boundaries (any case), CJK as a substring."""
    escaped = re.escape(words.strip())
    if not escaped:
        return None
    if re.search(r"[A-Za-z0-9]", words):
        return re.search(rf"(?<![A-Za-z0-9]){escaped}", text, re.IGNORECASE)
    return re.search(escaped, text)


def generic_about(memory_key: str, rows: list[Memory], text: str) -> bool:
    """Whether a request is about a preference key the lexicon has no values for."""
    slug = memory_key.removeprefix(PREFERENCE_PREFIX)
    if slug in GENERIC_TOPIC_DOMAINS and GENERIC_TOPIC_DOMAINS[slug].search(text):
        return True
    if any(_said(word, text) for word in _key_words(memory_key)):
        return True
    values = {stored_value(m) for m in rows} - {None}
    return any(len(v.strip()) >= 2 and _said(v, text) for v in values)


# "pay the electricity bill with WeChat", "book it via Expedia": the means a request names.
_MEANS = re.compile(r"\b(?:with|via|using|by)\s+(?P<en>(?!the\b|a\b|an\b|my\b|me\b|it\b)[A-Za-z][\w-]*(?:\s+[A-Z][\w-]*)?)"
                    r"|(?:用|刷)(?P<zh>[\u4e00-\u9fff]{2,4}?)(?:付|支付|买|结|$|[，。,.])")


def generic_requested(memory: Memory, text: str) -> Heard | None:
    """The value a request asks for, against a preference of a key the lexicon has no values for: another value
    stored under the key ("I want a window seat" against aisle, window stored for long-haul flights), or the
    means it names when it is about the key's topic ("pay … with WeChat" against alipay). None when the
    request asks for the stored value or says none."""
    if topic_known(topic_key(memory.memory_key)):
        return None
    stored = stored_value(memory)
    if stored is None:
        return None
    siblings = Memory.objects.filter(tenant_id=memory.tenant_id, user_id=memory.user_id, memory_key=memory.memory_key,
                                     status=MemoryStatus.ACTIVE).exclude(pk=memory.pk)
    if _said(stored, text):
        return None
    for other in {stored_value(m) for m in siblings} - {None, stored}:
        heard = _said(other, text) if len(other.strip()) >= 2 else None
        if heard:
            return Heard(memory.memory_key, other, heard.group(0), heard.start(), heard.end())
    if not generic_about(memory.memory_key, [memory, *siblings], text):
        return None
    means = _MEANS.search(text)
    if means:
        words = means.group("en") or means.group("zh")
        value = words.lower() if means.group("en") else words
        if value.casefold() != stored.casefold():
            return Heard(memory.memory_key, value, words, means.start(), means.end())
    return None
