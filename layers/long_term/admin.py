"""Long-term memories in the staff console: inspect and filter, soft-delete / restore, history and
revert, and the quarantine review queue. Every change goes through the layer's services (audited);
the admin never writes a memory itself."""
from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.services import (
    memory_hard_delete,
    memory_quarantine_release,
    memory_restore,
    memory_revert,
    memory_soft_delete,
)
from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.selectors import restrict_to_member_tenants

CHANGE_PERMISSION = "long_term.change_memory"
# Columns shown read-only on the inspect page; derived search columns are left out.
INSPECT_FIELDS = (
    "tenant", "user_id", "agent_id", "kind", "status", "quarantine_reasons", "content", "memory_key", "entities",
    "attributes", "confidence", "importance", "source", "source_session_id", "source_turn_from", "source_turn_to",
    "extractor", "client_id", "valid_from", "valid_to", "superseded_by", "expires_at", "last_confirmed_at",
    "mention_count", "last_accessed_at", "access_count", "feedback_positive", "feedback_negative",
    "feedback_weight", "embedding_model", "created_at", "updated_at",
)


def _run(request, queryset, service, done_message) -> None:
    if not request.user.has_perm(CHANGE_PERMISSION):
        raise PermissionDenied
    actor = Actor.for_user(request.user)
    done = 0
    for memory in queryset:
        try:
            service(memory=memory, actor=actor)
            done += 1
        except DomainError as exc:
            messages.error(request, f"#{memory.pk}: {exc.message}")
    if done:
        messages.success(request, done_message % {"count": done})


@admin.register(Memory)
class MemoryAdmin(SimpleHistoryAdmin):
    list_display = ("id", "user_id", "kind", "status", "short_content", "memory_key", "importance", "tenant",
                    "created_at")
    list_filter = ("status", "kind", "source", ("tenant", admin.RelatedOnlyFieldListFilter),
                   ("expires_at", admin.EmptyFieldListFilter))
    search_fields = ("content", "user_id", "memory_key")
    date_hierarchy = "created_at"
    fields = INSPECT_FIELDS
    readonly_fields = INSPECT_FIELDS
    actions = ["soft_delete_selected", "restore_selected", "release_selected", "hard_delete_selected"]

    @admin.display(description=_("content"))
    def short_content(self, obj):
        return obj.content if len(obj.content) <= 80 else obj.content[:79] + "…"

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("tenant"), request.user)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        # The form is read-only; changes happen only through the actions below.
        return False

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not request.user.has_perm(CHANGE_PERMISSION):
            return {}
        return actions

    @admin.action(description=_("Soft-delete selected memories"))
    def soft_delete_selected(self, request, queryset):
        _run(request, queryset, memory_soft_delete, _("Soft-deleted %(count)d memories."))

    @admin.action(description=_("Restore selected memories"))
    def restore_selected(self, request, queryset):
        _run(request, queryset, memory_restore, _("Restored %(count)d memories."))

    @admin.action(description=_("Release selected memories from quarantine"))
    def release_selected(self, request, queryset):
        _run(request, queryset, memory_quarantine_release, _("Released %(count)d memories."))

    @admin.action(description=_("Delete selected soft-deleted memories for good"))
    def hard_delete_selected(self, request, queryset):
        _run(request, queryset, memory_hard_delete, _("Deleted %(count)d memories for good."))

    def get_urls(self):
        custom = [
            path("quarantine/", self.admin_site.admin_view(self.quarantine_view), name="long_term_memory_quarantine"),
        ]
        return custom + super().get_urls()

    def quarantine_view(self, request):
        """The review queue: quarantined memories with their reasons, to release or delete."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        queryset = self.get_queryset(request).filter(status=MemoryStatus.QUARANTINED).order_by("created_at")
        if request.method == "POST":
            memory = get_object_or_404(queryset, pk=request.POST.get("memory"))
            operation = request.POST.get("operation")
            if operation == "release":
                _run(request, [memory], memory_quarantine_release, _("Released %(count)d memories."))
            elif operation == "delete":
                _run(request, [memory], memory_soft_delete, _("Soft-deleted %(count)d memories."))
            return HttpResponseRedirect(reverse("admin:long_term_memory_quarantine"))
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "title": _("Quarantine review queue"), "memories": queryset[:200],
                   "can_change": request.user.has_perm(CHANGE_PERMISSION)}
        return TemplateResponse(request, "admin/long_term/memory/quarantine.html", context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        """One earlier version of a memory, with "revert to this version" through `memory_revert`
        (a new version; history is never rewritten)."""
        memory = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_view_permission(request, memory):
            raise PermissionDenied
        version = get_object_or_404(memory.history.all(), history_id=version_id)
        if request.method == "POST":
            if not request.user.has_perm(CHANGE_PERMISSION):
                raise PermissionDenied
            try:
                memory_revert(memory=memory, history_id=version.history_id, actor=Actor.for_user(request.user))
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Reverted to the version of %(when)s.") % {"when": version.history_date})
            return HttpResponseRedirect(reverse("admin:long_term_memory_history", args=[memory.pk]))
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "original": memory,
                   "title": _("Version of %(when)s") % {"when": version.history_date}, "memory": memory,
                   "version": version, "can_change": request.user.has_perm(CHANGE_PERMISSION)}
        return TemplateResponse(request, "admin/long_term/memory/version.html", context)
