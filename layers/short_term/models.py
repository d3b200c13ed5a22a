"""Short-term memory: one session's ordered turns, and rolling summaries of its older turns.

Limits are constants on the models and are reused by validation in the services, so the API,
the admin and code paths all refuse the same inputs.
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from memoryhub.core.limits import USER_ID_MAX_LENGTH
from memoryhub.tenancy.models import Tenant


class SessionStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    ENDED = "ended", _("ended")
    EXPIRED = "expired", _("expired")


# Sessions only close: an ended or expired session never becomes active again.
SESSION_TRANSITIONS: dict[str, frozenset[str]] = {
    SessionStatus.ACTIVE: frozenset({SessionStatus.ENDED, SessionStatus.EXPIRED}),
    SessionStatus.ENDED: frozenset(),
    SessionStatus.EXPIRED: frozenset(),
}


class Session(models.Model):
    SESSION_ID_MAX_LENGTH = 128
    # Client ids travel in URL paths, so they are limited to characters that need no escaping.
    SESSION_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@-]*$"
    USER_ID_MAX_LENGTH = USER_ID_MAX_LENGTH  # one limit for every layer (memoryhub/core/limits.py)
    AGENT_ID_MAX_LENGTH = 128
    METADATA_MAX_BYTES = 16 * 1024
    ACTOR_MAX_LENGTH = 200

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="sessions")
    session_id = models.CharField(_("session id"), max_length=SESSION_ID_MAX_LENGTH)
    user_id = models.CharField(_("user id"), max_length=USER_ID_MAX_LENGTH)
    agent_id = models.CharField(_("agent id"), max_length=AGENT_ID_MAX_LENGTH, blank=True, default="")
    status = models.CharField(_("status"), max_length=16, choices=SessionStatus.choices, default=SessionStatus.ACTIVE)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    last_activity_at = models.DateTimeField(_("last activity at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    metadata = models.JSONField(_("metadata"), default=dict, blank=True)
    # Denormalised: the last turn's seq. Kept under the session row lock, so seq stays gap-free.
    turn_count = models.PositiveIntegerField(_("turn count"), default=0)
    needs_summary = models.BooleanField(_("needs a summary"), default=False)
    # turn_count when the latest summary was stored; "new turns since the last summary" counts from it.
    summarised_at_turn_count = models.PositiveIntegerField(_("turn count at last summary"), default=0)
    # Who opened it: the label of the acting API key, staff user or job.
    opened_by = models.CharField(_("opened by"), max_length=ACTOR_MAX_LENGTH, blank=True, default="")

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["-last_activity_at"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "session_id"], name="short_term_session_unique_per_tenant"),
            models.CheckConstraint(
                condition=Q(status=SessionStatus.ACTIVE, ended_at__isnull=True) | ~Q(status=SessionStatus.ACTIVE),
                name="short_term_session_active_not_ended",
            ),
        ]
        indexes = [
            models.Index(fields=["tenant", "user_id"], name="short_term_session_user"),
            # The idle sweep scans active sessions by last activity.
            models.Index(fields=["last_activity_at"], name="short_term_session_idle",
                         condition=Q(status="active")),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status == SessionStatus.ACTIVE


class TurnRole(models.TextChoices):
    USER = "user", _("user")
    ASSISTANT = "assistant", _("assistant")
    TOOL = "tool", _("tool")
    SYSTEM = "system", _("system")


class Turn(models.Model):
    CONTENT_MAX_CHARS = 32_000
    BATCH_MAX_TURNS = 100
    TOOL_NAME_MAX_LENGTH = 100
    CLIENT_ID_MAX_LENGTH = 128
    ACTOR_MAX_LENGTH = 200

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="turns")
    seq = models.PositiveIntegerField(_("sequence number"))
    role = models.CharField(_("role"), max_length=16, choices=TurnRole.choices)
    content = models.TextField(_("content"))
    token_count = models.PositiveIntegerField(_("token count"))
    tool_name = models.CharField(_("tool name"), max_length=TOOL_NAME_MAX_LENGTH, blank=True, default="")
    client_id = models.CharField(_("client id"), max_length=CLIENT_ID_MAX_LENGTH, null=True, blank=True)
    # What was redacted before storage: [{"kind": "api_key"}, ...]; the secrets themselves are gone.
    redactions = models.JSONField(_("redactions"), default=list, blank=True)
    # Who appended it: the label of the acting API key, staff user or job.
    appended_by = models.CharField(_("appended by"), max_length=ACTOR_MAX_LENGTH, blank=True, default="")
    # When it was said, if not when it was appended (imported or replayed conversations); dates its memories.
    occurred_at = models.DateTimeField(_("occurred at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="short_term_turn_unique_seq"),
            models.UniqueConstraint(fields=["session", "client_id"], condition=Q(client_id__isnull=False),
                                    name="short_term_turn_unique_client_id"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="short_term_turn_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.session.session_id}#{self.seq} {self.role}"


class SessionSummary(models.Model):
    CONTENT_MAX_CHARS = 16_000
    SUMMARISER_MAX_LENGTH = 100

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="summaries")
    version = models.PositiveIntegerField(_("version"))
    covers_up_to = models.PositiveIntegerField(_("covers turns up to seq"))
    content = models.TextField(_("content"))
    token_count = models.PositiveIntegerField(_("token count"))
    summariser = models.CharField(_("summariser"), max_length=SUMMARISER_MAX_LENGTH)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("session summary")
        verbose_name_plural = _("session summaries")
        ordering = ["session", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["session", "version"], name="short_term_summary_unique_version"),
        ]

    def __str__(self) -> str:
        return f"{self.session.session_id} v{self.version} (≤ #{self.covers_up_to})"
