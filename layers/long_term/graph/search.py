"""What the graph adds to a memory search (POST /api/v1/memories/search): the structured filter on
attributes, applied before the semantic paths, and the one-hop expansion along edges for an entity.

Both narrow the candidates to memory ids, which the search's SQL takes as one more metadata filter
(`memory_ids` in layers/long_term/selectors/search.py), so relevance, recency and the cutoff still rank
what is left."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _

from layers.long_term.graph.models import Edge, entity_key
from layers.long_term.graph.policy import graph_policy
from layers.long_term.graph.selectors import Neighbour, graph_expand
from layers.long_term.graph.services import edges_access_record
from layers.long_term.models import Memory
from memoryhub.core.errors import InvalidInput

MAX_CONDITIONS = 10


@dataclass
class SearchScope:
    memory_ids: list[int] | None = None  # None: no restriction
    expansion: list[Neighbour] = field(default_factory=list)


def _refuse(name: str, message: str) -> InvalidInput:
    return InvalidInput(message, code="invalid", details={"fields": {name: [message]}})


def _conditions_check(attributes) -> None:
    if not isinstance(attributes, dict) or not attributes or len(attributes) > MAX_CONDITIONS:
        raise _refuse("attributes", _("attributes must be an object of 1 to %d conditions") % MAX_CONDITIONS)
    for name, value in attributes.items():
        if not name or isinstance(value, (dict, list)) or value is None:
            raise _refuse(f"attributes.{name}", _("a condition is an attribute name and a string, number or "
                                                   "boolean it must equal"))


def _attribute_matches(tenant_id: int, user_id: str, attributes: dict) -> list[int]:
    """Ids of the user's memories meeting every condition. A condition holds when the memory's attributes
    say so, or, for a family's object attribute (employer, city, allergen, relation, species), when the
    memory's own edge names that object: "用户在网易工作" written without attributes still has
    employer 网易 through its edge user —works_at→ 网易."""
    policy = graph_policy(tenant_id)
    memories = Memory.objects.filter(tenant_id=tenant_id, user_id=user_id)
    for name, value in attributes.items():
        condition = Q(attributes__contains={name: value})
        predicates = {policy.predicates[family] for family, attribute in policy.object_attributes.items()
                      if attribute == name and family in policy.predicates}
        if predicates and isinstance(value, str):
            stating = Edge.objects.filter(tenant_id=tenant_id, user_id=user_id, predicate__in=predicates,
                                          object_key=entity_key(value)).values("memory_id")
            condition |= Q(id__in=stating)
        memories = memories.filter(condition)
    return list(memories.values_list("id", flat=True))


def _neighbourhood(tenant_id: int, user_id: str, entity: str) -> tuple[list[int], list[Neighbour]]:
    """The memories one hop around `entity`: those stating its current edges, and those that name it or a
    neighbour among their entities."""
    found = graph_expand(tenant_id=tenant_id, user_id=user_id, entity=entity)
    names = list({entity, *(n.neighbour for n in found)})
    ids = set(Memory.objects.filter(tenant_id=tenant_id, user_id=user_id, entities__overlap=names)
              .values_list("id", flat=True))
    ids.update(n.edge.memory_id for n in found)
    edges_access_record([n.edge.pk for n in found])
    return sorted(ids), found


def graph_search_scope(*, tenant_id: int, user_id: str, attributes: dict | None = None,
                       expand: str | None = None) -> SearchScope:
    """The candidate restriction for a search with `attributes` conditions and/or `expand`."""
    scope = SearchScope()
    if attributes is not None:
        _conditions_check(attributes)
        scope.memory_ids = _attribute_matches(tenant_id, user_id, attributes)
    if expand is not None:
        if not isinstance(expand, str) or not expand.strip() or len(expand) > Edge.ENTITY_MAX_LENGTH:
            raise _refuse("expand", _("expand must be an entity name of 1 to %d characters") % Edge.ENTITY_MAX_LENGTH)
        ids, scope.expansion = _neighbourhood(tenant_id, user_id, expand)
        scope.memory_ids = ids if scope.memory_ids is None else sorted(set(ids) & set(scope.memory_ids))
    return scope
