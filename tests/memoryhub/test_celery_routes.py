"""Queues per job type from CELERY_TASK_ROUTES (memoryhub/settings.py, docs/deploy.md), read by a fresh
process the way a web process or worker reads it at start."""
import json
import os
import subprocess
import sys

from tests.support.processes import BASE_DIR

ROUTED = """
import json
from memoryhub.celery import app
names = ["formation.extract_session", "formation.mine_habits", "reminders.tasks.reminder_deliver",
         "audit.tasks.verify_audit_chains"]
print(json.dumps({name: app.amqp.router.route({}, name)["queue"].name for name in names}))
"""


def _queues(routes: str | None) -> dict:
    env = {**os.environ, "CELERY_QUEUE": "everything"}
    env.pop("CELERY_TASK_ROUTES", None)
    if routes is not None:
        env["CELERY_TASK_ROUTES"] = routes
    done = subprocess.run([sys.executable, "-c", ROUTED], cwd=BASE_DIR, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_jobs_go_to_the_queue_of_their_type_and_the_rest_to_celery_queue():
    assert _queues("formation.*=formation, reminders.*=delivery") == {
        "formation.extract_session": "formation", "formation.mine_habits": "formation",
        "reminders.tasks.reminder_deliver": "delivery", "audit.tasks.verify_audit_chains": "everything"}


def test_without_routes_every_job_goes_to_celery_queue():
    assert set(_queues(None).values()) == {"everything"}
