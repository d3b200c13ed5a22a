"""The Celery app, configured from Django settings (namespace CELERY).

The beat schedule is in code: each app that has periodic work keeps a `schedule.py` with a
`BEAT_SCHEDULE` dict, merged here so that no app edits another's schedule. The modules are imported
plainly: a misspelt or broken one fails the start, it is never skipped.
"""
import importlib
import os

from celery import Celery
from celery.signals import before_task_publish, task_postrun, task_prerun, worker_process_shutdown

from memoryhub.core.request_context import current_request_id

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
    "layers.reminders.schedule",
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


# The trace id across the broker: a job enqueued while a request is served carries that request's id in
# a message header, and the worker serves the job under it, so the memories a formation run writes (and
# its audit events) name the request that caused them (layers/long_term/models.py, `request_id`). Work the
# outbox relays later from PostgreSQL (memoryhub/outbox/services.py) is sent outside any request and
# carries none.
REQUEST_ID_HEADER = "memoryhub_request_id"
_request_id_tokens: dict[str, object] = {}


@before_task_publish.connect
def _request_id_to_message(headers=None, **kwargs):
    request_id = current_request_id.get()
    if request_id and headers is not None:
        headers.setdefault(REQUEST_ID_HEADER, request_id)


@task_prerun.connect
def _request_id_from_message(task_id=None, task=None, **kwargs):
    request = getattr(task, "request", None)
    request_id = ""
    if request is not None:
        request_id = getattr(request, REQUEST_ID_HEADER, None) or (getattr(request, "headers", None) or {}).get(
            REQUEST_ID_HEADER) or ""
    if request_id:  # none: keep what is current (an eager task runs inside the request that called it)
        _request_id_tokens[task_id] = current_request_id.set(str(request_id)[:64])


@task_postrun.connect
def _request_id_cleared(task_id=None, **kwargs):
    token = _request_id_tokens.pop(task_id, None)
    if token is not None:
        current_request_id.reset(token)


# A prefork child leaves with os._exit, so the atexit send of the metrics counters (memoryhub/api/metrics.py,
# `CounterBuffer`) never runs in it: what its tasks counted in the last moments is sent here instead.
@worker_process_shutdown.connect
def _metrics_sent_at_child_exit(**kwargs):
    from memoryhub.api import metrics  # not at import: this module loads before Django is set up

    metrics.counters.flush()
