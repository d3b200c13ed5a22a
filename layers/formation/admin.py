"""Formation runs in the staff console: read-only, what each run extracted, merged, dropped."""
from __future__ import annotations

from django.contrib import admin

from layers.formation.models import FormationRun, FormationState
from memoryhub.console.admin import ReadOnlyAdminMixin
from memoryhub.tenancy.selectors import restrict_to_member_tenants

RUN_FIELDS = ("tenant", "session", "job", "outcome", "extractor", "turn_from", "turn_to", "written", "merged",
              "superseded", "quarantined", "secrets_dropped", "rejected", "dropped", "summary_version", "created_at")


@admin.register(FormationRun)
class FormationRunAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("session", "job", "outcome", "extractor", "turn_from", "turn_to", "written", "merged",
                    "superseded", "quarantined", "secrets_dropped", "rejected", "created_at")
    list_filter = ("job", "outcome", "extractor", "tenant")
    search_fields = ("=session__session_id", "=session__user_id")
    fields = RUN_FIELDS
    readonly_fields = RUN_FIELDS

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("session", "tenant"),
                                          request.user)


@admin.register(FormationState)
class FormationStateAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("session", "last_extracted_seq", "last_summarised_seq", "updated_at")
    search_fields = ("=session__session_id", "=session__user_id")
    fields = ("session", "last_extracted_seq", "last_summarised_seq", "updated_at")
    readonly_fields = fields

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("session"), request.user,
                                          "session__tenant_id")
