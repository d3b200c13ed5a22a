"""Writing reminders: create (from the API or a turn), amend, cancel, acknowledge, settings.

Every write is one transaction with its audit event (layers/reminders/events.py). Reminder text is
user content: secrets are refused, instruction-like text is kept but quarantined (never delivered,
read only with the admin scope), as memories are (layers/long_term/services/create.py).
"""
from __future__ import annotations

import secrets as random_tokens
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from audit.subjects import subject_digest
from layers.reminders.events import (
    REMINDER_AMENDED,
    REMINDER_CANCELLED,
    REMINDER_CREATED,
    REMINDER_DELIVERED,
    REMINDER_DELIVERY_RETRIED,
    REMINDER_SETTINGS_CHANGED,
)
from layers.reminders.models import (
    OPEN_STATUSES,
    TRANSITIONS,
    DeliveryChannel,
    Reminder,
    ReminderSettings,
    ReminderStatus,
)
from layers.reminders.parser import recurrence_validate
from memoryhub.api.identifiers import validate_user_id
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, InvalidInput
from memoryhub.core.limits import USER_ID_MAX_LENGTH
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import refuse_secrets
from memoryhub.tenancy.selectors import tenant_time_zone
from memoryhub.tenancy.services import tenant_time_zone_set, time_zone_validate


class CancelReason:
    USER = "user"              # the API or the console
    WITHDRAWN = "withdrawn"    # a later turn: "别提醒了", "never mind the reminder"
    FULFILLED = "fulfilled"    # a later turn did it already: "现在关掉"


def _field_error(field: str, message: str, code: str = "invalid") -> InvalidInput:
    return InvalidInput(message, code=code, details={"fields": {field: [message]}})


def reminder_text_validate(text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise _field_error("text", _("text must be non-empty"))
    text = text.strip()
    if len(text) > Reminder.TEXT_MAX_LENGTH:
        raise _field_error("text", _("text is longer than %(max)d characters") % {"max": Reminder.TEXT_MAX_LENGTH},
                           code="too_long")
    refuse_secrets(text, field="text")
    return text


def recurrence_clean(rule) -> str:
    if rule in (None, ""):
        return ""
    if not isinstance(rule, str) or len(rule) > Reminder.RECURRENCE_MAX_LENGTH:
        raise _field_error("recurrence", _("recurrence must be an RRULE string"), code="invalid_recurrence")
    try:
        return recurrence_validate(rule)
    except ValueError as exc:
        raise _field_error("recurrence", _("recurrence is not a supported rule: %(why)s") % {"why": exc},
                           code="invalid_recurrence") from None


def reminder_settings_get(tenant) -> ReminderSettings:
    """The tenant's settings (defaults until someone saves them; nothing is written by reading)."""
    found = ReminderSettings.objects.filter(tenant=tenant).first()
    return found or ReminderSettings(tenant=tenant)


def _state(reminder: Reminder) -> dict:
    return {"status": reminder.status, "due_at": reminder.due_at.isoformat(), "recurrence": reminder.recurrence,
            "time_zone": reminder.time_zone,
            "text_digest": subject_digest(reminder.tenant_id, reminder.user_id, reminder.text)}


def _transition(reminder: Reminder, to: str) -> None:
    if to not in TRANSITIONS[reminder.status]:
        raise Conflict(_("a %(status)s reminder cannot become %(to)s") % {"status": reminder.status, "to": to},
                       code="reminder_not_open" if reminder.status not in OPEN_STATUSES else "invalid_transition",
                       details={"status": reminder.status, "to": to})
    reminder.status = to


def reminder_create(*, tenant, user_id: str, text: str, due_at: datetime, actor: Actor, recurrence: str = "",
                    time_zone: str | None = None, client_id: str | None = None, source_session=None,
                    source_turn=None, previous: Reminder | None = None, now: datetime | None = None) -> tuple[Reminder, bool]:
    """Store a pending reminder; (reminder, created). A stored `client_id` returns the stored reminder
    (created False), so a retried POST or a replayed turn makes none twice."""
    now = now or timezone.now()
    user_id = validate_user_id(user_id, max_length=USER_ID_MAX_LENGTH)
    text = reminder_text_validate(text)
    recurrence = recurrence_clean(recurrence)
    zone = time_zone_validate(time_zone) if time_zone else str(tenant_time_zone(tenant))
    if not isinstance(due_at, datetime) or timezone.is_naive(due_at):
        raise _field_error("due_at", _("due_at needs a date, a time and a time zone"))
    if due_at <= now and previous is None:
        raise _field_error("due_at", _("due_at is in the past"), code="due_in_past")
    if client_id is not None:
        if not isinstance(client_id, str) or not client_id.strip() or len(client_id) > Reminder.CLIENT_ID_MAX_LENGTH:
            raise _field_error("client_id", _("client_id must be a short non-empty string"))
        stored = Reminder.objects.filter(tenant=tenant, client_id=client_id).first()
        if stored is not None:
            if (stored.user_id, stored.text) != (user_id, text):
                raise Conflict(_("client_id already names a different reminder"), code="client_id_reused")
            return stored, False
    reminder = Reminder(
        tenant=tenant, user_id=user_id, text=text, due_at=due_at, recurrence=recurrence, time_zone=zone,
        client_id=client_id, source_session=source_session, source_turn=source_turn, previous=previous,
        idempotency_key=random_tokens.token_hex(16), quarantine_reasons=injection_reasons(text),
        created_by=actor.label[:200])
    try:
        with transaction.atomic():
            reminder.save(force_insert=True)
            audit_record(tenant_id=tenant.pk, actor=actor, event=REMINDER_CREATED, object_id=reminder.pk,
                         subject_user_id=user_id,
                         after={**_state(reminder), "source_turn": source_turn.pk if source_turn else None,
                                "previous": previous.pk if previous else None,
                                "quarantine_reasons": reminder.quarantine_reasons})
    except IntegrityError:
        # A concurrent create with the same client id (or the next occurrence already made) won.
        stored = Reminder.objects.filter(tenant=tenant, client_id=client_id).first() if client_id else (
            Reminder.objects.filter(previous=previous).first() if previous else None)
        if stored is None:
            raise
        return stored, False
    return reminder, True


def _locked(reminder: Reminder) -> Reminder:
    return Reminder.objects.select_for_update().get(pk=reminder.pk)


def reminder_amend(*, reminder: Reminder, actor: Actor, text: str | None = None, due_at: datetime | None = None,
                   recurrence: str | None = None, by_turn=None, now: datetime | None = None) -> Reminder:
    """Change an open reminder's time, text or rule. A due one moved to a later time is pending again."""
    now = now or timezone.now()
    with transaction.atomic():
        reminder = _locked(reminder)
        if reminder.status not in OPEN_STATUSES:
            raise Conflict(_("a %(status)s reminder cannot be changed") % {"status": reminder.status},
                           code="reminder_not_open", details={"status": reminder.status})
        before = _state(reminder)
        if text is not None:
            reminder.text = reminder_text_validate(text)
            reminder.quarantine_reasons = injection_reasons(reminder.text)
        if recurrence is not None:
            reminder.recurrence = recurrence_clean(recurrence)
        if due_at is not None:
            if timezone.is_naive(due_at):
                raise _field_error("due_at", _("due_at needs a date, a time and a time zone"))
            if due_at <= now:
                raise _field_error("due_at", _("due_at is in the past"), code="due_in_past")
            reminder.due_at = due_at
            if reminder.status == ReminderStatus.DUE:
                _transition(reminder, ReminderStatus.PENDING)
            reminder.delivery_attempts, reminder.delivery_failed, reminder.last_error = 0, False, ""
            reminder.next_attempt_at = reminder.in_flight_until = None
        if by_turn is not None:
            reminder.amended_by_turn = by_turn
        reminder.save()
        audit_record(tenant_id=reminder.tenant_id, actor=actor, event=REMINDER_AMENDED, object_id=reminder.pk,
                     subject_user_id=reminder.user_id, before=before,
                     after={**_state(reminder), "by_turn": by_turn.pk if by_turn else None})
    return reminder


def reminder_cancel(*, reminder: Reminder, actor: Actor, reason: str = CancelReason.USER, by_turn=None) -> Reminder:
    with transaction.atomic():
        reminder = _locked(reminder)
        before = {"status": reminder.status}
        _transition(reminder, ReminderStatus.CANCELLED)
        reminder.cancel_reason = reason
        reminder.cancelled_by_turn = by_turn
        reminder.in_flight_until = None
        reminder.save()
        audit_record(tenant_id=reminder.tenant_id, actor=actor, event=REMINDER_CANCELLED, object_id=reminder.pk,
                     subject_user_id=reminder.user_id, before=before,
                     after={"status": reminder.status, "reason": reason, "by_turn": by_turn.pk if by_turn else None})
    return reminder


def reminder_acknowledge(*, reminder: Reminder, actor: Actor, now: datetime | None = None) -> Reminder:
    """An agent that polls says it told the user: the due reminder is delivered (again: no change)."""
    now = now or timezone.now()
    with transaction.atomic():
        reminder = _locked(reminder)
        if reminder.status == ReminderStatus.DELIVERED:
            return reminder
        if reminder.status != ReminderStatus.DUE:
            raise Conflict(_("only a due reminder can be acknowledged"), code="reminder_not_due",
                           details={"status": reminder.status})
        _transition(reminder, ReminderStatus.DELIVERED)
        reminder.delivered_at, reminder.delivered_via = now, DeliveryChannel.POLL
        reminder.in_flight_until = None
        reminder.save()
        audit_record(tenant_id=reminder.tenant_id, actor=actor, event=REMINDER_DELIVERED, object_id=reminder.pk,
                     subject_user_id=reminder.user_id,
                     after={"channel": DeliveryChannel.POLL, "attempts": reminder.delivery_attempts})
    return reminder


def reminder_delivery_retry(*, reminder: Reminder, actor: Actor, now: datetime | None = None) -> Reminder:
    """Give a due reminder whose webhook attempts ran out a fresh set (after the receiver is fixed)."""
    now = now or timezone.now()
    with transaction.atomic():
        reminder = _locked(reminder)
        if reminder.status != ReminderStatus.DUE or not reminder.delivery_failed:
            raise Conflict(_("only a due reminder whose delivery failed can be retried"), code="reminder_not_failed",
                           details={"status": reminder.status})
        before = {"attempts": reminder.delivery_attempts, "last_error": reminder.last_error[:200]}
        reminder.delivery_failed, reminder.delivery_attempts, reminder.next_attempt_at = False, 0, now
        reminder.in_flight_until = reminder.queued_until = None
        reminder.save()
        audit_record(tenant_id=reminder.tenant_id, actor=actor, event=REMINDER_DELIVERY_RETRIED, object_id=reminder.pk,
                     subject_user_id=reminder.user_id, before=before, after={"attempts": 0})
    return reminder


def reminder_settings_update(*, tenant, actor: Actor, time_zone: str | None = None, webhook_url: str | None = None,
                             webhook_secret: str | None = None) -> ReminderSettings:
    """Save the tenant's time zone (on the tenant: memoryhub/tenancy, audited there too) and the reminder
    webhook (the secret is write-only through the API)."""
    with transaction.atomic():
        settings, _created = ReminderSettings.objects.select_for_update().get_or_create(tenant=tenant)
        before = {"time_zone": settings.tenant.time_zone, "webhook_url": settings.webhook_url}
        if time_zone is not None:
            settings.tenant = tenant_time_zone_set(tenant=tenant, time_zone=time_zone, actor=actor)
        if webhook_url is not None:
            if webhook_url and not webhook_url.startswith(("http://", "https://")):
                raise _field_error("webhook_url", _("webhook_url must be an http or https URL"))
            settings.webhook_url = webhook_url
        if webhook_secret is not None:
            if webhook_secret and len(webhook_secret) < 16:
                raise _field_error("webhook_secret", _("webhook_secret must have at least 16 characters"))
            settings.webhook_secret = webhook_secret
        if settings.webhook_url and not settings.webhook_secret:
            raise _field_error("webhook_secret", _("a webhook needs a secret to sign its deliveries"))
        settings.save()
        audit_record(tenant_id=tenant.pk, actor=actor, event=REMINDER_SETTINGS_CHANGED, object_id=settings.pk,
                     before=before, after={"time_zone": settings.tenant.time_zone, "webhook_url": settings.webhook_url,
                                           "secret_set": bool(settings.webhook_secret)})
    return settings


def backoff_delay(attempt: int, *, base: int, cap: int) -> timedelta:
    """Exponential back-off after the `attempt`-th failure: base, 2·base, 4·base … at most cap."""
    return timedelta(seconds=min(cap, base * 2 ** max(0, attempt - 1)))
