"""Audit event types that exist only for tests of the trail itself (declared like any app's)."""
from audit.events import event_type

TEST_HAPPENED = event_type("test.happened", object_type="thing", label="test event")
TEST_ALPHA = event_type("test.alpha", object_type="thing", label="test alpha")
TEST_BETA = event_type("test.beta", object_type="thing", label="test beta")
TEST_SECRET_OTHER = event_type("test.secret_other", object_type="thing", label="test event of another tenant")
TEST_X = event_type("test.x", object_type="x", label="test x")
