"""The admin index dashboard's counts, limited to the member's tenants.

Models are looked up by label: the console sits below the apps it counts (docs/architecture.md), so it
names them without importing them.
"""
from __future__ import annotations

from django.apps import apps
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from memoryhub.api.metrics import HIT_RATE_FLOOR, LAYER_CONTEXT, LAYER_SEARCH, layer_health
from memoryhub.tenancy.selectors import restrict_to_member_tenants, staff_tenant_ids


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
        "health": layer_health_rows(staff_tenant_ids(user)),
        "hit_rate_floor": f"{HIT_RATE_FLOOR:.0%}",
    }


def _rate(counts) -> str:
    if counts is None or not counts.total:
        return str(_("no data"))
    return f"{counts.hit_rate:.0%} ({counts.served}/{counts.total})"


def layer_health_rows(tenant_ids: list[int] | None) -> list[dict]:
    """The figures of memoryhub/api/metrics.py as rows (tenant, layer, figure, value, threshold, flagged),
    for the dashboard and `manage.py memstats`. `tenant_ids` None is every tenant, and adds the outbox,
    which is shared by all tenants."""
    health = layer_health(tenant_ids)
    floor = f"≥ {HIT_RATE_FLOOR:.0%}"
    rows = []
    for tenant in health.tenants:
        search, context = tenant.retrievals.get(LAYER_SEARCH), tenant.retrievals.get(LAYER_CONTEXT)
        figures = [
            ("long_term", _("search hit rate"), _rate(search), floor, bool(search and search.below_floor)),
            ("context", _("context hit rate"), _rate(context), floor, bool(context and context.below_floor)),
            ("transient", _("pronoun resolution rate"),
             f"{tenant.resolution_rate:.0%} ({tenant.mentions_resolved}/{tenant.mentions})"
             if tenant.mentions else _("no data"), "", False),
            ("long_term", _("quarantined memories"), tenant.quarantined, "", False),
            ("formation", _("secrets dropped"), tenant.secrets_dropped, "", False),
            ("formation", _("injections quarantined"), tenant.injections_quarantined, "", False),
            ("formation", _("items rejected"), tenant.rejected, "", False),
            ("formation", _("runs fallen back"), f"{tenant.fell_back}/{tenant.formation_runs}", "", False),
        ]
        rows += [{"tenant": tenant.slug, "layer": layer, "figure": str(figure), "value": str(value),
                  "threshold": threshold, "flagged": flagged} for layer, figure, value, threshold, flagged in figures]
    if tenant_ids is None and health.outbox_pending is not None:
        rows += [{"tenant": "*", "layer": "outbox", "figure": str(figure), "value": str(value), "threshold": "",
                  "flagged": False}
                 for figure, value in ((_("pending tasks"), health.outbox_pending),
                                       (_("tasks retrying"), health.outbox_retrying))]
    if not health.redis_up:
        rows.append({"tenant": "*", "layer": "redis", "figure": str(_("hit rates unavailable: Redis is down")),
                     "value": "", "threshold": "", "flagged": False})
    return rows
