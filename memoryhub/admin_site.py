"""What the staff console shows a member: only their tenants' data (superusers see all), and the
admin index dashboard's counts."""
from __future__ import annotations

from django.apps import apps
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.utils.translation import gettext_lazy as _

from memoryhub.tenancy.models import Membership


admin.site.site_header = _("memoryhub console")
admin.site.site_title = _("memoryhub console")
admin.site.index_title = _("Memory layers, approvals and audit")
admin.site.site_url = None  # there is no public site besides the API


def staff_tenant_ids(user) -> list[int] | None:
    """Tenant ids the staff user is a member of; None means every tenant (superuser)."""
    if user.is_superuser:
        return None
    return list(Membership.objects.filter(user=user).values_list("tenant_id", flat=True).distinct())


def restrict_to_member_tenants(queryset: QuerySet, user, field: str = "tenant_id") -> QuerySet:
    tenant_ids = staff_tenant_ids(user)
    if tenant_ids is None:
        return queryset
    return queryset.filter(**{f"{field}__in": tenant_ids})


class ReadOnlyAdminMixin:
    """Staff inspect these rows; every change goes through a service (an action or a custom view),
    never through the admin's own add / change / delete forms. Works for model admins and inlines."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _model(label: str):
    try:
        return apps.get_model(label)
    except LookupError:
        return None


def _tenant_field(model) -> str:
    names = {field.name for field in model._meta.get_fields()}
    return "tenant_id" if "tenant" in names else "session__tenant_id"


def _count(label: str, user, field: str | None = None, **filters) -> int | None:
    model = _model(label)
    if model is None:
        return None
    field = field or _tenant_field(model)
    return restrict_to_member_tenants(model.objects.filter(**filters), user, field).count()


def dashboard_counts(user) -> dict:
    """Pending approvals, quarantined memories, and how much each layer holds (per kind for long-term)."""
    memory = _model("long_term.Memory")
    memories_by_kind: list[tuple[str, int]] = []
    if memory is not None:
        rows = (restrict_to_member_tenants(memory.objects.exclude(status="deleted"), user)
                .values("kind").annotate(n=Count("id")).order_by("kind"))
        labels = dict(memory._meta.get_field("kind").choices)
        memories_by_kind = [(labels.get(row["kind"], row["kind"]), row["n"]) for row in rows]
    layers = [
        (_("task states (transient)"), _count("transient.TaskState", user)),
        (_("sessions (short-term)"), _count("short_term.Session", user)),
        (_("memories (long-term)"), sum(n for _kind, n in memories_by_kind) if memory is not None else None),
        (_("active entries (permanent)"), _count("permanent.PermanentEntry", user, status="active")),
    ]
    return {
        "pending_approvals": _count("permanent.ChangeRequest", user, state="pending") or 0,
        "quarantined_memories": _count("long_term.Memory", user, status="quarantined") or 0,
        "layers": [(name, n) for name, n in layers if n is not None],
        "memories_by_kind": memories_by_kind,
    }
