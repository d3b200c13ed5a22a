"""A periodic task runs through a real worker process and sees the test database."""
import pytest

from audit.services import audit_record
from audit.tasks import verify_audit_chains
from memoryhub.celery import app as celery_app
from memoryhub.core.actors import Actor
from tests.support.audit_events import TEST_X

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_periodic_task_round_trip(celery_worker, tenant):
    for i in range(3):
        audit_record(tenant_id=tenant.id, actor=Actor.system("t"), event=TEST_X, object_id=i)
    result = verify_audit_chains.delay().get(timeout=60)
    assert result["ok"] is True and result["events"] >= 3


def test_beat_schedule_names_registered_tasks(celery_worker):
    schedule = celery_app.conf.beat_schedule
    assert "audit-verify-chains" in schedule
    registered = celery_app.control.inspect(timeout=2).registered() or {}
    names = {name for tasks in registered.values() for name in tasks}
    for entry in schedule.values():
        assert entry["task"] in names, entry["task"]


def test_every_beat_entry_names_a_registered_task():
    from memoryhub.celery import app

    app.loader.import_default_modules()
    names = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {"formation.catch_up", "forgetting.run", "long_term.reembed", "long_term.flush_access"} <= names
    assert names <= set(app.tasks), sorted(names - set(app.tasks))
