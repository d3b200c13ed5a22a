from datetime import datetime, timezone

import pytest

from layers.reminders.services import reminder_create, reminder_settings_update
from tests.support.reminders import ACTOR, NOW, SECRET


@pytest.fixture
def make_reminder(tenant):
    def make(text="call Anna", *, due_at=None, user_id="alice", on=None, **kwargs):
        reminder, _ = reminder_create(tenant=on or tenant, user_id=user_id, text=text,
                                      due_at=due_at or datetime(2026, 12, 1, 2, 0, tzinfo=timezone.utc),
                                      actor=ACTOR, now=kwargs.pop("now", NOW), **kwargs)
        return reminder
    return make


@pytest.fixture
def webhook(tenant):
    def configure(url: str, secret: str = SECRET, on=None):
        return reminder_settings_update(tenant=on or tenant, actor=ACTOR, webhook_url=url, webhook_secret=secret)
    return configure
