"""Audit records for the apps below it (tenancy), which announce their changes by signal."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from audit.events import event_type
from audit.services import audit_record

API_KEY_CREATED = event_type("api_key.created", object_type="api_key", label=_("API key created"),
                             after="name, prefix, scopes, created by")
API_KEY_REVOKED = event_type("api_key.revoked", object_type="api_key", label=_("API key revoked"),
                             before="revoked_at", after="revoked_at")
TENANT_TIME_ZONE_CHANGED = event_type("tenant.time_zone_changed", object_type="tenant",
                                      label=_("tenant time zone changed"), before="time_zone", after="time_zone")
MEMBERSHIP_GRANTED = event_type("membership.granted", object_type="membership", label=_("staff role granted"),
                                after="username, user pk, role, whether the user became staff")
MEMBERSHIP_REVOKED = event_type("membership.revoked", object_type="membership", label=_("staff role revoked"),
                                before="username, user pk, role", after="whether the user lost staff status")


def on_tenancy_changed(sender, *, tenant_id, actor, event, object_id, before=None, after=None, **kwargs) -> None:
    audit_record(tenant_id=tenant_id, actor=actor, event=event, object_id=object_id, before=before, after=after)
