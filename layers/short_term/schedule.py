BEAT_SCHEDULE = {
    "short-term-expire-idle-sessions": {"task": "short_term.tasks.sessions_expire_idle", "schedule": 300.0},
}
