BEAT_SCHEDULE = {
    "formation-catch-up": {"task": "formation.catch_up", "schedule": 60.0},
    # Habits also form from sessions that never end: once a day for everyone who spoke that day.
    "formation-habits-catch-up": {"task": "formation.habits_catch_up", "schedule": 24 * 3600.0},
}
