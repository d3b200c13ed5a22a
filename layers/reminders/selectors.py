"""Reading reminders: one tenant's, filtered; quarantined ones only for the admin scope."""
from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from layers.reminders.models import Reminder, ReminderStatus
from memoryhub.core.errors import Forbidden, InvalidInput, NotFound


def reminder_list(*, tenant, user_id: str | None = None, statuses: list[str] | None = None,
                  due_before: datetime | None = None, due_after: datetime | None = None,
                  include_quarantined: bool = False, delivery_failed: bool | None = None) -> QuerySet:
    unknown = sorted(set(statuses or ()) - set(ReminderStatus.values))
    if unknown:
        raise InvalidInput(_("unknown status: %(names)s") % {"names": ", ".join(unknown)}, code="invalid_status",
                           details={"fields": {"status": [", ".join(ReminderStatus.values)]}})
    queryset = Reminder.objects.filter(tenant=tenant).select_related("source_session", "source_turn",
                                                                      "amended_by_turn", "cancelled_by_turn")
    if user_id is not None:
        queryset = queryset.filter(user_id=user_id)
    if statuses:
        queryset = queryset.filter(status__in=statuses)
    if due_before is not None:
        queryset = queryset.filter(due_at__lt=due_before)
    if due_after is not None:
        queryset = queryset.filter(due_at__gte=due_after)
    if delivery_failed is not None:
        queryset = queryset.filter(delivery_failed=delivery_failed)
    if not include_quarantined:
        queryset = queryset.filter(quarantine_reasons=[])
    return queryset


def reminder_get(*, tenant, reminder_id: int, include_quarantined: bool = False) -> Reminder:
    """The tenant's reminder, else 404 (another tenant's reminder does not exist for this caller)."""
    reminder = (Reminder.objects.select_related("source_session", "source_turn", "amended_by_turn",
                                                "cancelled_by_turn", "tenant")
                .filter(tenant=tenant, pk=reminder_id).first())
    if reminder is None:
        raise NotFound(_("no such reminder"), code="reminder_not_found")
    if reminder.quarantined and not include_quarantined:
        raise Forbidden(_("reading quarantined reminders needs the admin scope"), code="quarantine_needs_admin")
    return reminder
