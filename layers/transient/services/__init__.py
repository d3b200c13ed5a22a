"""Writes of the transient layer: task types (staff configuration, audited) and task states."""
from layers.transient.services.task_states import (  # noqa: F401
    TaskChange,
    task_start,
    task_states_sweep_expired,
    task_update,
)
from layers.transient.services.task_types import (  # noqa: F401
    task_type_create,
    task_type_delete,
    task_type_update,
    validate_task_type_fields,
)
