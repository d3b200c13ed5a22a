"""Long-term memories in the staff console: inspect and filter, soft-delete / restore, history and
revert, and the quarantine review queue. Every change goes through the layer's services (audited);
the admin never writes a memory itself."""
from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import formats
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
from memoryhub.console.history import VersionTitledHistoryMixin
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


# What each quarantine reason code (memoryhub/safety/injection INJECTION_REASONS) means, for people.
# A code without a label here is shown as itself, so a new detector is never hidden.
QUARANTINE_REASON_LABELS = {
    "override_instructions": _("tells the agent to ignore its instructions"),
    "role_claim": _("claims a new role for the agent"),
    "forged_role_tag": _("forges a system or assistant message"),
    "planted_recommendation": _("plants a recommendation for the agent"),
    "prompt_exfiltration": _("asks the agent to reveal its prompt"),
    "data_exfiltration": _("sends user data to an outside address"),
    "exfiltration_link": _("link that sends user data to an outside address"),
    "encoded_instructions": _("hides instructions in an encoding"),
    "encoded_payload": _("hides instructions in an encoding"),
    "homoglyph_instructions": _("disguises instructions with look-alike letters"),
    "confusables": _("disguises instructions with look-alike letters"),
    "system_override": _("poses as a system override"),
    "tool_planting": _("a tool result that plants instructions for the agent"),
    "memory_poisoning": _("tries to plant a false memory or rule"),
    "secret": _("contains a secret"),
}


def quarantine_reason_labels(codes) -> list[str]:
    return [str(QUARANTINE_REASON_LABELS.get(code, code)) for code in codes or ()]


READ_ONLY_MESSAGE = _("Only reviewers may soft-delete, restore, release or revert memories; your role reads them.")
READABLE_CONTENT_LENGTH = 280


def version_title(version, number: int, total: int) -> str:
    """"Version 3 of 5 · 5 Jan 2026, 09:30 · by rita" instead of a raw timestamp."""
    when = formats.date_format(version.history_date, "DATETIME_FORMAT")
    who = version.history_user.get_username() if getattr(version, "history_user", None) else ""
    title = _("Version %(number)d of %(total)d · %(when)s") % {"number": number, "total": total, "when": when}
    return f"{title} · {who}" if who else title


def _versions(memory) -> list[dict]:
    """The memory's versions, newest first, numbered from the oldest (1) so a title reads as a count."""
    versions = list(memory.history.select_related("history_user").order_by("history_date", "history_id"))
    total = len(versions)
    return [{"version": version, "number": number, "title": version_title(version, number, total),
             "is_current": number == total}
            for number, version in reversed(list(enumerate(versions, start=1)))]


class UserFilter(admin.SimpleListFilter):
    """The end users with the most memories in the staff member's tenants (search finds any other)."""

    title = _("end user")
    parameter_name = "user"
    LIMIT = 50

    def lookups(self, request, model_admin):
        rows = (model_admin.get_queryset(request).values("user_id").annotate(n=Count("id")).order_by("-n", "user_id")
                [:self.LIMIT])
        return [(row["user_id"], f"{row['user_id']} ({row['n']})") for row in rows]

    def queryset(self, request, queryset):
        return queryset.filter(user_id=self.value()) if self.value() else queryset


def _run(request, queryset, service, done_message) -> None:
    if not request.user.has_perm(CHANGE_PERMISSION):
        raise PermissionDenied(READ_ONLY_MESSAGE)
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
class MemoryAdmin(VersionTitledHistoryMixin, SimpleHistoryAdmin):
    list_display = ("id", "readable_content", "user_id", "kind", "status", "memory_key", "importance", "tenant",
                    "created_at")
    list_display_links = ("id", "readable_content")
    list_filter = ("status", "kind", UserFilter, "source", ("tenant", admin.RelatedOnlyFieldListFilter),
                   ("expires_at", admin.EmptyFieldListFilter))
    change_form_template = "admin/long_term/memory/change_form.html"
    search_fields = ("content", "user_id", "memory_key")
    date_hierarchy = "created_at"
    fields = INSPECT_FIELDS
    readonly_fields = INSPECT_FIELDS
    actions = ["soft_delete_selected", "restore_selected", "release_selected", "hard_delete_selected"]

    @admin.display(description=_("content"))
    def readable_content(self, obj):
        # Whole sentences, wrapped by the stylesheet (memoryhub/console/static/console/console.css).
        if len(obj.content) <= READABLE_CONTENT_LENGTH:
            return obj.content
        return obj.content[:READABLE_CONTENT_LENGTH - 1] + "…"

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
            path("<int:memory_id>/operation/", self.admin_site.admin_view(self.operation_view),
                 name="long_term_memory_operation"),
        ]
        return custom + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The memory page: its fields, the actions its status allows, and its versions to revert to."""
        memory = get_object_or_404(self.get_queryset(request), pk=object_id)
        can_change = request.user.has_perm(CHANGE_PERMISSION)
        status = memory.status
        extra = {
            "memory": memory, "can_change": can_change, "reason_labels": quarantine_reason_labels(memory.quarantine_reasons), "versions": _versions(memory)[:20],
            "can_soft_delete": can_change and status != MemoryStatus.DELETED,
            "can_restore": can_change and status == MemoryStatus.DELETED,
            "can_release": can_change and status == MemoryStatus.QUARANTINED,
            "can_revert": can_change and status in (MemoryStatus.ACTIVE, MemoryStatus.QUARANTINED),
        }
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    def operation_view(self, request, memory_id: int):
        """Soft-delete, restore, release or revert one memory from its page (POST only)."""
        memory = get_object_or_404(self.get_queryset(request), pk=memory_id)
        back = HttpResponseRedirect(reverse("admin:long_term_memory_change", args=[memory.pk]))
        if request.method != "POST":
            return back
        if not request.user.has_perm(CHANGE_PERMISSION):
            raise PermissionDenied(READ_ONLY_MESSAGE)
        operation = request.POST.get("operation")
        if operation == "soft_delete":
            _run(request, [memory], memory_soft_delete, _("Soft-deleted %(count)d memories."))
        elif operation == "restore":
            _run(request, [memory], memory_restore, _("Restored %(count)d memories."))
        elif operation == "release":
            _run(request, [memory], memory_quarantine_release, _("Released %(count)d memories."))
        elif operation == "revert":
            version = memory.history.filter(history_id=request.POST.get("history_id") or 0).first() \
                if (request.POST.get("history_id") or "").isdigit() else None
            if version is None:
                messages.error(request, _("Choose a version to revert to."))
                return back
            try:
                memory_revert(memory=memory, history_id=version.history_id, actor=Actor.for_user(request.user))
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Reverted to the version of %(when)s.")
                                 % {"when": formats.date_format(version.history_date, "DATETIME_FORMAT")})
        else:
            messages.error(request, _("Unknown operation."))
        return back

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
                   "title": _("Quarantine review queue"),
                   "memories": [(memory, quarantine_reason_labels(memory.quarantine_reasons)) for memory in queryset[:200]],
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
                raise PermissionDenied(READ_ONLY_MESSAGE)
            try:
                memory_revert(memory=memory, history_id=version.history_id, actor=Actor.for_user(request.user))
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Reverted to the version of %(when)s.")
                                 % {"when": formats.date_format(version.history_date, "DATETIME_FORMAT")})
            return HttpResponseRedirect(reverse("admin:long_term_memory_history", args=[memory.pk]))
        numbered = next(row for row in _versions(memory) if row["version"].history_id == version.history_id)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "original": memory,
                   "title": _("Memory #%(id)d: %(version)s") % {"id": memory.pk, "version": numbered["title"]},
                   "version_title": numbered["title"], "is_current": numbered["is_current"], "memory": memory,
                   "version": version, "can_change": request.user.has_perm(CHANGE_PERMISSION)}
        return TemplateResponse(request, "admin/long_term/memory/version.html", context)
