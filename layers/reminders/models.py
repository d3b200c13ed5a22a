"""Reminders: what a user asked to be reminded of (or to have done) at a time, once or on a rule.

A reminder is `pending` until its time, then `due` (the dispatcher marks it and hands it to the tenant's
webhook, or an agent polls for it), then `delivered`; it may be `cancelled` (by the user, an agent, a
later turn that fulfilled or withdrew it) or `expired` (its time passed long before anyone could be
told). A recurring reminder is one row per occurrence: marking one due creates the next (`previous`).
"""
from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from memoryhub.core.limits import USER_ID_MAX_LENGTH
from memoryhub.tenancy.models import Tenant


class ReminderStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    DUE = "due", _("due")
    DELIVERED = "delivered", _("delivered")
    CANCELLED = "cancelled", _("cancelled")
    EXPIRED = "expired", _("expired")


# The only transitions a service makes (layers/reminders/services/reminders.py refuses any other).
TRANSITIONS: dict[str, set[str]] = {
    ReminderStatus.PENDING: {ReminderStatus.DUE, ReminderStatus.CANCELLED, ReminderStatus.EXPIRED},
    ReminderStatus.DUE: {ReminderStatus.DELIVERED, ReminderStatus.CANCELLED, ReminderStatus.EXPIRED,
                         ReminderStatus.PENDING},  # back to pending: amended to a later time
    ReminderStatus.DELIVERED: set(),
    ReminderStatus.CANCELLED: set(),
    ReminderStatus.EXPIRED: set(),
}
OPEN_STATUSES = (ReminderStatus.PENDING, ReminderStatus.DUE)


class DeliveryChannel(models.TextChoices):
    WEBHOOK = "webhook", _("webhook")
    POLL = "poll", _("acknowledged by an agent")


class ReminderSettings(models.Model):
    """A tenant's reminder configuration: the webhook due reminders go to. The secret signs every delivery
    (HMAC-SHA256); it is kept because signing needs it. The zone times are read in is the tenant's
    (Tenant.time_zone), shared with habits."""

    TIME_ZONE_MAX_LENGTH = Tenant.TIME_ZONE_MAX_LENGTH

    tenant = models.OneToOneField(Tenant, on_delete=models.CASCADE, related_name="reminder_settings",
                                  verbose_name=_("tenant"))
    webhook_url = models.URLField(_("webhook URL"), max_length=500, blank=True, default="")
    webhook_secret = models.CharField(_("webhook secret"), max_length=200, blank=True, default="")
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("reminder settings")
        verbose_name_plural = _("reminder settings")

    def __str__(self) -> str:
        return f"{self.tenant} · {self.webhook_url or '-'}"


class Reminder(models.Model):
    TEXT_MAX_LENGTH = 500
    RECURRENCE_MAX_LENGTH = 200
    CLIENT_ID_MAX_LENGTH = 200
    ERROR_MAX_LENGTH = 500

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="reminders", verbose_name=_("tenant"))
    user_id = models.CharField(_("user id"), max_length=USER_ID_MAX_LENGTH)
    text = models.CharField(_("text"), max_length=TEXT_MAX_LENGTH)
    status = models.CharField(_("status"), max_length=16, choices=ReminderStatus.choices,
                              default=ReminderStatus.PENDING)
    due_at = models.DateTimeField(_("due at"))
    time_zone = models.CharField(_("time zone"), max_length=ReminderSettings.TIME_ZONE_MAX_LENGTH, default="UTC")
    # A subset of RFC 5545 RRULE (FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE), read in `time_zone`.
    recurrence = models.CharField(_("recurrence rule"), max_length=RECURRENCE_MAX_LENGTH, blank=True, default="")
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                 verbose_name=_("previous occurrence"))
    # Provenance: the turn that asked for it, and the turns that later amended or cancelled it.
    source_session = models.ForeignKey("short_term.Session", null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="+", verbose_name=_("source session"))
    source_turn = models.ForeignKey("short_term.Turn", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+", verbose_name=_("source turn"))
    amended_by_turn = models.ForeignKey("short_term.Turn", null=True, blank=True, on_delete=models.SET_NULL,
                                        related_name="+", verbose_name=_("amended by turn"))
    cancelled_by_turn = models.ForeignKey("short_term.Turn", null=True, blank=True, on_delete=models.SET_NULL,
                                          related_name="+", verbose_name=_("cancelled by turn"))
    cancel_reason = models.CharField(_("cancel reason"), max_length=32, blank=True, default="")
    # A client's id for an idempotent create; the idempotency key goes to the webhook with every attempt.
    client_id = models.CharField(_("client id"), max_length=CLIENT_ID_MAX_LENGTH, null=True, blank=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=64, unique=True)
    quarantine_reasons = ArrayField(models.CharField(max_length=64), default=list, blank=True,
                                    verbose_name=_("quarantine reasons"))
    # Delivery: attempts so far, when the next may start, the lease of the one in flight, the last error.
    delivery_attempts = models.PositiveIntegerField(_("delivery attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    in_flight_until = models.DateTimeField(_("in flight until"), null=True, blank=True)
    # Set when the dispatcher enqueues an attempt, so the next runs do not enqueue it again while it waits
    # in the queue; it lapses like the lease, so a lost message is enqueued anew.
    queued_until = models.DateTimeField(_("queued until"), null=True, blank=True)
    last_attempt_at = models.DateTimeField(_("last attempt at"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=ERROR_MAX_LENGTH, blank=True, default="")
    delivery_failed = models.BooleanField(_("delivery failed"), default=False)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)
    delivered_via = models.CharField(_("delivered via"), max_length=16, choices=DeliveryChannel.choices, blank=True,
                                     default="")
    created_by = models.CharField(_("created by"), max_length=200, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "client_id"], condition=Q(client_id__isnull=False),
                                    name="reminders_client_id_unique_per_tenant"),
            # One next occurrence per occurrence, so a dispatcher run twice never forks a series.
            models.UniqueConstraint(fields=["previous"], condition=Q(previous__isnull=False),
                                    name="reminders_one_next_occurrence"),
            models.CheckConstraint(condition=Q(status__in=ReminderStatus.values), name="reminders_status_valid"),
        ]
        indexes = [
            models.Index(fields=["tenant", "user_id", "status"], name="reminders_owner_status"),
            models.Index(fields=["due_at"], condition=Q(status="pending"), name="reminders_pending_due"),
            models.Index(fields=["next_attempt_at"], condition=Q(status="due"), name="reminders_due_next_attempt"),
        ]

    def __str__(self) -> str:
        return f"{self.text[:40]} @ {self.due_at:%Y-%m-%d %H:%M}Z"

    @property
    def quarantined(self) -> bool:
        return bool(self.quarantine_reasons)
