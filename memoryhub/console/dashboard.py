"""The admin index dashboard's counts, limited to the member's tenants.

Models are looked up by label: the console sits below the apps it counts (docs/architecture.md), so it
names them without importing them.
"""
from __future__ import annotations

from django.apps import apps
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from memoryhub.tenancy.selectors import restrict_to_member_tenants


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
