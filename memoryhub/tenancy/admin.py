from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from memoryhub.core.actors import Actor
from memoryhub.core.errors import DomainError
from memoryhub.tenancy.models import ApiKey, Membership, Tenant
from memoryhub.tenancy.selectors import restrict_to_member_tenants
from memoryhub.tenancy.services import api_key_create, api_key_revoke, tenant_creator


class MembershipInline(admin.TabularInline):
    """Shown, not edited: roles are granted and revoked on the staff page (audited services)."""

    model = Membership
    extra = 0
    fields = readonly_fields = ("user", "role", "created_at")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "redact_secrets_in_turns", "created_at", "created_by")
    search_fields = ("slug", "name")
    readonly_fields = ("created_at", "created_by")
    inlines = [MembershipInline]

    def save_model(self, request, obj, form, change):
        if not change:  # who created it, recorded as tenant_get_or_create records it for the commands
            obj.created_by = tenant_creator(Actor.for_user(request.user))
        super().save_model(request, obj, form, change)

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request), request.user, field="id")


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ("name", "tenant", "prefix", "scopes", "created_by", "created_at", "last_used_at", "revoked_at")
    list_filter = ("tenant", ("revoked_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "prefix")
    fields = ("tenant", "name", "scopes")
    actions = ["revoke_selected"]

    def get_queryset(self, request):
        return restrict_to_member_tenants(super().get_queryset(request).select_related("tenant", "created_by"),
                                          request.user)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:
            return ("tenant", "name", "prefix", "scopes", "created_by", "created_at", "last_used_at", "revoked_at")
        return ()

    def get_fields(self, request, obj=None):
        if obj is not None:
            return self.get_readonly_fields(request, obj)
        return self.fields

    def save_model(self, request, obj, form, change):
        if change:
            return
        issued = api_key_create(tenant=obj.tenant, name=obj.name, scopes=list(obj.scopes),
                                actor=Actor.for_user(request.user), created_by=request.user)
        obj.pk = issued.api_key.pk
        # The only time the secret is ever shown.
        messages.warning(request, _("Copy this key now; it will not be shown again: %(key)s") % {"key": issued.plaintext})

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Revoke selected keys"), permissions=["change"])
    def revoke_selected(self, request, queryset):
        for api_key in queryset:
            try:
                api_key_revoke(api_key=api_key, actor=Actor.for_user(request.user))
            except DomainError as exc:
                messages.error(request, exc.message)
        messages.success(request, _("Revoked %(count)d key(s).") % {"count": queryset.count()})
