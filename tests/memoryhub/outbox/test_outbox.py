"""Work enqueued while Redis is down stays in PostgreSQL and reaches the broker once it is back."""
import json
import os
import subprocess
import sys

import pytest
import redis
from django.db import connection

from memoryhub.embedded import _free_port, embedded_redis
from memoryhub.outbox.models import OutboxTask
from tests.support.processes import BASE_DIR

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT = """
import json, os, sys
from datetime import timedelta
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
django.setup()
from django.db import transaction
from memoryhub.outbox.models import OutboxTask
from memoryhub.outbox.services import outbox_flush, task_enqueue_on_commit
if sys.argv[1] == "enqueue":
    with transaction.atomic():
        row = task_enqueue_on_commit("audit.tasks.verify_audit_chains", dedupe_key=sys.argv[2])
    if row is None:
        print(json.dumps(None))
    else:
        row.refresh_from_db()
        print(json.dumps({"id": row.id, "sent": row.sent_at is not None, "attempts": row.attempts}))
else:
    print(json.dumps(outbox_flush(older_than=timedelta(0))))
"""

QUEUE = "outbox-test"


def _run(redis_url: str, *args: str):
    env = {**os.environ, "REDIS_URL": redis_url, "CELERY_QUEUE": QUEUE,
           "DATABASE_NAME": connection.settings_dict["NAME"]}
    out = subprocess.run([sys.executable, "-c", SCRIPT, *args], env=env, cwd=BASE_DIR, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_enqueue_survives_broker_outage(tmp_path):
    port = _free_port()
    redis_url = f"redis://127.0.0.1:{port}/0"
    # Nothing listens on the port yet: the broker is down.
    first = _run(redis_url, "enqueue", "job-1")
    assert first["sent"] is False and first["attempts"] == 1
    assert _run(redis_url, "enqueue", "job-1") is None, "a second request for pending work is collapsed"
    assert _run(redis_url, "enqueue", "")["sent"] is False
    assert OutboxTask.objects.filter(sent_at__isnull=True).count() == 2

    with embedded_redis(tmp_path / "redis", port=port):
        result = _run(redis_url, "flush")
        assert result == {"sent": 2, "failed": 0}
        assert redis.Redis.from_url(redis_url).llen(QUEUE) == 2
        assert OutboxTask.objects.filter(sent_at__isnull=True).count() == 0
        # With the broker up, the after-commit hook sends at once.
        assert _run(redis_url, "enqueue", "job-2")["sent"] is True
        assert redis.Redis.from_url(redis_url).llen(QUEUE) == 3


def test_flush_with_broker_still_down_keeps_rows(tmp_path):
    redis_url = f"redis://127.0.0.1:{_free_port()}/0"
    _run(redis_url, "enqueue", "job-x")
    assert _run(redis_url, "flush") == {"sent": 0, "failed": 1}
    row = OutboxTask.objects.get()
    assert row.sent_at is None and row.attempts == 2 and row.last_error
