"""Reminders in the staff console: listed and filtered, cancelled by an action (through the audited
service); the tenant's reminder settings edited through their service too."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from layers.reminders.models import Reminder, ReminderSettings
from layers.reminders.services import (
    reminder_cancel,
    reminder_delivery_retry,
    reminder_settings_update,
)
from memoryhub.console.admin import ReadOnlyAdminMixin
from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.models import Tenant
from memoryhub.tenancy.selectors import restrict_to_member_tenants, staff_tenant_ids
from memoryhub.tenancy.services import time_zone_validate

REMINDER_FIELDS = ("tenant", "user_id", "text", "status", "due_at", "time_zone", "recurrence", "previous",
                   "source_session", "source_turn", "amended_by_turn", "cancelled_by_turn", "cancel_reason",
                   "client_id", "idempotency_key", "quarantine_reasons", "delivery_attempts", "next_attempt_at",
                   "in_flight_until", "last_attempt_at", "last_error", "delivery_failed", "delivered_at",
                   "delivered_via", "created_by", "created_at", "updated_at")


@admin.register(Reminder)
class ReminderAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "user_id", "text", "status", "due_at", "recurrence", "delivery_attempts",
                    "delivery_failed", "tenant")
    list_filter = ("status", "delivery_failed", "delivered_via", "tenant")
    search_fields = ("=user_id", "text", "=idempotency_key")
    date_hierarchy = "due_at"
    fields = REMINDER_FIELDS
    readonly_fields = REMINDER_FIELDS
    actions = ["cancel_selected", "retry_delivery"]

    def get_queryset(self, request):
        return restrict_to_member_tenants(
            super().get_queryset(request).select_related("tenant", "source_session", "source_turn"), request.user)

    def has_change_permission(self, request, obj=None):
        # Only the change list's cancel action needs it; a reminder's own page stays read-only.
        return obj is None and request.user.has_perm("reminders.change_reminder")

    @admin.action(description=_("Cancel the selected reminders"), permissions=["change"])
    def cancel_selected(self, request, queryset):
        actor, done = Actor.for_user(request.user), 0
        for reminder in queryset:
            try:
                reminder_cancel(reminder=reminder, actor=actor)
                done += 1
            except DomainError as exc:
                messages.error(request, f"#{reminder.pk}: {exc.message}")
        if done:
            messages.success(request, ngettext("%(count)d reminder cancelled.", "%(count)d reminders cancelled.",
                                               done) % {"count": done})


    @admin.action(description=_("Retry the delivery of the selected failed reminders"), permissions=["change"])
    def retry_delivery(self, request, queryset):
        actor, done = Actor.for_user(request.user), 0
        for reminder in queryset:
            try:
                reminder_delivery_retry(reminder=reminder, actor=actor)
                done += 1
            except DomainError as exc:
                messages.error(request, f"#{reminder.pk}: {exc.message}")
        if done:
            messages.success(request, ngettext("%(count)d reminder will be delivered again.",
                                               "%(count)d reminders will be delivered again.", done) % {"count": done})


class ReminderSettingsForm(forms.ModelForm):
    # The tenant's zone lives on the tenant (memoryhub/tenancy); set here through the same service.
    time_zone = forms.CharField(label=_("time zone"), max_length=ReminderSettings.TIME_ZONE_MAX_LENGTH,
                                initial="UTC")
    webhook_url = forms.URLField(label=_("webhook URL"), required=False, max_length=500, assume_scheme="https")
    webhook_secret = forms.CharField(label=_("webhook secret"), required=False, widget=forms.PasswordInput,
                                     help_text=_("leave empty to keep the current secret"))

    class Meta:
        model = ReminderSettings
        fields = ("tenant", "webhook_url", "webhook_secret")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["time_zone"].initial = self.instance.tenant.time_zone

    def clean(self):
        cleaned = super().clean()
        try:
            cleaned["time_zone"] = time_zone_validate(cleaned.get("time_zone") or "")
        except DomainError as exc:
            raise ValidationError({"time_zone": exc.message}) from None
        has_secret = bool(cleaned.get("webhook_secret")) or bool(self.instance.pk and self.instance.webhook_secret)
        if cleaned.get("webhook_url") and not has_secret:
            raise ValidationError({"webhook_secret": _("a webhook needs a secret to sign its deliveries")})
        if cleaned.get("webhook_secret") and len(cleaned["webhook_secret"]) < 16:
            raise ValidationError({"webhook_secret": _("webhook_secret must have at least 16 characters")})
        return cleaned


@admin.register(ReminderSettings)
class ReminderSettingsAdmin(admin.ModelAdmin):
    form = ReminderSettingsForm
    list_display = ("tenant", "tenant_time_zone", "webhook_url", "updated_at")

    @admin.display(description=_("time zone"))
    def tenant_time_zone(self, obj):
        return obj.tenant.time_zone

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("tenant"), request.user)

    def get_readonly_fields(self, request, obj=None):
        return ("tenant",) if obj is not None else ()

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "tenant":
            tenant_ids = staff_tenant_ids(request.user)
            kwargs["queryset"] = Tenant.objects.all() if tenant_ids is None else Tenant.objects.filter(id__in=tenant_ids)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        tenant = obj.tenant if change else form.cleaned_data["tenant"]
        saved = reminder_settings_update(
            tenant=tenant, actor=Actor.for_user(request.user), time_zone=form.cleaned_data.get("time_zone"),
            webhook_url=form.cleaned_data.get("webhook_url", ""),
            webhook_secret=form.cleaned_data.get("webhook_secret") or None)
        obj.pk = saved.pk
        obj.refresh_from_db()
