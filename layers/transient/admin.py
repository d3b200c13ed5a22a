"""Task types (edited by staff, through the audited services, with history) and task states
(read-only) in the staff console."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from layers.transient.models import TaskState, TaskType
from layers.transient.services import (
    task_type_create,
    task_type_delete,
    task_type_update,
    validate_task_type_fields,
)
from memoryhub.console.admin import ReadOnlyAdminMixin
from memoryhub.console.history import VersionTitledHistoryMixin
from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.models import Tenant
from memoryhub.tenancy.selectors import restrict_to_member_tenants, staff_tenant_ids


class TaskTypeForm(forms.ModelForm):
    class Meta:
        model = TaskType
        fields = ("tenant", "name", "description", "required_slots", "optional_slots", "default_ttl_seconds")

    def clean(self):
        cleaned = super().clean()
        try:
            validate_task_type_fields(
                name=cleaned.get("name"), required_slots=cleaned.get("required_slots") or [],
                optional_slots=cleaned.get("optional_slots") or [],
                default_ttl_seconds=cleaned.get("default_ttl_seconds"),
            )
        except DomainError as exc:
            fields = exc.details.get("fields", {})
            field = next(iter(fields), None)
            raise ValidationError({field: exc.message} if field in self.fields else exc.message)
        # The tenant is read-only on change, so the model form's own unique check cannot see it.
        tenant = cleaned.get("tenant") or (self.instance.tenant if self.instance.pk else None)
        name = (cleaned.get("name") or "").strip()
        if tenant is not None and TaskType.objects.filter(tenant=tenant, name=name).exclude(pk=self.instance.pk).exists():
            raise ValidationError({"name": _("a task type with this name exists")})
        return cleaned


@admin.register(TaskType)
class TaskTypeAdmin(VersionTitledHistoryMixin, SimpleHistoryAdmin):
    form = TaskTypeForm
    list_display = ("name", "tenant", "required_slots", "optional_slots", "default_ttl_seconds", "updated_at")
    list_filter = ("tenant",)
    search_fields = ("name", "description")

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
        actor = Actor.for_user(request.user)
        fields = {key: form.cleaned_data.get(key) for key in
                  ("name", "description", "required_slots", "optional_slots", "default_ttl_seconds")}
        if change:
            task_type_update(task_type=TaskType.objects.get(pk=obj.pk), actor=actor, **fields)
        else:
            created = task_type_create(tenant=form.cleaned_data["tenant"], actor=actor, **fields)
            obj.pk = created.pk
        obj.refresh_from_db()

    def has_delete_permission(self, request, obj=None):
        if obj is not None and TaskState.objects.filter(task_type=obj).exists():
            return False  # tasks of this type are still alive; they expire within their TTL
        return super().has_delete_permission(request, obj)

    def delete_model(self, request, obj):
        task_type_delete(task_type=obj, actor=Actor.for_user(request.user))

    def delete_queryset(self, request, queryset):
        actor = Actor.for_user(request.user)
        for task_type in queryset:
            try:
                task_type_delete(task_type=task_type, actor=actor)
            except DomainError as exc:
                messages.error(request, f"{task_type.name}: {exc.message}")


TASK_STATE_FIELDS = ("tenant", "session", "task_type", "status", "resume_status", "slots", "parent", "depth",
                     "created_at", "updated_at", "expires_at")


@admin.register(TaskState)
class TaskStateAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "task_type", "status", "session", "depth", "parent", "expires_at", "updated_at")
    list_filter = ("status", "tenant", "task_type")
    search_fields = ("=session__session_id", "=session__user_id", "task_type__name")
    fields = TASK_STATE_FIELDS
    readonly_fields = TASK_STATE_FIELDS

    def get_queryset(self, request):
        return restrict_to_member_tenants(
            super().get_queryset(request).select_related("tenant", "session", "task_type", "parent"), request.user)
