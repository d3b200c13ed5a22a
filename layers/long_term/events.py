"""The long-term layer's audit events. before/after hold `memory_audit_state`: kind, status, key,
importance and a keyed digest of the content, never the content itself."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

MEMORY = "long_term.memory"
_STATE = "memory_audit_state (no user text)"

MEMORY_CREATED = event_type("memory.created", object_type=MEMORY, label=_("memory created"), after=_STATE)
MEMORY_QUARANTINED = event_type("memory.quarantined", object_type=MEMORY, label=_("memory quarantined"),
                                after=_STATE + " + quarantine reasons")
MEMORY_BATCH_CREATED = event_type("memory.batch_created", object_type=MEMORY, label=_("memories created (batch)"),
                                  after="ids and count")
MEMORY_MERGED = event_type("memory.merged", object_type=MEMORY, label=_("duplicate memory merged"),
                           before=_STATE, after=_STATE)
MEMORY_SUPERSEDED = event_type("memory.superseded", object_type=MEMORY, label=_("memory superseded"),
                               before=_STATE, after=_STATE + " + superseded_by")
MEMORY_UPDATED = event_type("memory.updated", object_type=MEMORY, label=_("memory corrected"),
                            before=_STATE, after=_STATE + " + changed fields")
MEMORY_SOFT_DELETED = event_type("memory.soft_deleted", object_type=MEMORY, label=_("memory deleted"),
                                 before=_STATE, after=_STATE)
MEMORY_RESTORED = event_type("memory.restored", object_type=MEMORY, label=_("memory restored"),
                             before=_STATE, after=_STATE)
MEMORY_REVERTED = event_type("memory.reverted", object_type=MEMORY, label=_("memory reverted to a version"),
                             before=_STATE, after=_STATE + " + history id")
MEMORY_RELEASED = event_type("memory.quarantine_released", object_type=MEMORY,
                             label=_("memory released from quarantine"), before=_STATE, after=_STATE)
MEMORY_HARD_DELETED = event_type("memory.hard_deleted", object_type=MEMORY, label=_("memory removed"),
                                 before=_STATE)
MEMORY_FEEDBACK = event_type("memory.feedback", object_type=MEMORY, label=_("feedback on a memory"),
                             before=_STATE, after=_STATE + " + feedback counts")
MEMORY_REEMBEDDED = event_type("memory.reembedded", object_type=MEMORY, label=_("memory re-embedded"),
                               before="embedding model", after="embedding model")
# Repeated requests contradicting a stored preference replaced it (layers/long_term/conditions/services.py).
PREFERENCE_CORRECTED = event_type("memory.preference_corrected", object_type=MEMORY,
                                  label=_("preference changed by repeated corrections"), before=_STATE,
                                  after=_STATE + " + replaced_by, value, corrections, reason")
# One per committed batch of manage.py import_memories (layers/long_term/services/bulk.py): counts per
# outcome, the batch's first and last line, the new ids and a keyed digest of their contents.
MEMORIES_IMPORTED = event_type("memory.imported", object_type=MEMORY, label=_("memories imported (batch)"),
                               after="lines, counts, users, memory_ids, digest")
MEMORIES_EXPORTED = event_type("memory.exported", object_type=MEMORY, label=_("memories exported"),
                               after="memories (the count), user (whether one user's)")
# A large owner's partial indexes built or dropped by their job (layers/long_term/services/large_owners.py).
MEMORY_OWNER_INDEXES = event_type("memory.owner_indexes", object_type=MEMORY,
                                  label=_("large owner's search indexes built or dropped"),
                                  after="action (built or dropped), indexes (the count), active_memories")
