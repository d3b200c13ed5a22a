"""The Celery app, configured from Django settings (namespace CELERY).

The beat schedule is in code: each app that has periodic work keeps a `schedule.py` with a
`BEAT_SCHEDULE` dict, merged here so that no app edits another's schedule.
"""
import importlib
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

SCHEDULE_MODULES = (
    "audit.schedule",
    "layers.transient.schedule",
    "layers.short_term.schedule",
    "layers.long_term.schedule",
    "layers.formation.schedule",
    "permanent.schedule",
    "memoryhub.outbox.schedule",
)

app = Celery("memoryhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def collect_beat_schedule() -> dict:
    schedule: dict = {}
    for name in SCHEDULE_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not (exc.name and name.startswith(exc.name)):
                raise
            continue
        schedule.update(getattr(module, "BEAT_SCHEDULE", {}))
    return schedule


app.conf.beat_schedule = collect_beat_schedule()
