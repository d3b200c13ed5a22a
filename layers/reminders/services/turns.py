"""Reminders from conversation: each new user turn is read for a reminder intent (parser/), inside the
short-term append's transaction (registered as an append annotator by RemindersConfig.ready).

- a request creates a reminder whose provenance is the turn (`source_turn`, `source_session`);
- "别提醒了" / "never mind the reminder" cancels the user's latest open reminder (or the one it names);
- "改到8点" / "push it back an hour" amends the latest;
- something done now ("现在关掉", "I already called Anna") fulfils the latest one-off reminder for the
  same action, which is cancelled as `fulfilled`;
each recorded with the turn that did it. A turn the rules trip on is logged and skipped: reminders never
fail an append.
"""
from __future__ import annotations

import logging
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from layers.reminders.models import OPEN_STATUSES, Reminder
from layers.reminders.parser.intents import CJK, en_verbs, zh_verbs
from layers.reminders.policy import reminder_policy
from layers.reminders.services.reading import reminder_intent_read
from layers.reminders.services.reminders import (
    CancelReason,
    reminder_amend,
    reminder_cancel,
    reminder_create,
)
from layers.short_term.selectors import session_time_zone
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.selectors import tenant_time_zone

logger = logging.getLogger(__name__)


def _reminder_zone(session) -> str:
    """The user's zone when the session says one (metadata `time_zone`), else the tenant's."""
    return str(session_time_zone(session) or tenant_time_zone(session.tenant))


def _words(text: str) -> set[str]:
    if CJK.search(text):
        chars = re.sub(r"[^\u4e00-\u9fffA-Za-z0-9]", "", text)
        return {chars[index:index + 2] for index in range(len(chars) - 1)} | set(chars)
    return {word for word in re.findall(r"[a-z0-9']+", text.lower()) if len(word) > 2}


def _overlap(a: str, b: str) -> float:
    left, right = _words(a), _words(b)
    return len(left & right) / len(left) if left else 0.0


def _open(session, limit: int):
    return list(Reminder.objects.filter(tenant_id=session.tenant_id, user_id=session.user_id,
                                        status__in=OPEN_STATUSES).order_by("-created_at", "-id")[:limit])


def _target(candidates: list[Reminder], named: str) -> Reminder | None:
    if not candidates:
        return None
    if not named:
        return candidates[0]
    scored = sorted(((_overlap(named, reminder.text), index) for index, reminder in enumerate(candidates)),
                    key=lambda pair: (-pair[0], pair[1]))
    best, index = scored[0]
    return candidates[index] if best > 0 else None


def _verbs_of(text: str) -> tuple[list[str], list[str]]:
    return zh_verbs(text) if CJK.search(text) else en_verbs(text)


def _fulfilled(candidates: list[Reminder], verbs, objects) -> Reminder | None:
    for reminder in candidates:
        if reminder.recurrence:
            continue  # doing it today does not end "every Monday"
        reminder_verbs, _objects = _verbs_of(reminder.text)
        if not set(verbs) & set(reminder_verbs):
            continue
        # "现在关掉" names no object and fulfils "关灯"; "I called Anna" must name Anna, not Bob
        if objects and not any(obj in reminder.text.lower() for obj in objects):
            continue
        return reminder
    return None


def _on_its_day(reminder: Reminder, clock: tuple, now):
    """"改到4点" keeps the reminder's day: the candidate hour nearest its current time, in its zone."""
    minute, hours = clock
    zone = ZoneInfo(reminder.time_zone)
    current = reminder.due_at.astimezone(zone)
    options = [current.replace(hour=hour % 24, minute=minute, second=0, microsecond=0) for hour in hours]
    options = [option if option > now else option + timedelta(days=1) for option in options]
    return min(options, key=lambda option: abs(option - current))


def _entry(action: str, reminder: Reminder, turn) -> dict:
    return {"action": action, "reminder_id": reminder.pk, "turn_seq": turn.seq, "text": reminder.text,
            "due_at": reminder.due_at.isoformat(), "recurrence": reminder.recurrence, "status": reminder.status}


def _intent_of(session, turn, *, zone: str, policy):
    """What the turn asks of reminders, when it asks something that may write: (intent, now) or None.
    Reading only: words and the policy, no database."""
    now = turn.occurred_at or timezone.now()
    intent = reminder_intent_read(turn.content, tenant_id=session.tenant_id, now=now, time_zone=zone, policy=policy)
    if intent is None or intent.kind == "create" and (intent.due_at is None or intent.due_at <= now):
        return None
    return intent, now


def _one_turn(session, turn, intent, now, *, actor, zone: str, policy) -> dict | None:
    if intent.kind == "create":
        reminder, created = reminder_create(
            tenant=session.tenant, user_id=session.user_id, text=intent.text, due_at=intent.due_at, actor=actor,
            recurrence=intent.recurrence, time_zone=zone, client_id=f"turn:{turn.pk}", source_session=session,
            source_turn=turn, now=now)
        return _entry("created", reminder, turn) if created else None
    candidates = _open(session, policy.conflict_candidates)
    if intent.kind == "cancel":
        target = _target(candidates, intent.text)
        if target is None:
            return None
        return _entry("cancelled", reminder_cancel(reminder=target, actor=actor, reason=CancelReason.WITHDRAWN,
                                                   by_turn=turn), turn)
    if intent.kind == "amend":
        target = _target(candidates, intent.text)
        if target is None:
            return None
        due_at = _on_its_day(target, intent.clock, now) if intent.clock else intent.due_at if intent.due_at else (
            target.due_at + intent.shift if intent.shift else None)
        if due_at is None or due_at <= now:
            return None
        return _entry("amended", reminder_amend(reminder=target, actor=actor, due_at=due_at, by_turn=turn, now=now),
                      turn)
    if intent.kind == "action":
        target = _fulfilled(candidates, intent.verbs, intent.objects)
        if target is None:
            return None
        return _entry("fulfilled", reminder_cancel(reminder=target, actor=actor, reason=CancelReason.FULFILLED,
                                                   by_turn=turn), turn)
    return None


def reminders_from_turns(*, session, turns, actor) -> list[dict]:
    """The append annotator: what the new user turns did to reminders, in turn order."""
    users = [turn for turn in turns if turn.role == "user"]
    if not users:
        return []
    policy = reminder_policy(session.tenant_id)
    zone = _reminder_zone(session)
    results = []
    for turn in users:
        try:
            read = _intent_of(session, turn, zone=zone, policy=policy)
            if read is None:
                continue  # most turns ask nothing of reminders: no savepoint for them
            with transaction.atomic():
                entry = _one_turn(session, turn, *read, actor=actor, zone=zone, policy=policy)
        except DomainError as exc:
            # A reminder the rules would refuse (a secret in its text, a rule out of range) is not stored;
            # the turn itself is.
            logger.info("turn %s: no reminder (%s)", turn.pk, exc.code)
            continue
        except Exception:
            logger.exception("reminder rules tripped on turn %s; skipped", turn.pk)
            continue
        if entry:
            results.append(entry)
    return results
