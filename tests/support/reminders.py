"""The acting actor, the fixed 'now' and the webhook secret the reminders tests share (their fixtures
are in tests/layers/reminders/conftest.py)."""
from datetime import datetime, timezone

from memoryhub.core.actors import Actor

ACTOR = Actor.system("tests")
# Tuesday 1 December 2026, 09:00 in Shanghai
NOW = datetime(2026, 12, 1, 1, 0, tzinfo=timezone.utc)
SECRET = "test-webhook-secret-0123456789"
