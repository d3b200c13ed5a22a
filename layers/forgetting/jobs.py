"""The forgetting jobs, in the order `manage.py forget` and the beat run them.

Each is a service of its own layer with a `dry_run` flag; this module only names them, so the
command, the periodic tasks and the dry-run report always agree on what "forgetting" means.
"""
from __future__ import annotations

from collections.abc import Callable

from layers.forgetting.capacity import memories_archive_over_capacity
from layers.forgetting.habits import habits_decay
from layers.forgetting.services import (
    memories_archive_decayed,
    memories_expire,
    memories_purge_deleted,
)
from layers.short_term.services import sessions_expire_idle
from layers.transient.services import task_states_sweep_expired

FORGETTING_JOBS: dict[str, Callable[..., dict]] = {
    "transient.sweep_expired_tasks": task_states_sweep_expired,
    "short_term.expire_idle_sessions": sessions_expire_idle,
    "long_term.expire": memories_expire,
    "long_term.archive_decayed": memories_archive_decayed,
    "long_term.decay_habits": habits_decay,
    "long_term.archive_over_capacity": memories_archive_over_capacity,
    "long_term.purge_deleted": memories_purge_deleted,
}


def forget_run(*, dry_run: bool = False, now=None, jobs: list[str] | None = None) -> dict[str, dict]:
    """Run (or, with `dry_run`, only report) each forgetting job; {job name: its report}."""
    return {name: FORGETTING_JOBS[name](now=now, dry_run=dry_run) for name in (jobs or FORGETTING_JOBS)}
