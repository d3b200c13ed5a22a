# Long-term forgetting; the transient task sweep and the idle-session expiry are scheduled by their own
# layers, since they are those layers' lifetimes rather than forgetting of memories.
BEAT_SCHEDULE = {
    "forget-long-term-expire": {"task": "forgetting.run", "schedule": 3600.0, "args": ["long_term.expire"]},
    "forget-long-term-archive-decayed": {"task": "forgetting.run", "schedule": 6 * 3600.0,
                                         "args": ["long_term.archive_decayed"]},
    "forget-long-term-decay-habits": {"task": "forgetting.run", "schedule": 3600.0, "args": ["long_term.decay_habits"]},
    "forget-long-term-archive-over-capacity": {"task": "forgetting.run", "schedule": 6 * 3600.0,
                                              "args": ["long_term.archive_over_capacity"]},
    "forget-long-term-purge-deleted": {"task": "forgetting.run", "schedule": 6 * 3600.0,
                                       "args": ["long_term.purge_deleted"]},
}
