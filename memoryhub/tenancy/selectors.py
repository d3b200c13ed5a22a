"""Reads about tenants and their staff members."""
from __future__ import annotations

from django.db.models import QuerySet

from memoryhub.tenancy.models import Membership


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
