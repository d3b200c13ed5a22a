BEAT_SCHEDULE = {
    # Scheduled changes take effect within this many seconds of their `effective_at`.
    "permanent-apply-due": {"task": "permanent.tasks.apply_due_change_requests", "schedule": 30.0},
}
