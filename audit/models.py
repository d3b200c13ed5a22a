"""The append-only, hash-chained audit trail.

A database trigger refuses UPDATE and DELETE on `AuditEvent` (TRUNCATE stays allowed so test
databases can be flushed). No foreign key points from here to other tables, so nothing can cascade
into this table. Users appear only as keyed pseudonyms and their content only as keyed digests,
made with a per-user `SubjectKey` that lives outside this table; erasing a user destroys the key.

The chain proves that no event in the middle was altered or removed, but not that the newest ones
are still there: deleting a tail leaves a shorter chain that links. Each tenant's head (how many
events, the last hash) is therefore kept in `AuditHead`, written in the same transaction as every
append and sealed with an HMAC under `AUDIT_HEAD_KEY`, a key the database does not hold
(audit/services.py, audit/selectors.py).
"""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEvent(models.Model):
    tenant_id = models.BigIntegerField(_("tenant id"), db_index=True)
    seq = models.BigIntegerField(_("sequence"))
    occurred_at = models.DateTimeField(_("occurred at"))
    actor_kind = models.CharField(_("actor kind"), max_length=16)
    actor_id = models.CharField(_("actor id"), max_length=64)
    actor_label = models.CharField(_("actor"), max_length=200)
    action = models.CharField(_("action"), max_length=100, db_index=True)
    object_type = models.CharField(_("object type"), max_length=64)
    object_id = models.CharField(_("object id"), max_length=128)
    subject = models.CharField(_("subject pseudonym"), max_length=64, blank=True, default="")
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    request_id = models.CharField(_("request id"), max_length=64, blank=True, default="")
    prev_hash = models.CharField(_("previous hash"), max_length=64)
    hash = models.CharField(_("hash"), max_length=64)

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        ordering = ["tenant_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["tenant_id", "seq"], name="audit_event_tenant_seq")]
        indexes = [
            models.Index(fields=["object_type", "object_id"], name="audit_event_object"),
            models.Index(fields=["occurred_at"], name="audit_event_time"),
        ]
        default_permissions = ("view",)

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} {self.object_type}:{self.object_id}"


class SubjectKey(models.Model):
    """The per-user secret behind pseudonyms and content digests. Erasure deletes it."""

    tenant_id = models.BigIntegerField()
    user_id = models.CharField(max_length=255)
    secret = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant_id", "user_id"], name="subject_key_unique")]
        default_permissions = ()


class AuditHead(models.Model):
    """Where a tenant's chain ends: event count and last hash, sealed with an HMAC (`mac`) under
    `settings.AUDIT_HEAD_KEY`. Someone who can write to the database but does not hold the key can
    delete events but cannot make a head that agrees with what is left."""

    tenant_id = models.BigIntegerField(_("tenant id"), primary_key=True)
    event_count = models.BigIntegerField(_("event count"))
    last_hash = models.CharField(_("last hash"), max_length=64)
    mac = models.CharField(_("seal"), max_length=64)
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("audit chain head")
        verbose_name_plural = _("audit chain heads")
        default_permissions = ()

    def __str__(self) -> str:
        return f"tenant {self.tenant_id}: {self.event_count} events"
