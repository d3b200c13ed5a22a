"""The reminders room's audit events. Reminder text is user content: events carry its digest only."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

REMINDER_CREATED = event_type("reminder.created", object_type="reminder", label=_("reminder created"),
                              after="due time, recurrence, text digest, source turn")
REMINDER_AMENDED = event_type("reminder.amended", object_type="reminder", label=_("reminder amended"),
                              before="due time and text digest", after="due time, text digest, amending turn")
REMINDER_CANCELLED = event_type("reminder.cancelled", object_type="reminder", label=_("reminder cancelled"),
                                before="status", after="reason and cancelling turn")
REMINDER_DUE = event_type("reminder.due", object_type="reminder", label=_("reminder due"),
                          before="status", after="status and the next occurrence")
REMINDER_DELIVERED = event_type("reminder.delivered", object_type="reminder", label=_("reminder delivered"),
                                after="channel and attempts")
REMINDER_DELIVERY_FAILED = event_type("reminder.delivery_failed", object_type="reminder",
                                      label=_("reminder delivery gave up"), after="attempts and last error")
REMINDER_DELIVERY_RETRIED = event_type("reminder.delivery_retried", object_type="reminder",
                                       label=_("reminder delivery retried"), before="attempts and last error",
                                       after="attempts")
REMINDER_EXPIRED = event_type("reminder.expired", object_type="reminder", label=_("reminder expired"),
                              before="status", after="reason")
REMINDER_SETTINGS_CHANGED = event_type("reminder_settings.changed", object_type="reminder_settings",
                                       label=_("reminder settings changed"), before="time zone and webhook URL",
                                       after="time zone, webhook URL, whether a secret is set")
