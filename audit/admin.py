"""The audit trail in the staff console: read-only for everyone (auditors included), filtered to the
member's tenants, with the chain verification status and a CSV export of the filtered list."""
from __future__ import annotations

import json

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.urls import path
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from audit.events import event_label
from audit.exports import audit_events_csv_response
from audit.models import AuditEvent
from audit.selectors import audit_chain_status
from memoryhub.console.admin import ReadOnlyAdminMixin
from memoryhub.tenancy.models import Tenant
from memoryhub.tenancy.selectors import restrict_to_member_tenants, staff_tenant_ids


class TenantFilter(admin.SimpleListFilter):
    title = _("tenant")
    parameter_name = "tenant"

    def lookups(self, request, model_admin):
        tenants = Tenant.objects.all()
        tenant_ids = staff_tenant_ids(request.user)
        if tenant_ids is not None:
            tenants = tenants.filter(id__in=tenant_ids)
        return [(str(t.id), t.slug) for t in tenants]

    def queryset(self, request, queryset):
        return queryset.filter(tenant_id=self.value()) if self.value() else queryset


# What each object type and actor kind is, for people (the codes stay in the row and the CSV export).
OBJECT_TYPE_LABELS = {
    "api_key": _("API key"), "membership": _("staff role"), "end_user": _("end user"), "session": _("session"),
    "session_summary": _("session summary"), "task_type": _("task type"), "long_term.memory": _("memory"),
    "permanent_change_request": _("change request"), "permanent_entry": _("permanent entry"),
}
ACTOR_KIND_LABELS = {"user": _("staff user"), "api_key": _("API key"), "system": _("system job")}


class ObjectTypeFilter(admin.SimpleListFilter):
    title = _("object type")
    parameter_name = "object_type"

    def lookups(self, request, model_admin):
        names = model_admin.get_queryset(request).order_by("object_type").values_list("object_type", flat=True).distinct()
        return [(name, OBJECT_TYPE_LABELS.get(name, name)) for name in names]

    def queryset(self, request, queryset):
        return queryset.filter(object_type=self.value()) if self.value() else queryset


class ActorKindFilter(admin.SimpleListFilter):
    title = _("actor kind")
    parameter_name = "actor_kind"

    def lookups(self, request, model_admin):
        return list(ACTOR_KIND_LABELS.items())

    def queryset(self, request, queryset):
        return queryset.filter(actor_kind=self.value()) if self.value() else queryset


class ActionFilter(admin.SimpleListFilter):
    """The declared event types by their translated labels (the dotted names are for code)."""

    title = _("action")
    parameter_name = "action"

    def lookups(self, request, model_admin):
        # The actions present in the member's trail (not every declared type), by label.
        names = model_admin.get_queryset(request).order_by("action").values_list("action", flat=True).distinct()
        return sorted(((name, event_label(name)) for name in names), key=lambda pair: str(pair[1]))

    def queryset(self, request, queryset):
        return queryset.filter(action=self.value()) if self.value() else queryset


class ActorFilter(admin.SimpleListFilter):
    title = _("actor")
    parameter_name = "actor"

    def lookups(self, request, model_admin):
        labels = (model_admin.get_queryset(request).order_by("actor_label").values_list("actor_label", flat=True)
                  .distinct()[:100])
        return [(label, label) for label in labels]

    def queryset(self, request, queryset):
        return queryset.filter(actor_label=self.value()) if self.value() else queryset


def _pretty(value) -> str:
    if value is None:
        return "—"
    return format_html('<pre class="console-json">{}</pre>', json.dumps(value, indent=2, ensure_ascii=False,
                                                                          sort_keys=True))


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    # Newest first, each row readable at a glance: the tenant's slug, the action's translated label.
    list_display = ("occurred_at", "tenant_slug", "seq", "action_label", "actor_label", "object_type_label",
                    "object_id")
    list_display_links = ("occurred_at",)
    ordering = ("-occurred_at", "-id")
    list_filter = (TenantFilter, ActionFilter, ActorFilter, ActorKindFilter, ObjectTypeFilter,
                   ("occurred_at", admin.DateFieldListFilter))
    search_fields = ("action", "object_id", "actor_label", "request_id", "subject")
    date_hierarchy = "occurred_at"
    fields = ("tenant_slug", "tenant_id", "seq", "occurred_at", "actor_kind", "actor_id", "actor_label", "action_label",
              "action", "object_type", "object_id", "subject", "before_pretty", "after_pretty", "request_id",
              "prev_hash", "hash")
    readonly_fields = fields

    @admin.display(description=_("tenant"), ordering="tenant_id")
    def tenant_slug(self, obj):
        return getattr(obj, "tenant_slug_value", None) or obj.tenant_id

    @admin.display(description=_("action"), ordering="action")
    def action_label(self, obj):
        return event_label(obj.action)

    @admin.display(description=_("object type"), ordering="object_type")
    def object_type_label(self, obj):
        return OBJECT_TYPE_LABELS.get(obj.object_type, obj.object_type)

    @admin.display(description=_("before"))
    def before_pretty(self, obj):
        return _pretty(obj.before)

    @admin.display(description=_("after"))
    def after_pretty(self, obj):
        return _pretty(obj.after)

    def get_queryset(self, request):
        # The slug in the same query (the trail holds tenant ids only: no foreign key may point out of it).
        slug = Tenant.objects.filter(pk=OuterRef("tenant_id")).values("slug")[:1]
        return restrict_to_member_tenants(super().get_queryset(request).annotate(tenant_slug_value=Subquery(slug)),
                                          request.user)

    def get_urls(self):
        custom = [path("export.csv", self.admin_site.admin_view(self.export_csv_view), name="audit_auditevent_export")]
        return custom + super().get_urls()

    def export_csv_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        # The same filters and search as the list the auditor is looking at.
        changelist = self.get_changelist_instance(request)
        return audit_events_csv_response(changelist.get_queryset(request))

    def changelist_view(self, request, extra_context=None):
        tenant_ids = staff_tenant_ids(request.user)
        if tenant_ids is None:
            reports = [("*", audit_chain_status())]
        else:
            slugs = dict(Tenant.objects.filter(pk__in=tenant_ids).values_list("pk", "slug"))
            reports = [(slugs[tenant_id], audit_chain_status(tenant_id=tenant_id)) for tenant_id in sorted(tenant_ids)]
        extra = {"chain_reports": reports, "export_query": request.GET.urlencode()}
        return super().changelist_view(request, {**extra, **(extra_context or {})})
