"""Concurrent approvals end in one state; scheduled changes are applied by the beat task in a real worker."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from memoryhub.celery import app as celery_app
from memoryhub.core.errors import Conflict
from permanent.models import (
    ChangeRequest,
    ChangeState,
    PermanentEntry,
    PermanentVersion,
)
from permanent.schedule import BEAT_SCHEDULE
from permanent.services import change_request_approve, change_request_propose
from tests.support.processes import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _race(callables):
    """Run the callables at the same moment in threads (each its own DB connection); collect outcomes."""
    barrier = threading.Barrier(len(callables))
    outcomes: list = [None] * len(callables)

    def run(index, fn):
        try:
            barrier.wait()
            outcomes[index] = fn()
        except Exception as exc:  # the outcome under test
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(callables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


def test_two_reviewers_approving_at_once_end_in_one_state(tenant, editor, reviewer, reviewer2):
    cr = change_request_propose(tenant=tenant, key="safety.pii", action="create", value="redact",
                                proposer_user=editor)
    outcomes = _race([
        lambda: change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash),
        lambda: change_request_approve(change_request=cr, reviewer=reviewer2, payload_hash=cr.payload_hash),
    ])
    won = [o for o in outcomes if isinstance(o, ChangeRequest)]
    lost = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(won) == 1 and len(lost) == 1 and lost[0].code == "illegal_transition", outcomes
    cr.refresh_from_db()
    assert cr.state == ChangeState.APPLIED and cr.approvals.count() == 1
    assert PermanentVersion.objects.filter(entry__tenant=tenant).count() == 1


def test_two_needed_approvals_given_at_once_apply_exactly_once(tenant, editor, reviewer, reviewer2):
    cr = change_request_propose(tenant=tenant, key="safety.limits", action="create", value={"max": 1},
                                required_approvals=2, proposer_user=editor)
    outcomes = _race([
        lambda: change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash),
        lambda: change_request_approve(change_request=cr, reviewer=reviewer2, payload_hash=cr.payload_hash),
    ])
    assert all(isinstance(o, ChangeRequest) for o in outcomes), outcomes
    cr.refresh_from_db()
    assert cr.state == ChangeState.APPLIED and cr.approvals.count() == 2
    entry = PermanentEntry.objects.get(tenant=tenant, key="safety.limits")
    assert entry.current_version == 1 and entry.versions.count() == 1


@pytest.mark.worker
def test_scheduled_change_is_applied_by_the_beat_task(celery_worker, tenant, editor, reviewer, api):
    task_name = BEAT_SCHEDULE["permanent-apply-due"]["task"]
    cr = change_request_propose(tenant=tenant, key="rules.holiday_mode", action="create", value=True,
                                effective_at=timezone.now() + timedelta(seconds=1), proposer_user=editor)
    cr = change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    assert cr.state == ChangeState.APPROVED
    assert api.get("/api/v1/permanent/rules.holiday_mode").status_code == 404

    def beat_tick_applied():
        # What beat does every 30 s, sent to the real worker on the test database.
        celery_app.send_task(task_name).get(timeout=30)
        cr.refresh_from_db()
        return cr.state == ChangeState.APPLIED

    wait_for(beat_tick_applied, timeout=30, interval=0.3, message="the beat task to apply the change")
    response = api.get("/api/v1/permanent/rules.holiday_mode")
    assert response.status_code == 200 and response.json()["value"] is True
    assert cr.history.filter(state=ChangeState.APPLIED).exists()
