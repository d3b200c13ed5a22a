"""Reading reminders and scheduled intents from what a user says, offline, in Chinese and English.

`reminder_intent(text, now=, time_zone=, policy=)` says what a user turn asks of reminders:
- `create`: "等会儿提醒我关灯", "remind me in 20 minutes to call Anna", "每周一提醒我交周报", and scheduled
  commands ("明天早上7点再打开"), with the due time (UTC), the recurrence rule and the text;
- `cancel`: "别提醒了", "never mind the reminder" (the latest, or the one whose text it names);
- `amend`: "改到8点", "push it back an hour" (a new time, or a shift of the current one);
- `action`: something done now ("现在关掉", "I already called Anna"), which fulfils a pending reminder
  for the same action (layers/reminders/services/turns.py matches it);
or None. Questions about the feature, reports of past reminders, hypotheticals and reminders for
someone else are not requests. Times are read in the user's zone (zoneinfo) and returned in UTC.
"""
from layers.reminders.parser.intents import ReminderIntent, reminder_intent
from layers.reminders.parser.recurrence import next_occurrence, recurrence_validate

__all__ = ["ReminderIntent", "reminder_intent", "next_occurrence", "recurrence_validate"]
