"""Reads about tenants and their staff members."""
from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import QuerySet

from memoryhub.tenancy.models import Membership, Tenant


def tenant_time_zone(tenant: Tenant) -> ZoneInfo:
    """The tenant's time zone (Tenant.time_zone): what reminders and habits read a user's clock in when the
    session names none (layers/short_term/selectors.session_time_zone). A name that is no longer a zone in
    this system's tz database is read as UTC rather than failing a job."""
    try:
        return ZoneInfo(tenant.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


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
