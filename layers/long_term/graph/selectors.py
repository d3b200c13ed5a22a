"""Reading the graph: one entity's neighbours, the one-hop expansion search uses, and the hot set."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from layers.long_term.graph.models import USER_ENTITY, Edge, entity_key
from layers.long_term.graph.policy import graph_policy
from layers.long_term.models import MemoryStatus
from memoryhub.providers.keywords import synonyms, tokenize

MAX_NEIGHBOURS = 200
# An edge is served while its memory is: active or superseded (its history). A deleted, archived or
# quarantined memory's edges are hidden with it and come back when it is restored or released.
_SERVED_MEMORY = (MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED)


@dataclass
class Neighbour:
    edge: Edge
    direction: str  # "out": entity —predicate→ neighbour; "in": neighbour —predicate→ entity
    neighbour: str
    weight: float

    @property
    def rank(self) -> float:
        # Hot and cold: served often × worth much. +1 so a fresh edge still ranks by its weight.
        return (self.edge.access_count + 1) * self.weight


def _is_ascii(text: str) -> bool:
    return text.isascii()


@functools.lru_cache(maxsize=4096)
def entity_aliases(entity: str) -> frozenset[str]:
    """The keys an entity is looked up by: itself, and its zh/en translations from the keyword layer's
    synonym table (memoryhub/providers/keywords.py), so 女儿 finds the extractor's role `daughter` and
    peanut finds 花生. Only the other script's members: the table also groups 儿子 with 女儿 as kids.
    Cached: a context reads the aliases of both ends of up to its hot set's edges (jieba per call), and
    the synonym table is the process's static one."""
    key = entity_key(entity)
    tokens = tokenize(key)
    if len(tokens) != 1:
        return frozenset((key,))
    return frozenset({key} | {alias for alias in synonyms(tokens[0]) if _is_ascii(alias) != _is_ascii(key)})


def _owned(tenant_id: int, user_id: str):
    return (Edge.objects.filter(tenant_id=tenant_id, user_id=user_id, memory__status__in=_SERVED_MEMORY)
            .select_related("memory"))


def _valid(queryset, *, at: datetime | None, include_closed: bool):
    if at is not None:
        return queryset.filter(Q(valid_to__isnull=True) | Q(valid_to__gt=at), valid_from__lte=at)
    if include_closed:
        return queryset
    return queryset.filter(valid_to__isnull=True, memory__status=MemoryStatus.ACTIVE)


def graph_neighbours(*, tenant_id: int, user_id: str, entity: str, at: datetime | None = None,
                     include_closed: bool = False, limit: int = MAX_NEIGHBOURS) -> list[Neighbour]:
    """Edges touching `entity` (either end) for one user: current ones, those valid `at` a moment, or all
    with history (`include_closed`); hottest first, then newest."""
    keys = entity_aliases(entity)
    edges = _valid(_owned(tenant_id, user_id).filter(Q(subject_key__in=keys) | Q(object_key__in=keys)),
                   at=at, include_closed=include_closed)
    policy = graph_policy(tenant_id)
    found = []
    for edge in edges.order_by("-valid_from", "-id")[:MAX_NEIGHBOURS * 2]:
        outgoing = edge.subject_key in keys
        found.append(Neighbour(edge=edge, direction="out" if outgoing else "in",
                               neighbour=edge.object if outgoing else edge.subject, weight=policy.weight(edge.predicate)))
    found.sort(key=lambda n: (-n.rank, n.edge.valid_to is not None, -n.edge.valid_from.timestamp()))
    return found[:limit]


def graph_expand(*, tenant_id: int, user_id: str, entity: str) -> list[Neighbour]:
    """One hop from `entity` along current edges (search's `expand`)."""
    return graph_neighbours(tenant_id=tenant_id, user_id=user_id, entity=entity)


def graph_hot_edges(*, tenant_id: int, user_id: str, limit: int = 20) -> list[Neighbour]:
    """The user's current edges, hottest first: what a context may draw on before searching."""
    policy = graph_policy(tenant_id)
    edges = _valid(_owned(tenant_id, user_id), at=None, include_closed=False).order_by("-id")[:MAX_NEIGHBOURS * 5]
    found = [Neighbour(edge=edge, direction="out" if edge.subject_key == USER_ENTITY else "in",
                       neighbour=edge.object, weight=policy.weight(edge.predicate)) for edge in edges]
    found.sort(key=lambda n: -n.rank)
    return found[:limit]


@dataclass
class HotEdge:
    neighbour: Neighbour
    named: str  # the end of the edge the texts named


def _named_in(alias: str, haystack: str) -> bool:
    if _is_ascii(alias):
        # "art" is not named in "start": a whole word or phrase of the text
        return re.search(rf"(?<![\w]){re.escape(alias)}(?![\w])", haystack) is not None
    return alias in haystack


def graph_hot_edges_about(*, tenant_id: int, user_id: str, texts: list[str], limit: int) -> list[HotEdge]:
    """The user's current edges with an end (other than the user) named in `texts` (a query, the entities of
    a session), or in a zh/en translation of them (entity_aliases); hottest first. What a context draws on
    first (layers/context/selectors.py)."""
    haystack = entity_key(" ".join(texts))
    if limit <= 0 or not haystack:
        return []
    found = []
    # The hot set: the hottest MAX_NEIGHBOURS current edges, so a user with thousands stays cheap on the context path.
    for neighbour in graph_hot_edges(tenant_id=tenant_id, user_id=user_id, limit=MAX_NEIGHBOURS):
        edge = neighbour.edge
        for end in (edge.object, edge.subject):
            if entity_key(end) == USER_ENTITY:
                continue
            if any(len(alias) >= 2 and _named_in(alias, haystack) for alias in entity_aliases(end)):
                found.append(HotEdge(neighbour=neighbour, named=end))
                break
        if len(found) >= limit:
            break
    return found
