"""Tenants, their API keys, and staff memberships.

An API key is `mh_<prefix>_<secret>`: the prefix is stored in clear to find the row, the secret
(32 random bytes) only as SHA-256. A high-entropy secret needs no slow password hash.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils.translation import gettext_lazy as _


class Tenant(models.Model):
    SLUG_MAX_LENGTH = 64
    TIME_ZONE_MAX_LENGTH = 64
    ACTOR_MAX_LENGTH = 200

    slug = models.SlugField(_("slug"), max_length=SLUG_MAX_LENGTH, unique=True)
    name = models.CharField(_("name"), max_length=200)
    # Tenant-wide switches an operator may change; policy numbers live in the permanent layer.
    redact_secrets_in_turns = models.BooleanField(_("redact secrets in turns"), default=True)
    # The clock the tenant's users speak in when their session names none (an IANA name): reminders read
    # times in it, habits their time of day (memoryhub/tenancy/selectors.tenant_time_zone).
    time_zone = models.CharField(_("time zone"), max_length=TIME_ZONE_MAX_LENGTH, default="UTC")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Who created the tenant (the acting actor's label). Not an audit event: a tenant's hash chain begins
    # with the first change made inside it, so its creation is recorded on its own row.
    created_by = models.CharField(_("created by"), max_length=ACTOR_MAX_LENGTH, blank=True, default="")

    class Meta:
        verbose_name = _("tenant")
        verbose_name_plural = _("tenants")
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class Scope(models.TextChoices):
    READ = "read", _("read")
    WRITE = "write", _("write")
    PROPOSE = "propose", _("propose permanent changes")
    ADMIN = "admin", _("admin")


# Which granted scopes satisfy a required one: read ⊂ write ⊂ admin; propose adds to read.
SCOPE_SATISFIED_BY = {
    Scope.READ: {Scope.READ, Scope.WRITE, Scope.PROPOSE, Scope.ADMIN},
    Scope.WRITE: {Scope.WRITE, Scope.ADMIN},
    Scope.PROPOSE: {Scope.PROPOSE, Scope.ADMIN},
    Scope.ADMIN: {Scope.ADMIN},
}


class ApiKey(models.Model):
    PREFIX_LENGTH = 8
    NAME_MAX_LENGTH = 100

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="api_keys")
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    prefix = models.CharField(_("prefix"), max_length=PREFIX_LENGTH, unique=True)
    secret_hash = models.CharField(_("secret hash"), max_length=64)
    scopes = ArrayField(models.CharField(max_length=16, choices=Scope.choices), default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} (mh_{self.prefix}_…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def has_scope(self, required: str) -> bool:
        return bool(SCOPE_SATISFIED_BY[Scope(required)] & set(self.scopes))


class Role(models.TextChoices):
    EDITOR = "editor", _("editor")
    REVIEWER = "reviewer", _("reviewer")
    AUDITOR = "auditor", _("auditor")


class Membership(models.Model):
    """A staff user's role in one tenant; the admin shows members only their tenants' data."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["user", "tenant", "role"], name="membership_unique_role")]

    def __str__(self) -> str:
        return f"{self.user} · {self.tenant} · {self.role}"
