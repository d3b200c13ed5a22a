"""Reads of the permanent layer: exact-key reads only (never a similarity search), served from a
per-tenant snapshot cache that applying a change invalidates at once (see `permanent.cache`)."""
from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from permanent.cache import snapshot_cached
from permanent.models import ChangeRequest, EntryStatus, PermanentEntry

# Global keys under these prefixes are the tenant's system rules, served in the context's
# `system_rules` block: `rules.*` (behaviour), `safety.*` (limits and refusals), `persona` /
# `persona.*` (how the agent presents itself).
SYSTEM_RULE_PREFIXES = ("rules.", "safety.", "persona.")
SYSTEM_RULE_KEYS = ("persona",)


def _load_scope(tenant_id: int, user_id: str) -> dict[str, Any]:
    rows = (PermanentEntry.objects.filter(tenant_id=tenant_id, user_id=user_id, status=EntryStatus.ACTIVE)
            .values("key", "current_version", "value", "value_hash", "updated_at"))
    return {
        row["key"]: {"version": row["current_version"], "value": row["value"], "value_hash": row["value_hash"],
                     "updated_at": row["updated_at"].isoformat()}
        for row in rows
    }


def permanent_snapshot(*, tenant_id: int, user_id: str = "") -> dict[str, dict[str, Any]]:
    """Active entries of one scope (global when `user_id` is empty): {key: {version, value, ...}}."""
    return snapshot_cached(tenant_id, user_id, lambda: _load_scope(tenant_id, user_id))


def permanent_effective(*, tenant_id: int, user_id: str = "", prefix: str = "") -> list[dict[str, Any]]:
    """Global entries plus the user's own; a user's entry overrides a global one of the same key."""
    merged: dict[str, dict[str, Any]] = {}
    for scope_user, snapshot in (("", permanent_snapshot(tenant_id=tenant_id)),
                                 (user_id, permanent_snapshot(tenant_id=tenant_id, user_id=user_id) if user_id else {})):
        for key, item in snapshot.items():
            if key.startswith(prefix):
                merged[key] = {"key": key, "scope": "user" if scope_user else "global", "user_id": scope_user or None,
                               **item}
    return [merged[key] for key in sorted(merged)]


def permanent_entry_read(*, tenant_id: int, key: str, user_id: str = "") -> dict[str, Any] | None:
    """One key: the user's entry when `user_id` is given and they have one, else the global entry."""
    if user_id:
        item = permanent_snapshot(tenant_id=tenant_id, user_id=user_id).get(key)
        if item is not None:
            return {"key": key, "scope": "user", "user_id": user_id, **item}
    item = permanent_snapshot(tenant_id=tenant_id).get(key)
    if item is None:
        return None
    return {"key": key, "scope": "global", "user_id": None, **item}


def permanent_global_values(*, tenant_id: int, prefix: str) -> dict[str, Any]:
    """Current values of active global entries whose key starts with `prefix` ({key: value})."""
    return {key: item["value"] for key, item in permanent_snapshot(tenant_id=tenant_id).items()
            if key.startswith(prefix)}


def permanent_system_rules(*, tenant_id: int) -> list[dict[str, Any]]:
    """The global rules served in the context's `system_rules` block: [{key, version, value}]."""
    snapshot = permanent_snapshot(tenant_id=tenant_id)
    return [
        {"key": key, "version": snapshot[key]["version"], "value": snapshot[key]["value"]}
        for key in sorted(snapshot)
        if key in SYSTEM_RULE_KEYS or key.startswith(SYSTEM_RULE_PREFIXES)
    ]


def change_request_get(*, tenant_id: int, change_request_id: int) -> ChangeRequest | None:
    return ChangeRequest.objects.filter(tenant_id=tenant_id, pk=change_request_id).first()


def change_requests_pending(*, tenant_ids=None) -> QuerySet[ChangeRequest]:
    queryset = ChangeRequest.objects.filter(state="pending")
    if tenant_ids is not None:
        queryset = queryset.filter(tenant_id__in=tenant_ids)
    return queryset


def change_requests_of_api_key(*, tenant_id: int, api_key_id: int, state: str = "", key: str = "") -> QuerySet[ChangeRequest]:
    """The requests one API key proposed in its tenant (an agent follows its own proposals only)."""
    queryset = ChangeRequest.objects.filter(tenant_id=tenant_id, proposer_api_key_id=api_key_id)
    if state:
        queryset = queryset.filter(state=state)
    if key:
        queryset = queryset.filter(key=key)
    return queryset.prefetch_related("approvals")


def permanent_entry_to_edit(*, tenant_ids, key: str, user_id: str = "", tenant_id: int | None = None) -> PermanentEntry | None:
    """The entry the console's propose page pre-fills: the one with this key and scope among the
    staff member's tenants (in `tenant_id` when given); None when there is none or it is ambiguous."""
    queryset = PermanentEntry.objects.filter(tenant_id__in=list(tenant_ids), key=key, user_id=user_id)
    if tenant_id is not None:
        queryset = queryset.filter(tenant_id=tenant_id)
    found = list(queryset.select_related("tenant")[:2])
    return found[0] if len(found) == 1 else None
