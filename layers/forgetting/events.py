"""Audit events of the forgetting jobs (about long-term memories; before/after as layers/long_term/events.py)."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type
from layers.long_term.events import MEMORY

_STATE = "memory_audit_state (no user text)"

MEMORY_TTL_EXTENDED = event_type("memory.ttl_extended", object_type=MEMORY, label=_("memory kept, TTL extended"),
                                 before=_STATE, after=_STATE)
MEMORY_ARCHIVED = event_type("memory.archived", object_type=MEMORY, label=_("memory archived (decayed)"),
                             before=_STATE, after=_STATE + " + decayed score")
MEMORY_PURGED = event_type("memory.purged", object_type=MEMORY, label=_("memory purged after the grace period"),
                           before=_STATE)
MEMORY_HABIT_DECAYED = event_type("memory.habit_decayed", object_type=MEMORY,
                                  label=_("habit weakened: expected occurrences missed"),
                                  before=_STATE, after=_STATE + " + missed occurrences")
MEMORY_ARCHIVED_OVER_CAPACITY = event_type("memory.archived_over_capacity", object_type=MEMORY,
                                           label=_("memory archived (owner over capacity)"),
                                           before=_STATE, after=_STATE + " + capacity, active_before, rank")
