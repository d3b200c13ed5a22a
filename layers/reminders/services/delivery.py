"""When reminders fall due: the dispatcher (Celery beat) and the webhook delivery.

`reminders_dispatch(now=)` marks pending reminders whose time has come `due` (creating a recurring
one's next occurrence in the same transaction), expires what nobody can be told about any more, and
enqueues one delivery per due reminder whose next attempt has come (after commit, memoryhub/outbox).
Rows are taken `FOR UPDATE SKIP LOCKED`, so dispatchers running at once split the work.

`reminder_deliver(reminder_id=, now=)` is one attempt: it leases the reminder in a short transaction,
POSTs to the tenant's webhook outside any transaction, then records the outcome. Delivery is at least
once: a worker killed after the POST leaves the lease to expire and the attempt is made again with the
same `Idempotency-Key`, by which the receiver knows it has seen the reminder. A failure waits
base × 2^(n-1) (policy) before the next attempt; after the last one the reminder stays `due` with
`delivery_failed` set, visible to polling agents and in the console.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
from datetime import datetime, timedelta

import httpx2 as httpx
from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from layers.reminders.events import (
    REMINDER_DELIVERED,
    REMINDER_DELIVERY_FAILED,
    REMINDER_DUE,
    REMINDER_EXPIRED,
)
from layers.reminders.models import (
    DeliveryChannel,
    Reminder,
    ReminderSettings,
    ReminderStatus,
)
from layers.reminders.parser import next_occurrence
from layers.reminders.policy import reminder_policy
from layers.reminders.services.reminders import backoff_delay, reminder_create
from memoryhub.core.actors import Actor
from memoryhub.outbox.services import task_enqueue_on_commit

logger = logging.getLogger(__name__)

DELIVER_TASK = "reminders.tasks.reminder_deliver"
SIGNATURE_HEADER = "X-Memoryhub-Signature"
TIMESTAMP_HEADER = "X-Memoryhub-Timestamp"
IDEMPOTENCY_HEADER = "Idempotency-Key"
DISPATCH_BATCH = 500
DISPATCHER = Actor.system("reminders.dispatch")
DELIVERER = Actor.system("reminders.deliver")


def webhook_signature(secret: str, timestamp: str, body: bytes) -> str:
    """`sha256=` + hex HMAC-SHA256 over "<timestamp>.<body>": a receiver recomputes it with the shared
    secret and refuses an old timestamp, so a captured delivery cannot be replayed later."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def reminder_payload(reminder: Reminder) -> dict:
    return {
        "event": "reminder.due",
        "reminder": {
            "id": reminder.pk, "user_id": reminder.user_id, "text": reminder.text,
            "due_at": reminder.due_at.isoformat(), "time_zone": reminder.time_zone,
            "recurrence": reminder.recurrence, "session_id": reminder.source_session.session_id
            if reminder.source_session_id else None,
            "idempotency_key": reminder.idempotency_key,
        },
        "attempt": reminder.delivery_attempts,
    }


def _expire(reminder: Reminder, reason: str) -> None:
    before = {"status": reminder.status}
    reminder.status = ReminderStatus.EXPIRED
    reminder.in_flight_until = None
    reminder.save(update_fields=["status", "in_flight_until", "updated_at"])
    audit_record(tenant_id=reminder.tenant_id, actor=DISPATCHER, event=REMINDER_EXPIRED, object_id=reminder.pk,
                 subject_user_id=reminder.user_id, before=before, after={"reason": reason})


def _next_occurrence_create(reminder: Reminder, now: datetime) -> Reminder | None:
    after = max(now, reminder.due_at)
    due = next_occurrence(reminder.recurrence, after=after, time_zone=reminder.time_zone,
                          start=reminder.due_at if reminder.recurrence.startswith(("FREQ=HOURLY", "FREQ=MINUTELY"))
                          else None)
    if due is None:
        return None
    created, _made = reminder_create(
        tenant=reminder.tenant, user_id=reminder.user_id, text=reminder.text, due_at=due, actor=DISPATCHER,
        recurrence=reminder.recurrence, time_zone=reminder.time_zone, source_session=reminder.source_session,
        source_turn=reminder.source_turn, previous=reminder, now=now)
    return created


def _webhooks() -> dict[int, ReminderSettings]:
    return {settings.tenant_id: settings for settings in ReminderSettings.objects.exclude(webhook_url="")}


def reminders_dispatch(*, now: datetime | None = None) -> dict:
    """Periodic and idempotent: a second run at the same `now` changes nothing and enqueues nothing new."""
    now = now or timezone.now()
    counts = {"due": 0, "expired": 0, "enqueued": 0, "next_occurrences": 0}
    webhooks = _webhooks()
    policies: dict[int, object] = {}  # one policy read per tenant and run, not per reminder

    def policy_of(tenant_id: int):
        if tenant_id not in policies:
            policies[tenant_id] = reminder_policy(tenant_id)
        return policies[tenant_id]

    with transaction.atomic():
        pending = list(Reminder.objects.select_for_update(skip_locked=True, of=("self",)).select_related("tenant", "source_session")
                       .filter(status=ReminderStatus.PENDING, due_at__lte=now).order_by("due_at")[:DISPATCH_BATCH])
        for reminder in pending:
            policy = policy_of(reminder.tenant_id)
            if reminder.recurrence and _next_occurrence_create(reminder, now):
                counts["next_occurrences"] += 1
            if reminder.quarantined:
                _expire(reminder, "quarantined")
                counts["expired"] += 1
                continue
            if now - reminder.due_at > timedelta(hours=policy.expire_after_hours):
                _expire(reminder, "too_late")
                counts["expired"] += 1
                continue
            reminder.status = ReminderStatus.DUE
            reminder.next_attempt_at = now
            reminder.save(update_fields=["status", "next_attempt_at", "updated_at"])
            audit_record(tenant_id=reminder.tenant_id, actor=DISPATCHER, event=REMINDER_DUE, object_id=reminder.pk,
                         subject_user_id=reminder.user_id, before={"status": ReminderStatus.PENDING},
                         after={"status": ReminderStatus.DUE})
            counts["due"] += 1
    with transaction.atomic():
        due = list(Reminder.objects.select_for_update(skip_locked=True)
                   .filter(status=ReminderStatus.DUE, delivery_failed=False).order_by("next_attempt_at", "id")
                   [:DISPATCH_BATCH])
        for reminder in due:
            policy = policy_of(reminder.tenant_id)
            if reminder.tenant_id not in webhooks:
                # No webhook: the reminder waits for an agent to poll and acknowledge it, within the window.
                if now - reminder.due_at > timedelta(hours=policy.expire_after_hours):
                    _expire(reminder, "not_acknowledged")
                    counts["expired"] += 1
                continue
            if reminder.next_attempt_at and reminder.next_attempt_at > now:
                continue
            if reminder.in_flight_until and reminder.in_flight_until > now:
                continue
            if reminder.queued_until and reminder.queued_until > now:
                continue
            queued = task_enqueue_on_commit(DELIVER_TASK, kwargs={"reminder_id": reminder.pk},
                                            dedupe_key=f"reminder.deliver:{reminder.pk}:{reminder.delivery_attempts}")
            reminder.queued_until = now + timedelta(seconds=policy.delivery_lease_seconds)
            reminder.save(update_fields=["queued_until", "updated_at"])
            counts["enqueued"] += 1 if queued else 0
    return counts


def _lease(reminder_id: int, now: datetime) -> tuple[Reminder, ReminderSettings] | None:
    with transaction.atomic():
        reminder = (Reminder.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("tenant", "source_session").filter(pk=reminder_id).first())
        if reminder is None or reminder.status != ReminderStatus.DUE or reminder.delivery_failed:
            return None  # delivered, cancelled, given up, or another worker holds it right now
        if reminder.in_flight_until and reminder.in_flight_until > now:
            return None
        if reminder.next_attempt_at and reminder.next_attempt_at > now:
            return None
        settings = ReminderSettings.objects.filter(tenant_id=reminder.tenant_id).exclude(webhook_url="").first()
        if settings is None:
            return None
        policy = reminder_policy(reminder.tenant_id)
        reminder.delivery_attempts += 1
        reminder.last_attempt_at = now
        reminder.in_flight_until = now + timedelta(seconds=policy.delivery_lease_seconds)
        reminder.queued_until = None  # the queued message is being served; the in-flight lease takes over
        reminder.save(update_fields=["delivery_attempts", "last_attempt_at", "in_flight_until", "queued_until",
                                     "updated_at"])
    return reminder, settings


def _post(reminder: Reminder, settings: ReminderSettings, *, timeout: float, now: datetime) -> str:
    """'' on a 2xx answer, else what went wrong."""
    body = json.dumps(reminder_payload(reminder), ensure_ascii=False, separators=(",", ":")).encode()
    timestamp = str(int(now.timestamp()))
    headers = {"Content-Type": "application/json", TIMESTAMP_HEADER: timestamp,
               SIGNATURE_HEADER: webhook_signature(settings.webhook_secret, timestamp, body),
               IDEMPOTENCY_HEADER: reminder.idempotency_key, "User-Agent": "memoryhub-reminders"}
    try:
        response = httpx.post(settings.webhook_url, content=body, headers=headers, timeout=timeout,
                              follow_redirects=False)
    except httpx.HTTPError as exc:
        return f"{type(exc).__name__}: {exc}"[:Reminder.ERROR_MAX_LENGTH]
    if 200 <= response.status_code < 300:
        return ""
    return f"HTTP {response.status_code}"


def reminder_deliver(*, reminder_id: int, now: datetime | None = None) -> str:
    """One delivery attempt; returns what happened (delivered, retry, failed, skipped)."""
    clock_given = now is not None
    now = now or timezone.now()
    leased = _lease(reminder_id, now)
    if leased is None:
        return "skipped"
    reminder, settings = leased
    policy = reminder_policy(reminder.tenant_id)
    error = _post(reminder, settings, timeout=policy.webhook_timeout_seconds, now=now)
    finished = now if clock_given else timezone.now()
    with transaction.atomic():
        reminder = Reminder.objects.select_for_update().get(pk=reminder.pk)
        reminder.in_flight_until = None
        if reminder.status != ReminderStatus.DUE:
            reminder.save(update_fields=["in_flight_until", "updated_at"])  # cancelled meanwhile
            return "skipped"
        if not error:
            reminder.status = ReminderStatus.DELIVERED
            reminder.delivered_at, reminder.delivered_via = finished, DeliveryChannel.WEBHOOK
            reminder.last_error = ""
            reminder.save()
            audit_record(tenant_id=reminder.tenant_id, actor=DELIVERER, event=REMINDER_DELIVERED,
                         object_id=reminder.pk, subject_user_id=reminder.user_id,
                         after={"channel": DeliveryChannel.WEBHOOK, "attempts": reminder.delivery_attempts})
            return "delivered"
        reminder.last_error = error
        if reminder.delivery_attempts >= policy.max_delivery_attempts:
            reminder.delivery_failed = True
            reminder.save()
            audit_record(tenant_id=reminder.tenant_id, actor=DELIVERER, event=REMINDER_DELIVERY_FAILED,
                         object_id=reminder.pk, subject_user_id=reminder.user_id,
                         after={"attempts": reminder.delivery_attempts, "last_error": error[:200]})
            return "failed"
        reminder.next_attempt_at = finished + backoff_delay(reminder.delivery_attempts, base=policy.retry_base_seconds,
                                                            cap=policy.retry_max_seconds)
        reminder.save()
    logger.info("reminder %s: attempt %s failed (%s), next at %s", reminder.pk, reminder.delivery_attempts, error,
                reminder.next_attempt_at)
    return "retry"
