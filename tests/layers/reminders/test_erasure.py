"""Erasing an end user removes their reminders (and exports them first); another user's stay."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from layers.reminders.models import Reminder

pytestmark = pytest.mark.django_db


def test_erasure_exports_and_removes_the_users_reminders(api):
    assert api.post_json("/api/v1/sessions", {"session_id": "s1", "user_id": "alice"}).status_code == 201
    response = api.post_json("/api/v1/sessions/s1/turns", {"turns": [
        {"role": "user", "content": "remind me in 20 minutes to call Anna"}]})
    assert response.json()["reminders"][0]["action"] == "created"
    due = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat()
    assert api.post_json("/api/v1/reminders", {"user_id": "bob", "text": "bob's", "due_at": due}).status_code == 201
    exported = api.get("/api/v1/users/alice/export")
    assert exported.status_code == 200, exported.content
    assert "call Anna" in exported.content.decode()
    assert api.delete("/api/v1/users/alice").status_code in (200, 204)
    assert list(Reminder.objects.values_list("user_id", flat=True)) == ["bob"]
