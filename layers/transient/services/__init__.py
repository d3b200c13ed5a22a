"""Writes of the transient layer: task types (staff configuration, audited), task states, and the
sessions' working memory (entities and what references mean)."""
from layers.transient.services.entities import entity_registry_update  # noqa: F401
from layers.transient.services.sweep import task_states_sweep_expired  # noqa: F401
from layers.transient.services.task_states import TaskChange, task_start, task_update  # noqa: F401
from layers.transient.services.task_types import (  # noqa: F401
    task_type_create,
    task_type_delete,
    task_type_update,
    validate_task_type_fields,
)
