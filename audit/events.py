"""The registry of audit event types: every event the trail can hold is declared once, by the app
whose change it records, with the type of object it is about and what its before/after hold.

`audit_record` refuses an event that was not declared, so a misspelt action cannot slip into the
chain, and the console shows each type's translated label instead of its dotted name.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise


@dataclass(frozen=True)
class EventType:
    name: str           # "memory.soft_deleted": <object>.<what happened>
    object_type: str    # "long_term.memory"
    label: str | Promise
    before: str = ""    # what `before` holds (never user text: digests and ids only)
    after: str = ""     # what `after` holds


_REGISTRY: dict[str, EventType] = {}


def event_type(name: str, *, object_type: str, label, before: str = "", after: str = "") -> EventType:
    """Declare an event type (at import of the declaring app's `events` module)."""
    declared = EventType(name=name, object_type=object_type, label=label, before=before, after=after)
    existing = _REGISTRY.get(name)
    if existing is not None and existing != declared:
        raise ValueError(f"audit event {name!r} is declared twice, differently")
    _REGISTRY[name] = declared
    return declared


def event_type_get(event: str | EventType) -> EventType:
    if isinstance(event, EventType):
        return event
    try:
        return _REGISTRY[event]
    except KeyError:
        raise ValueError(f"audit event {event!r} was never declared (see audit/events.py)") from None


def event_label(name: str):
    """The translated label of a declared event, or its name for one no longer declared."""
    declared = _REGISTRY.get(name)
    return declared.label if declared is not None else name


def event_types() -> list[EventType]:
    return sorted(_REGISTRY.values(), key=lambda e: e.name)
