BEAT_SCHEDULE = {
    "long-term-flush-access": {"task": "long_term.flush_access", "schedule": 30.0},
    "long-term-archive-expired": {"task": "long_term.archive_expired", "schedule": 3600.0},
}
