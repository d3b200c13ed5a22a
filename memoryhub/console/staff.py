"""Staff setup on one console page: the login, staff status, the tenant role and its group in one
step, through the tenancy services (so every grant and revocation is an audited event)."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.models import Membership, Role, Tenant
from memoryhub.tenancy.selectors import restrict_to_member_tenants
from memoryhub.tenancy.services import membership_grant, membership_revoke


class StaffForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150,
                               help_text=_("An existing user gets the role; a new one is created."))
    password = forms.CharField(label=_("Password"), required=False, strip=False,
                               widget=forms.PasswordInput(render_value=False),
                               help_text=_("Only for a new user."))
    tenant = forms.ModelChoiceField(label=_("Tenant"), queryset=Tenant.objects.none())
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)

    def __init__(self, *args, tenants=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].queryset = tenants if tenants is not None else Tenant.objects.all()

    def clean(self):
        data = super().clean()
        username = (data.get("username") or "").strip()
        data["username"] = username
        User = get_user_model()
        data["user"] = User.objects.filter(username=username).first()
        password = data.get("password") or ""
        if data["user"] is None and username:
            if not password:
                self.add_error("password", _("A new user needs a password."))
            else:
                try:
                    validate_password(password, User(username=username))
                except ValidationError as exc:
                    self.add_error("password", exc)
        elif data["user"] is not None and password:
            self.add_error("password", _("This user exists already; leave the password empty."))
        return data


def _tenants(request):
    return restrict_to_member_tenants(Tenant.objects.all(), request.user, field="id")


class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "tenant", "role", "created_at")
    list_filter = ("role", "tenant")
    search_fields = ("user__username", "tenant__slug")
    actions = ["revoke_selected"]

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("user", "tenant"),
                                          request.user)

    def has_change_permission(self, request, obj=None):
        return False  # a role is granted or revoked, never edited in place

    def has_delete_permission(self, request, obj=None):
        return False  # revoking goes through the audited action below

    def has_revoke_permission(self, request):
        return self.has_add_permission(request)

    @admin.action(description=_("Revoke the selected roles"), permissions=["revoke"])
    def revoke_selected(self, request, queryset):
        actor, revoked = Actor.for_user(request.user), 0
        for membership in queryset.select_related("user", "tenant"):
            change = membership_revoke(user=membership.user, tenant=membership.tenant, role=membership.role,
                                       actor=actor)
            revoked += change.changed
        messages.success(request, _("Revoked %(count)d role(s).") % {"count": revoked})

    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = StaffForm(request.POST or None, tenants=_tenants(request))
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            User = get_user_model()
            try:
                with transaction.atomic():
                    user = data["user"] or User.objects.create_user(username=data["username"],
                                                                    password=data["password"])
                    change = membership_grant(user=user, tenant=data["tenant"], role=data["role"],
                                              actor=Actor.for_user(request.user))
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                if change.changed:
                    messages.success(request, _("%(user)s is now %(role)s in %(tenant)s.")
                                     % {"user": user.get_username(), "role": Role(data["role"]).label,
                                        "tenant": data["tenant"].slug})
                else:
                    messages.info(request, _("%(user)s already was %(role)s in %(tenant)s.")
                                  % {"user": user.get_username(), "role": Role(data["role"]).label,
                                     "tenant": data["tenant"].slug})
                return HttpResponseRedirect(reverse("admin:tenancy_membership_changelist"))
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
                   "title": _("Add a staff member"), **(extra_context or {})}
        return TemplateResponse(request, "admin/tenancy/membership/staff_form.html", context)


admin.site.register(Membership, MembershipAdmin)
