"""The Celery app, configured from Django settings (namespace CELERY).

The beat schedule is in code: each app that has periodic work keeps a `schedule.py` with a
`BEAT_SCHEDULE` dict, merged here so that no app edits another's schedule. The modules are imported
plainly: a misspelt or broken one fails the start, it is never skipped.
"""
import importlib
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

SCHEDULE_MODULES = (
    "audit.schedule",
    "permanent.schedule",
    "memoryhub.outbox.schedule",
    "layers.transient.schedule",
    "layers.short_term.schedule",
    "layers.long_term.schedule",
    "layers.formation.schedule",
    "layers.forgetting.schedule",
)

app = Celery("memoryhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def collect_beat_schedule() -> dict:
    schedule: dict = {}
    for name in SCHEDULE_MODULES:
        entries = importlib.import_module(name).BEAT_SCHEDULE
        clash = set(schedule) & set(entries)
        if clash:
            raise RuntimeError(f"{name} repeats beat entries {sorted(clash)}")
        schedule.update(entries)
    return schedule


app.conf.beat_schedule = collect_beat_schedule()
