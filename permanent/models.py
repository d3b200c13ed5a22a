"""The permanent layer: versioned entries that change only through an approved change request.

`PermanentEntry` is the current state of one key (global, or scoped to one end user).
`PermanentVersion` rows are immutable (a trigger refuses UPDATE) and keep every value ever applied.
`ChangeRequest` carries one proposed change through `pending → approved → applied`; its
`Approval` rows are bound to the payload hash the reviewer saw.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from memoryhub.core.limits import USER_ID_MAX_LENGTH
from memoryhub.tenancy.models import ApiKey, Tenant

KEY_MAX_LENGTH = 200
# What is accepted is the one limit of every layer; the column stays wider (no narrowing migration).
USER_ID_COLUMN_LENGTH = 255
# Letters, digits and `._:-`, starting with a letter or digit: keys are read by exact match only.
KEY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:\-]*$"
MAX_REQUIRED_APPROVALS = 3
REASON_MAX_LENGTH = 2000
COMMENT_MAX_LENGTH = 2000


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    RETIRED = "retired", _("retired")


class PermanentEntry(models.Model):
    """The current state of one key. `user_id` empty means the entry is global to the tenant."""

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="permanent_entries",
                               verbose_name=_("tenant"))
    key = models.CharField(_("key"), max_length=KEY_MAX_LENGTH)
    user_id = models.CharField(_("user id"), max_length=USER_ID_COLUMN_LENGTH, blank=True, default="",
                               help_text=_("Empty for a global entry."))
    status = models.CharField(_("status"), max_length=16, choices=EntryStatus.choices, default=EntryStatus.ACTIVE)
    current_version = models.PositiveIntegerField(_("current version"), default=0)
    # Denormalised copy of the current version's value so reads need one row.
    value = models.JSONField(_("value"), null=True, blank=True)
    value_hash = models.CharField(_("value hash"), max_length=64, blank=True, default="")
    schema = models.JSONField(_("JSON Schema"), null=True, blank=True)
    required_approvals = models.PositiveSmallIntegerField(_("required approvals"), default=1)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords(verbose_name=_("historical permanent entry"))

    class Meta:
        verbose_name = _("permanent entry")
        verbose_name_plural = _("permanent entries")
        ordering = ["tenant_id", "key", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "key", "user_id"], name="permanent_entry_unique_key"),
            models.CheckConstraint(condition=Q(required_approvals__gte=1, required_approvals__lte=MAX_REQUIRED_APPROVALS),
                                   name="permanent_entry_required_approvals_range"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.user_id})" if self.user_id else self.key

    @property
    def scope_label(self) -> str:
        return "user" if self.user_id else "global"


class VersionAction(models.TextChoices):
    CREATE = "create", _("create")
    UPDATE = "update", _("update")
    RETIRE = "retire", _("retire")
    ROLLBACK = "rollback", _("roll back")


class PermanentVersion(models.Model):
    """One applied value of an entry. Never updated (a database trigger refuses it); deleted only by
    erasure of the user a user-scoped entry belongs to."""

    entry = models.ForeignKey(PermanentEntry, on_delete=models.CASCADE, related_name="versions",
                              verbose_name=_("entry"))
    number = models.PositiveIntegerField(_("number"))
    action = models.CharField(_("action"), max_length=16, choices=VersionAction.choices)
    value = models.JSONField(_("value"), null=True, blank=True)
    value_hash = models.CharField(_("value hash"), max_length=64)
    rolled_back_to = models.PositiveIntegerField(_("rolled back to version"), null=True, blank=True)
    proposed_by = models.CharField(_("proposed by"), max_length=200)
    approved_by = models.JSONField(_("approved by"), default=list)
    change_request = models.ForeignKey("ChangeRequest", null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="+", verbose_name=_("change request"))
    effective_from = models.DateTimeField(_("effective from"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("permanent version")
        verbose_name_plural = _("permanent versions")
        ordering = ["entry_id", "-number"]
        constraints = [models.UniqueConstraint(fields=["entry", "number"], name="permanent_version_unique_number")]
        default_permissions = ("view",)

    def __str__(self) -> str:
        return f"{self.entry} v{self.number}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("permanent versions are immutable")
        super().save(*args, **kwargs)


class ChangeAction(models.TextChoices):
    CREATE = "create", _("create")
    UPDATE = "update", _("update")
    RETIRE = "retire", _("retire")
    ROLLBACK = "rollback", _("roll back")


class ChangeOrigin(models.TextChoices):
    STAFF = "staff", _("staff")
    AGENT = "agent", _("agent")
    EXTRACTION = "extraction", _("extraction")


class ChangeState(models.TextChoices):
    PENDING = "pending", _("pending")
    APPROVED = "approved", _("approved")
    APPLIED = "applied", _("applied")
    REJECTED = "rejected", _("rejected")
    WITHDRAWN = "withdrawn", _("withdrawn")
    SUPERSEDED = "superseded", _("superseded")


# The only legal moves; anything else is a Conflict (see services.common.transition).
CHANGE_TRANSITIONS: dict[str, frozenset[str]] = {
    ChangeState.PENDING: frozenset({ChangeState.APPROVED, ChangeState.REJECTED, ChangeState.WITHDRAWN,
                                    ChangeState.SUPERSEDED}),
    ChangeState.APPROVED: frozenset({ChangeState.APPLIED, ChangeState.SUPERSEDED, ChangeState.WITHDRAWN}),
    ChangeState.APPLIED: frozenset(),
    ChangeState.REJECTED: frozenset(),
    ChangeState.WITHDRAWN: frozenset(),
    ChangeState.SUPERSEDED: frozenset(),
}
OPEN_STATES = (ChangeState.PENDING, ChangeState.APPROVED)


class ChangeRequest(models.Model):
    """A proposed change to one key. The payload hash covers everything that would be applied."""

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="permanent_change_requests",
                               verbose_name=_("tenant"))
    entry = models.ForeignKey(PermanentEntry, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="change_requests", verbose_name=_("entry"))
    key = models.CharField(_("key"), max_length=KEY_MAX_LENGTH)
    user_id = models.CharField(_("user id"), max_length=USER_ID_COLUMN_LENGTH, blank=True, default="")
    action = models.CharField(_("action"), max_length=16, choices=ChangeAction.choices)
    proposed_value = models.JSONField(_("proposed value"), null=True, blank=True)
    target_version = models.PositiveIntegerField(_("target version"), null=True, blank=True)
    proposed_schema = models.JSONField(_("proposed JSON Schema"), null=True, blank=True)
    proposed_required_approvals = models.PositiveSmallIntegerField(_("required approvals"), null=True, blank=True)
    reason = models.TextField(_("reason"), max_length=REASON_MAX_LENGTH, blank=True, default="")
    base_version = models.PositiveIntegerField(_("base version"))
    payload_hash = models.CharField(_("payload hash"), max_length=64)
    origin = models.CharField(_("origin"), max_length=16, choices=ChangeOrigin.choices)
    proposer_label = models.CharField(_("proposer"), max_length=200)
    proposer_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="+", verbose_name=_("proposing staff user"))
    proposer_api_key = models.ForeignKey(ApiKey, null=True, blank=True, on_delete=models.PROTECT,
                                         related_name="+", verbose_name=_("proposing API key"))
    proposer_system = models.CharField(_("proposing job"), max_length=100, blank=True, default="")
    state = models.CharField(_("state"), max_length=16, choices=ChangeState.choices, default=ChangeState.PENDING)
    state_note = models.CharField(_("state note"), max_length=500, blank=True, default="")
    effective_at = models.DateTimeField(_("effective at"), null=True, blank=True)
    applied_version = models.PositiveIntegerField(_("applied version"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    history = HistoricalRecords(verbose_name=_("historical change request"))

    class Meta:
        verbose_name = _("change request")
        verbose_name_plural = _("change requests")
        ordering = ["-created_at", "-id"]
        constraints = [
            # One pending request per key and scope: reviewers decide one proposal at a time.
            models.UniqueConstraint(fields=["tenant", "key", "user_id"], condition=Q(state="pending"),
                                    name="permanent_one_pending_request_per_key"),
        ]
        indexes = [models.Index(fields=["state", "effective_at"], name="permanent_cr_state_effective")]
        permissions = [("review_changerequest", _("Can approve or reject change requests"))]

    def __str__(self) -> str:
        return f"#{self.pk} {self.action} {self.key}"

    @property
    def required_approvals(self) -> int:
        if self.entry_id is not None:
            return self.entry.required_approvals
        return self.proposed_required_approvals or 1


class ApprovalDecision(models.TextChoices):
    APPROVE = "approve", _("approve")
    REJECT = "reject", _("reject")


class Approval(models.Model):
    """One reviewer's decision, bound to the payload hash they saw."""

    change_request = models.ForeignKey(ChangeRequest, on_delete=models.CASCADE, related_name="approvals",
                                       verbose_name=_("change request"))
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("reviewer"))
    decision = models.CharField(_("decision"), max_length=16, choices=ApprovalDecision.choices)
    payload_hash = models.CharField(_("payload hash"), max_length=64)
    comment = models.TextField(_("comment"), max_length=COMMENT_MAX_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(_("decided at"), auto_now_add=True)

    class Meta:
        verbose_name = _("approval")
        verbose_name_plural = _("approvals")
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["change_request", "reviewer"], name="permanent_one_decision_per_reviewer")]

    def __str__(self) -> str:
        return f"{self.decision} by {self.reviewer}"
