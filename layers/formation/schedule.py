BEAT_SCHEDULE = {
    "formation-catch-up": {"task": "formation.catch_up", "schedule": 60.0},
}
