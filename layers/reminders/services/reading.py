"""Reading reminder requests and times from words with the tenant's reminder policy (the default hour of a
day said without one, the delay "等会儿" / "later" stands for): one reading shared by the API (`utterance`,
`when`) and formation (each user turn, layers/reminders/services/turns.py), so both read a time alike."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from layers.reminders.parser import ReminderIntent, reminder_intent
from layers.reminders.parser.intents import CJK
from layers.reminders.policy import reminder_policy
from memoryhub.core.errors import InvalidInput


def reminder_intent_read(text: str, *, tenant_id: int, now: datetime, time_zone: str, require_time: bool = False,
                         policy=None) -> ReminderIntent | None:
    """What `text` asks of reminders (parser/), read at `now` in `time_zone` with the tenant's policy
    (`policy`, when the caller already read it for a batch of turns)."""
    policy = policy or reminder_policy(tenant_id)
    return reminder_intent(text, now=now, time_zone=time_zone, default_hour=policy.default_hour,
                           vague_delay=timedelta(minutes=policy.vague_delay_minutes), require_time=require_time)


def reminder_when_read(words: str, *, tenant_id: int, now: datetime, time_zone: str,
                       field: str = "when") -> tuple[datetime, str]:
    """(due_at, recurrence) from words for a time alone ("tomorrow at 7am", "每周一"); 400 `unreadable_time`
    on `field` when they name none. The words are read as the time of a request, in their own language."""
    request = f"{words}提醒我做这件事" if CJK.search(words) else f"remind me {words} to do it"
    intent = reminder_intent_read(request, tenant_id=tenant_id, now=now, time_zone=time_zone, require_time=True)
    if intent is None or intent.kind != "create" or intent.due_at is None:
        message = _("no time could be read from %(words)s") % {"words": words[:80]}
        raise InvalidInput(message, code="unreadable_time", details={"fields": {field: [message]}})
    return intent.due_at, intent.recurrence
