"""Writes of the long-term layer. Every one is audited in the transaction of its change."""
from layers.long_term.services.access import memory_access_flush, memory_access_record
from layers.long_term.services.changes import (
    memory_feedback,
    memory_hard_delete,
    memory_quarantine_release,
    memory_reembed,
    memory_restore,
    memory_revert,
    memory_soft_delete,
    memory_update,
)
from layers.long_term.services.create import (
    MemoryWrite,
    Outcome,
    memory_create,
    memory_create_batch,
)
from layers.long_term.services.reembedding import (
    memories_needing_reembed,
    memories_reembed,
)

__all__ = [
    "MemoryWrite", "Outcome", "memory_create", "memory_create_batch", "memory_update", "memory_soft_delete",
    "memory_restore", "memory_revert", "memory_quarantine_release", "memory_hard_delete", "memory_feedback",
    "memory_reembed", "memory_access_record", "memory_access_flush", "memories_needing_reembed",
    "memories_reembed",
]
