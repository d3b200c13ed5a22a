BEAT_SCHEDULE = {
    "transient-sweep-expired-tasks": {"task": "transient.tasks.task_states_sweep_expired", "schedule": 60.0},
}
