"""Reads of single memories, lists and versions; always inside the caller's tenant."""
from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from layers.long_term.models import Memory, MemoryKind, MemoryStatus
from memoryhub.core.errors import InvalidInput, NotFound


def memory_get(*, tenant, memory_id) -> Memory:
    """The memory with this id in this tenant; another tenant's id is simply not found."""
    try:
        memory_id = int(memory_id)
    except (TypeError, ValueError):
        raise NotFound(_("memory not found"))
    memory = Memory.objects.filter(tenant=tenant, pk=memory_id).first()
    if memory is None:
        raise NotFound(_("memory not found"))
    return memory


def memory_list(*, tenant, user_id: str | None = None, kinds: list[str] | None = None,
                statuses: list[str] | None = None, memory_key: str | None = None,
                entities: list[str] | None = None, created_after: datetime | None = None,
                created_before: datetime | None = None) -> QuerySet[Memory]:
    """The tenant's memories matching the filters; by default only active ones."""
    for kind in kinds or ():
        if kind not in MemoryKind.values:
            raise InvalidInput(_("unknown kind %s") % kind, code="invalid_kind")
    for status in statuses or ():
        if status not in MemoryStatus.values:
            raise InvalidInput(_("unknown status %s") % status, code="invalid_status")
    queryset = Memory.objects.filter(tenant=tenant, status__in=statuses or [MemoryStatus.ACTIVE]).defer(
        "embedding", "term_freqs")
    if user_id:
        queryset = queryset.filter(user_id=user_id)
    if kinds:
        queryset = queryset.filter(kind__in=kinds)
    if memory_key:
        queryset = queryset.filter(memory_key=memory_key)
    if entities:
        queryset = queryset.filter(entities__overlap=entities)
    if created_after:
        queryset = queryset.filter(created_at__gte=created_after)
    if created_before:
        queryset = queryset.filter(created_at__lt=created_before)
    return queryset


def memory_core_profile(*, tenant, user_id: str, min_importance: float, limit: int,
                        exclude_ids: list[int] = ()) -> list[Memory]:
    """The user's most important standing facts and preferences, whatever the query: active, not past
    their TTL, most important and most recently confirmed first."""
    if limit <= 0:
        return []
    now = timezone.now()
    return list(
        Memory.objects.filter(tenant=tenant, user_id=user_id, status=MemoryStatus.ACTIVE,
                              kind__in=[MemoryKind.PREFERENCE, MemoryKind.FACT], importance__gte=min_importance)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .exclude(pk__in=list(exclude_ids))
        .defer("embedding", "term_freqs")
        .order_by("-importance", "-last_confirmed_at", "-id")[:limit]
    )


def memory_history(*, memory: Memory):
    """Every stored version of the memory, newest first."""
    return memory.history.order_by("-history_date", "-history_id")
