from layers.reminders.services.delivery import reminder_deliver, reminders_dispatch
from layers.reminders.services.reminders import (
    CancelReason,
    reminder_acknowledge,
    reminder_amend,
    reminder_cancel,
    reminder_create,
    reminder_delivery_retry,
    reminder_settings_get,
    reminder_settings_update,
)

__all__ = ["CancelReason", "reminder_acknowledge", "reminder_amend", "reminder_cancel", "reminder_create",
           "reminder_deliver", "reminder_delivery_retry", "reminder_settings_get", "reminder_settings_update", "reminders_dispatch"]
