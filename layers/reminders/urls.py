from django.urls import path

from layers.reminders import apis

urlpatterns = [
    path("reminders", apis.RemindersApi.as_view(), name="reminders"),
    path("reminders/<int:reminder_id>", apis.ReminderDetailApi.as_view(), name="reminder-detail"),
    path("reminder-settings", apis.ReminderSettingsApi.as_view(), name="reminder-settings"),
]
