"""Dispatchers running at once split the work: a reminder row another transaction holds is skipped
(FOR UPDATE SKIP LOCKED), never waited for and never marked twice."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction

from layers.reminders.models import Reminder, ReminderStatus
from layers.reminders.services import reminders_dispatch
from tests.support.reminders import NOW

pytestmark = pytest.mark.django_db(transaction=True)
DUE = NOW + timedelta(hours=1)


def test_a_locked_row_is_skipped_then_taken_by_the_next_run(make_reminder):
    held, other = make_reminder(due_at=DUE), make_reminder(due_at=DUE, text="second")
    locked, release, done = threading.Event(), threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Reminder.objects.select_for_update().get(pk=held.pk)
                locked.set()
                release.wait(30)
        finally:
            connection.close()
            done.set()

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert locked.wait(30)
        assert reminders_dispatch(now=DUE)["due"] == 1, "only the row nobody holds"
        assert Reminder.objects.get(pk=held.pk).status == ReminderStatus.PENDING
        assert Reminder.objects.get(pk=other.pk).status == ReminderStatus.DUE
    finally:
        release.set()
        thread.join(30)
    assert done.is_set()
    assert reminders_dispatch(now=DUE)["due"] == 1
    assert Reminder.objects.filter(status=ReminderStatus.DUE).count() == 2
