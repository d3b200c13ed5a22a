# The transient task sweep and idle-session expiry are scheduled by their own layers.
BEAT_SCHEDULE = {
    "formation-catch-up": {"task": "formation.catch_up", "schedule": 60.0},
    "forget-long-term-expire": {"task": "formation.forget", "schedule": 3600.0, "args": ["long_term.expire"]},
    "forget-long-term-archive-decayed": {"task": "formation.forget", "schedule": 6 * 3600.0,
                                         "args": ["long_term.archive_decayed"]},
    "forget-long-term-purge-deleted": {"task": "formation.forget", "schedule": 6 * 3600.0,
                                       "args": ["long_term.purge_deleted"]},
    "long-term-reembed": {"task": "formation.reembed", "schedule": 600.0},
}
