"""Sessions in the staff console: read-only, with their turns and summaries inline. Ending a
session goes through the service (audited), like the API."""
from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.utils.translation import gettext_lazy as _

from layers.short_term.models import Session, SessionSummary, Turn
from layers.short_term.services import session_end
from memoryhub.console.admin import ReadOnlyAdminMixin
from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.selectors import restrict_to_member_tenants


class ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_view_permission(self, request, obj=None):
        # Turns and summaries are part of the session: whoever may view it sees them.
        return request.user.has_perm("short_term.view_session")


class TurnInline(ReadOnlyInline):
    model = Turn
    fields = ("seq", "role", "content", "token_count", "tool_name", "client_id", "redactions", "created_at")
    readonly_fields = fields
    ordering = ("seq",)


class SessionSummaryInline(ReadOnlyInline):
    model = SessionSummary
    fields = ("version", "covers_up_to", "content", "token_count", "summariser", "created_at")
    readonly_fields = fields


SESSION_FIELDS = ("tenant", "session_id", "user_id", "agent_id", "status", "started_at", "last_activity_at",
                  "ended_at", "turn_count", "needs_summary", "summarised_at_turn_count", "metadata")


@admin.register(Session)
class SessionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    # Read-only; ending is the one change, through the action below.
    list_display = ("session_id", "user_id", "agent_id", "status", "turn_count", "needs_summary",
                    "last_activity_at", "tenant")
    list_filter = ("status", "needs_summary", "tenant")
    search_fields = ("=session_id", "=user_id", "agent_id")
    date_hierarchy = "last_activity_at"
    fields = SESSION_FIELDS
    readonly_fields = SESSION_FIELDS
    # Turns are paged on the session page (a long session would otherwise render every turn at once).
    inlines = [SessionSummaryInline]
    actions = ["end_selected"]
    change_form_template = "admin/short_term/session/change_form.html"
    TURNS_PER_PAGE = 50

    def change_view(self, request, object_id, form_url="", extra_context=None):
        session = self.get_object(request, object_id)
        extra = {}
        if session is not None:
            turns = Turn.objects.filter(session=session).order_by("seq").only(*TurnInline.fields, "session_id")
            page = Paginator(turns, self.TURNS_PER_PAGE).get_page(request.GET.get("turns_page"))
            extra = {"turns_page": page, "turn_fields": [Turn._meta.get_field(name) for name in TurnInline.fields]}
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("tenant"), request.user)

    @admin.action(description=_("End selected sessions"))
    def end_selected(self, request, queryset):
        if not request.user.has_perm("short_term.change_session"):
            raise PermissionDenied
        actor, ended = Actor.for_user(request.user), 0
        for session in queryset:
            try:
                session_end(session=session, actor=actor)
                ended += 1
            except DomainError as exc:
                messages.error(request, f"{session.session_id}: {exc.message}")
        if ended:
            messages.success(request, _("Ended %(count)d session(s).") % {"count": ended})


@admin.register(SessionSummary)
class SessionSummaryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("session", "version", "covers_up_to", "token_count", "summariser", "created_at")
    list_filter = ("summariser", "session__tenant")
    search_fields = ("=session__session_id", "=session__user_id")
    fields = ("session", "version", "covers_up_to", "content", "token_count", "summariser", "created_at")
    readonly_fields = fields

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("session"), request.user,
                                          "session__tenant_id")
