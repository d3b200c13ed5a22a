BEAT_SCHEDULE = {
    "long-term-flush-access": {"task": "long_term.flush_access", "schedule": 30.0},
    "long-term-reembed": {"task": "long_term.reembed", "schedule": 600.0},
    "long-term-large-owner-indexes": {"task": "long_term.large_owner_indexes", "schedule": 900.0},
}
