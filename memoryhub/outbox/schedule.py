BEAT_SCHEDULE = {
    "outbox-flush": {"task": "outbox.tasks.outbox_flush", "schedule": 15.0},
}
