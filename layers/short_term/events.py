"""The short-term layer's audit events."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

SESSION_ENDED = event_type("session.ended", object_type="session", label=_("session ended"),
                           before="status", after="status, turn count, last activity")
SESSION_EXPIRED = event_type("session.expired", object_type="session", label=_("session expired (idle)"),
                             before="status", after="status, turn count, last activity")
SESSION_CLOSED = {"ended": SESSION_ENDED, "expired": SESSION_EXPIRED}
SUMMARY_CREATED = event_type("session.summary_created", object_type="session_summary",
                             label=_("session summary created"), after="version, covered turns, token count")
