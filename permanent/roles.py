"""Who may propose and who may review in a tenant: superusers, or members with the right role."""
from __future__ import annotations

from memoryhub.tenancy.models import Membership, Role

PROPOSER_ROLES = (Role.EDITOR, Role.REVIEWER)


def user_has_role(user, tenant_id: int, roles) -> bool:
    if user is None or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(user=user, tenant_id=tenant_id, role__in=list(roles)).exists()


def user_can_propose(user, tenant_id: int) -> bool:
    return user_has_role(user, tenant_id, PROPOSER_ROLES)


def user_can_review(user, tenant_id: int) -> bool:
    return user_has_role(user, tenant_id, (Role.REVIEWER,))


def user_is_proposer(user, change_request) -> bool:
    """True when the user proposed the request, or created the API key that proposed it."""
    if change_request.proposer_user_id is not None and change_request.proposer_user_id == user.pk:
        return True
    if change_request.proposer_api_key_id is not None:
        return change_request.proposer_api_key.created_by_id == user.pk
    return False
