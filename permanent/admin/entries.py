"""Permanent entries in the console: read-only, with a version timeline and "roll back to this
version", which opens a new change request (history is never rewritten)."""
from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from memoryhub.console.admin import ReadOnlyAdminMixin
from memoryhub.console.history import VersionTitledHistoryMixin
from memoryhub.console.permissions import ChangeRequestPolicy
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.selectors import restrict_to_member_tenants
from permanent.admin.diff import pretty_json
from permanent.admin.forms import RollbackForm
from permanent.admin.history import ReadOnlyHistoryMixin
from permanent.models import ChangeState, PermanentEntry, PermanentVersion
from permanent.services import (
    change_request_propose_retire,
    change_request_propose_rollback,
)


@admin.register(PermanentEntry)
class PermanentEntryAdmin(ReadOnlyAdminMixin, ReadOnlyHistoryMixin, VersionTitledHistoryMixin, SimpleHistoryAdmin):
    list_display = ("key", "scope_display", "tenant", "status", "current_version", "required_approvals", "updated_at")
    list_filter = ("status", ("tenant", admin.RelatedOnlyFieldListFilter))
    search_fields = ("key",)

    @admin.display(description=_("scope"))
    def scope_display(self, obj):
        return obj.user_id or _("global")

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("tenant"), request.user)

    def history_change_request_ids(self, records) -> dict[int, int]:
        """A version of the entry was applied by the change request recorded on its PermanentVersion."""
        numbers = {(record.id, record.current_version): record.history_id for record in records}
        found = PermanentVersion.objects.filter(entry_id__in={entry for entry, _n in numbers},
                                                change_request__isnull=False)
        return {numbers[(v.entry_id, v.number)]: v.change_request_id
                for v in found.only("entry_id", "number", "change_request_id") if (v.entry_id, v.number) in numbers}

    def get_urls(self):
        custom = [path("<int:entry_id>/rollback/<int:number>/", self.admin_site.admin_view(self.rollback_view),
                       name="permanent_permanententry_rollback"),
                  path("<int:entry_id>/retire/", self.admin_site.admin_view(self.retire_view),
                       name="permanent_permanententry_retire")]
        return custom + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        entry = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_view_permission(request, entry):
            raise PermissionDenied
        can_propose = request.user.has_perm("permanent.add_changerequest") and ChangeRequestPolicy(request.user).can_propose(entry.tenant_id)
        versions = [
            {"version": version, "json": pretty_json(version.value),
             "can_roll_back": can_propose and version.number < entry.current_version and version.action != "retire"
             # Rolling back to a value equal to the current one would change nothing.
             and not (entry.status == "active" and version.value_hash == entry.value_hash)}
            for version in entry.versions.order_by("-number")
        ]
        open_requests = entry.change_requests.filter(state__in=[ChangeState.PENDING, ChangeState.APPROVED])
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "original": entry, "entry": entry,
            "title": _("Permanent entry %(key)s") % {"key": entry.key},
            "current_json": pretty_json(entry.value), "versions": versions, "open_requests": open_requests,
            "can_propose": can_propose, "rollback_form": RollbackForm(), **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/permanent/permanententry/timeline.html", context)

    def retire_view(self, request, entry_id: int):
        """Propose retiring the entry: how a brand-new key (one version only) is rolled back."""
        entry = get_object_or_404(self.get_queryset(request), pk=entry_id)
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:permanent_permanententry_change", args=[entry.pk]))
        if not request.user.has_perm("permanent.add_changerequest"):
            raise PermissionDenied(ChangeRequestPolicy(request.user).console_refusal([entry.tenant_id]).message)
        form = RollbackForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        try:
            change_request = change_request_propose_retire(entry=entry, reason=reason, proposer_user=request.user)
        except DomainError as exc:
            messages.error(request, exc.message)
            return HttpResponseRedirect(reverse("admin:permanent_permanententry_change", args=[entry.pk]))
        messages.success(request, _("Retiring proposed as change request #%(id)d; another reviewer must approve it.")
                         % {"id": change_request.pk})
        return HttpResponseRedirect(reverse("admin:permanent_changerequest_change", args=[change_request.pk]))

    def rollback_view(self, request, entry_id: int, number: int):
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:permanent_permanententry_change", args=[entry_id]))
        entry = get_object_or_404(self.get_queryset(request), pk=entry_id)
        if not request.user.has_perm("permanent.add_changerequest"):
            raise PermissionDenied(ChangeRequestPolicy(request.user).console_refusal([entry.tenant_id]).message)
        get_object_or_404(PermanentVersion, entry=entry, number=number)
        form = RollbackForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        try:
            change_request = change_request_propose_rollback(entry=entry, target_version=number, reason=reason,
                                                             proposer_user=request.user)
        except DomainError as exc:
            messages.error(request, exc.message)
            return HttpResponseRedirect(reverse("admin:permanent_permanententry_change", args=[entry.pk]))
        messages.success(request, _("Roll back to version %(number)d proposed as change request #%(id)d; "
                                    "another reviewer must approve it.") % {"number": number, "id": change_request.pk})
        return HttpResponseRedirect(reverse("admin:permanent_changerequest_change", args=[change_request.pk]))
