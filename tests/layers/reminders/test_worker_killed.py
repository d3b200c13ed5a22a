"""A worker killed with SIGKILL while it waits for the webhook's answer: the receiver has the request,
the reminder is still `due` with one attempt in flight. The message comes back (late acks, short
visibility timeout) or the dispatcher enqueues it again once the lease expired; a new worker sends it
with the same idempotency key, so the receiver acts on the reminder exactly once."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from layers.reminders.models import Reminder, ReminderStatus
from layers.reminders.services import (
    reminder_create,
    reminder_settings_update,
    reminders_dispatch,
)
from permanent.services import change_request_approve, change_request_propose
from tests.support.reminders import ACTOR, SECRET
from tests.support.processes import kill_group, start_worker, stop_worker, wait_for
from tests.support.webhook_receiver import WebhookReceiver

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.fixture
def own_queue():
    from memoryhub.celery import app as celery_app

    previous = celery_app.conf.task_default_queue
    yield f"mh-reminders-kill-{os.getpid()}"
    celery_app.conf.task_default_queue = previous


def _short_lease(tenant, make_staff):
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.reminders.delivery_lease_seconds", action="create",
                                     value=1, proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)


def test_sigkill_mid_delivery_then_a_new_worker_delivers_it_once(tenant, make_staff, own_queue, tmp_path):
    _short_lease(tenant, make_staff)
    with WebhookReceiver(SECRET, hold_first=True) as receiver:
        reminder_settings_update(tenant=tenant, actor=ACTOR, webhook_url=receiver.url, webhook_secret=SECRET)
        now = timezone.now()
        reminder, _ = reminder_create(tenant=tenant, user_id="alice", text="关灯", due_at=now - timedelta(seconds=1),
                                      actor=ACTOR, now=now - timedelta(minutes=1))
        doomed = start_worker(own_queue, name="doomed-reminders", log_path=tmp_path / "doomed.log")
        try:
            assert reminders_dispatch()["enqueued"] == 1
            assert receiver.held.wait(60), "the worker to POST the reminder"
            reminder.refresh_from_db()
            # The fault strikes mid-work: the receiver has the request, the worker has not recorded an outcome.
            assert (reminder.status, reminder.delivery_attempts) == (ReminderStatus.DUE, 1)
            assert reminder.in_flight_until is not None and reminder.delivered_at is None
            kill_group(doomed)
        finally:
            stop_worker(doomed)
        receiver.release.set()
        wait_for(lambda: Reminder.objects.get(pk=reminder.pk).in_flight_until < timezone.now(), timeout=30,
                 message="the dead worker's lease to expire")
        assert not receiver.processed, "nothing acted on yet"

        rescuer = start_worker(own_queue, name="rescuer-reminders", log_path=tmp_path / "rescuer.log")

        def delivered() -> bool:
            # The beat's dispatcher runs meanwhile (every 15 s in production): whichever comes first, the
            # redelivered message or a new one, sends the same reminder with the same key.
            if Reminder.objects.get(pk=reminder.pk).status == ReminderStatus.DELIVERED:
                return True
            reminders_dispatch()
            return False

        try:
            wait_for(delivered, timeout=90, interval=1.0, message="a new worker to deliver the reminder")
        finally:
            stop_worker(rescuer)
    reminder.refresh_from_db()
    assert reminder.delivery_attempts == 2 and reminder.delivered_via == "webhook"
    assert [request["key"] for request in receiver.received] == [reminder.idempotency_key] * 2
    assert all(request["valid"] for request in receiver.received)
    assert list(receiver.processed) == [reminder.idempotency_key], "acted on exactly once"
    assert AuditEvent.objects.filter(action="reminder.delivered", object_id=str(reminder.pk)).count() == 1
