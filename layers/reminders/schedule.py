BEAT_SCHEDULE = {
    "reminders-dispatch": {"task": "reminders.tasks.reminders_dispatch", "schedule": 15.0},
}
