from celery.schedules import crontab

BEAT_SCHEDULE = {
    "audit-verify-chains": {"task": "audit.tasks.verify_audit_chains", "schedule": crontab(minute=17)},
}
