"""Reads about tenants and their staff members."""
from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.management.base import CommandError
from django.db.models import QuerySet

from memoryhub.tenancy.models import Membership, Tenant


def zone_named(name) -> ZoneInfo | None:
    """The zone `name` names in this system's tz database, or None (not a string, empty, unknown): the one
    reading of a stored zone name, for the tenant's, a session's and a policy's alike."""
    if not isinstance(name, str) or not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def tenant_time_zone(tenant: Tenant) -> ZoneInfo:
    """The tenant's time zone (Tenant.time_zone): what reminders and habits read a user's clock in when the
    session names none (layers/short_term/selectors.session_time_zone). A name that is no longer a zone in
    this system's tz database is read as UTC rather than failing a job."""
    return zone_named(tenant.time_zone) or ZoneInfo("UTC")


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


def tenant_named(slug: str) -> Tenant:
    """The tenant with this slug, for a management command: CommandError when there is none."""
    tenant = Tenant.objects.filter(slug=slug).first()
    if tenant is None:
        raise CommandError(f"no tenant {slug!r}")
    return tenant
