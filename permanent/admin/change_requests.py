"""Change requests in the console: propose, and a review page with the current and proposed values
side by side. Buttons are shown only to those the services would allow; the services check again."""
from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from audit.events import event_label
from audit.models import AuditEvent
from memoryhub.console.history import VersionTitledHistoryMixin
from memoryhub.console.permissions import ChangeRequestPolicy
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.selectors import restrict_to_member_tenants
from permanent.admin.diff import json_diff, pretty_json
from permanent.admin.forms import (
    DecisionForm,
    ProposeForm,
    ScheduleForm,
    json_editor_messages,
)
from permanent.admin.history import ReadOnlyHistoryMixin
from permanent.models import ChangeAction, ChangeRequest
from permanent.selectors import permanent_entry_to_edit
from permanent.services import (
    change_request_approve,
    change_request_propose,
    change_request_reject,
    change_request_schedule,
    change_request_withdraw,
)


def proposer_tenants(user):
    return ChangeRequestPolicy(user).proposer_tenants()


@admin.register(ChangeRequest)
class ChangeRequestAdmin(ReadOnlyHistoryMixin, VersionTitledHistoryMixin, SimpleHistoryAdmin):
    list_display = ("id", "key", "scope_display", "action", "state", "origin", "proposer_label", "created_at",
                    "effective_at")
    list_filter = ("state", "action", "origin", ("tenant", admin.RelatedOnlyFieldListFilter))
    search_fields = ("key", "proposer_label")
    list_display_links = ("id", "key")
    date_hierarchy = "created_at"

    @admin.display(description=_("scope"))
    def scope_display(self, obj):
        return obj.user_id or _("global")

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("tenant", "entry", "proposer_api_key")
        return restrict_to_member_tenants(queryset, request.user)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # Proposing: the add page is our own form that calls the service.
    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            raise PermissionDenied(ChangeRequestPolicy(request.user).console_refusal().message)
        tenants = proposer_tenants(request.user)
        initial = {key: request.GET[key] for key in ("key", "user_id", "action") if key in request.GET}
        # Editing an existing key starts from its current value (and checks against its schema).
        entry = None
        if initial.get("key") and initial.get("action", ChangeAction.UPDATE) == ChangeAction.UPDATE:
            tenant_id = request.GET.get("tenant")
            entry = permanent_entry_to_edit(tenant_ids=tenants.values_list("id", flat=True), key=initial["key"],
                                            user_id=initial.get("user_id", ""),
                                            tenant_id=int(tenant_id) if (tenant_id or "").isdigit() else None)
            if entry is not None:
                initial.update(action=ChangeAction.UPDATE, tenant=entry.tenant_id, value=pretty_json(entry.value))
        form = ProposeForm(request.POST or None, tenants=tenants, initial=initial,
                           schema_from="entry-schema" if entry is not None and entry.schema else "id_schema")
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            extra = {}
            if data["action"] != ChangeAction.RETIRE:
                extra["value"] = data["value"]
            if data["action"] == ChangeAction.CREATE:
                extra.update(schema=data["schema"], required_approvals=data["required_approvals"])
            try:
                change_request = change_request_propose(
                    tenant=data["tenant"], key=data["key"], user_id=data["user_id"] or "", action=data["action"],
                    reason=data["reason"], effective_at=data["effective_at"], proposer_user=request.user, **extra)
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Change request #%(id)d proposed; a reviewer must approve it.")
                                 % {"id": change_request.pk})
                return HttpResponseRedirect(self._review_url(change_request))
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
                   "title": _("Propose a permanent change"), "editing": entry,
                   "entry_schema": entry.schema if entry is not None else None,
                   "json_editor_messages": json_editor_messages(), **(extra_context or {})}
        return TemplateResponse(request, "admin/permanent/changerequest/propose.html", context)

    def _review_url(self, change_request) -> str:
        return reverse("admin:permanent_changerequest_change", args=[change_request.pk])

    # Reviewing: the change page is the review page.
    def change_view(self, request, object_id, form_url="", extra_context=None):
        change_request = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_view_permission(request, change_request):
            raise PermissionDenied
        if request.method == "POST":
            return self._decide(request, change_request)
        return TemplateResponse(request, "admin/permanent/changerequest/review.html",
                                self._review_context(request, change_request, extra_context))

    def _review_context(self, request, change_request, extra_context=None):
        user = request.user
        entry = change_request.entry
        current_exists = entry is not None and entry.status == "active"
        proposed_exists = change_request.action != ChangeAction.RETIRE
        policy = ChangeRequestPolicy(user)
        is_own = policy.is_proposer(change_request)
        # The model permission is the console's page gate; the decision itself is the policy's.
        can_review = user.has_perm("permanent.review_changerequest") and policy.can_review(change_request)
        events = AuditEvent.objects.filter(tenant_id=change_request.tenant_id, object_type="permanent_change_request",
                                           object_id=str(change_request.pk)).order_by("seq")
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta, "original": change_request, "cr": change_request, "entry": entry,
            "title": _("Review change request #%(id)d") % {"id": change_request.pk},
            "current_json": pretty_json(entry.value) if current_exists else None,
            "proposed_json": pretty_json(change_request.proposed_value) if proposed_exists else None,
            "diff": json_diff(entry.value if current_exists else None, change_request.proposed_value,
                              current_exists=current_exists, proposed_exists=proposed_exists),
            "approvals": change_request.approvals.select_related("reviewer"),
            "required_approvals": change_request.required_approvals,
            "is_own": is_own,
            "can_review": can_review,
            # Why there is nothing to decide here, in the policy's words (own requests have their notice).
            "review_refusal": (policy.review_refusal(change_request)
                               if change_request.state == "pending" and not can_review and not is_own else None),
            "can_withdraw": policy.can_withdraw(change_request),
            "can_schedule": policy.can_schedule(change_request),
            "decision_form": DecisionForm(initial={"payload_hash": change_request.payload_hash}),
            "schedule_form": ScheduleForm(initial={"effective_at": change_request.effective_at}),
            "events": [(event, event_label(event.action)) for event in events],
            **(extra_context or {}),
        }

    def _decide(self, request, change_request):
        operation = request.POST.get("operation")
        user = request.user
        try:
            if operation in ("approve", "reject"):
                # Refused before the service is asked: the 403 page says why (not a reviewer, their own
                # proposal, auditors read only), from the same policy the service applies.
                refusal = ChangeRequestPolicy(user).review_refusal(change_request)
                if refusal is not None:
                    raise PermissionDenied(refusal.message)
                if not user.has_perm("permanent.review_changerequest"):
                    raise PermissionDenied(_("Your role does not include deciding change requests."))
                form = DecisionForm(request.POST)
                if not form.is_valid():
                    messages.error(request, _("The decision form was incomplete."))
                    return HttpResponseRedirect(self._review_url(change_request))
                service = change_request_approve if operation == "approve" else change_request_reject
                result = service(change_request=change_request, reviewer=user,
                                 payload_hash=form.cleaned_data["payload_hash"], comment=form.cleaned_data["comment"])
                messages.success(request, _("Recorded. The request is now %(state)s.") % {"state": result.get_state_display()})
            elif operation == "withdraw":
                refusal = ChangeRequestPolicy(user).withdraw_refusal(change_request)
                if refusal is not None:
                    raise PermissionDenied(refusal.message)
                change_request_withdraw(change_request=change_request, user=user)
                messages.success(request, _("The request was withdrawn."))
            elif operation == "schedule":
                form = ScheduleForm(request.POST)
                if not form.is_valid():
                    messages.error(request, _("Give a valid date and time."))
                    return HttpResponseRedirect(self._review_url(change_request))
                result = change_request_schedule(change_request=change_request,
                                                 effective_at=form.cleaned_data["effective_at"], user=user)
                messages.success(request, _("Schedule saved. The request is now %(state)s.") % {"state": result.get_state_display()})
            else:
                return HttpResponseNotAllowed(["GET"])
        except DomainError as exc:
            messages.error(request, exc.message)
        return HttpResponseRedirect(self._review_url(change_request))

