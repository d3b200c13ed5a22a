from django.contrib import admin

from audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("tenant_id", "seq", "occurred_at", "action", "actor_label", "object_type", "object_id")
    list_filter = ("action", "actor_kind", "object_type")
    search_fields = ("action", "object_id", "actor_label", "request_id")
    date_hierarchy = "occurred_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
