"""Audit events of user export and erasure (the subject is the end user's pseudonym)."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

USER_ERASED = event_type("user.erased", object_type="end_user", label=_("user erased"),
                         after="rows deleted per model")
USER_EXPORTED = event_type("user.exported", object_type="end_user", label=_("user data exported"),
                           after="rows exported per model")
