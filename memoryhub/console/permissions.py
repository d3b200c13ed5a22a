"""Permission policies: one object per governed thing that says who may do what with it, asked alike
by the services (which refuse) and by the console (which offers or hides the buttons), in the manner of
Wagtail's permission policies. Roles come from tenant memberships; superusers hold every role, but the
four-eyes rule binds them too.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from memoryhub.tenancy.models import Membership, Role, Tenant

PROPOSER_ROLES = (Role.EDITOR, Role.REVIEWER)
OPEN_STATES = ("pending", "approved")


def user_has_role(user, tenant_id: int, roles) -> bool:
    if user is None or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(user=user, tenant_id=tenant_id, role__in=list(roles)).exists()


def user_is_only_auditor(user, tenant_id: int) -> bool:
    """An auditor of the tenant with no role there that may change anything: auditors read only."""
    if user is None or user.is_superuser:
        return False
    roles = set(Membership.objects.filter(user=user, tenant_id=tenant_id).values_list("role", flat=True))
    return roles == {Role.AUDITOR}


def auditor_refusal() -> "Refusal":
    return Refusal("auditor_read_only", _("Auditors read only: they can inspect everything here, but not propose, "
                                          "decide or change anything."))


@dataclass(frozen=True)
class Refusal:
    """Why an action is not allowed: a stable code for the API and a sentence for people."""

    code: str
    message: str


class ChangeRequestPolicy:
    """Who may propose, review, withdraw and schedule permanent change requests.

    A change request is duck-typed (tenant_id, state, proposer_user_id, proposer_api_key): the console
    sits below the permanent app and names none of its models.
    """

    def __init__(self, user):
        self.user = user

    # --- proposing ----------------------------------------------------------------------------
    def can_propose(self, tenant_id: int) -> bool:
        return user_has_role(self.user, tenant_id, PROPOSER_ROLES)

    def propose_refusal(self, tenant_id: int) -> Refusal | None:
        if self.can_propose(tenant_id):
            return None
        if user_is_only_auditor(self.user, tenant_id):
            return auditor_refusal()
        return Refusal("not_a_proposer", _("Only editors and reviewers of this tenant may propose changes."))

    def proposer_tenants(self) -> QuerySet[Tenant]:
        if self.user.is_superuser:
            return Tenant.objects.all()
        return Tenant.objects.filter(id__in=Membership.objects.filter(user=self.user, role__in=list(PROPOSER_ROLES))
                                     .values("tenant_id"))

    # --- reviewing ----------------------------------------------------------------------------
    def is_reviewer(self, tenant_id: int) -> bool:
        return user_has_role(self.user, tenant_id, (Role.REVIEWER,))

    def is_proposer(self, change_request) -> bool:
        """True when the user proposed the request, or created the API key that proposed it."""
        if change_request.proposer_user_id is not None and change_request.proposer_user_id == self.user.pk:
            return True
        if change_request.proposer_api_key_id is not None:
            return change_request.proposer_api_key.created_by_id == self.user.pk
        return False

    def review_refusal(self, change_request) -> Refusal | None:
        """Why this user may not approve or reject the request (state and payload are the service's)."""
        if not self.is_reviewer(change_request.tenant_id):
            if user_is_only_auditor(self.user, change_request.tenant_id):
                return auditor_refusal()
            return Refusal("not_a_reviewer", _("Only reviewers of this tenant can decide change requests."))
        if self.is_proposer(change_request):
            return Refusal("self_review", _("You proposed this change (or created the key that did); someone else "
                                            "must review it."))
        return None

    def can_review(self, change_request) -> bool:
        """The console's question: offer approve / reject now?"""
        return (change_request.state == "pending" and self.review_refusal(change_request) is None
                and not change_request.approvals.filter(reviewer=self.user).exists())

    # --- withdrawing and scheduling -----------------------------------------------------------
    def withdraw_refusal(self, change_request) -> Refusal | None:
        if change_request.proposer_user_id == self.user.pk:
            return None
        if user_is_only_auditor(self.user, change_request.tenant_id):
            return auditor_refusal()
        return Refusal("not_the_proposer", _("Only the proposer can withdraw a change request."))

    def console_refusal(self, tenant_ids=None) -> Refusal:
        """Why a staff user may not open a page that changes things, when no single request is at
        stake (the propose page): auditors read only; others lack an editor or reviewer role."""
        tenant_ids = list(tenant_ids if tenant_ids is not None
                          else Membership.objects.filter(user=self.user).values_list("tenant_id", flat=True))
        if tenant_ids and all(user_is_only_auditor(self.user, tenant_id) for tenant_id in tenant_ids):
            return auditor_refusal()
        return Refusal("not_a_proposer", _("Only editors and reviewers of a tenant may propose changes."))

    def can_withdraw(self, change_request) -> bool:
        return change_request.state in OPEN_STATES and change_request.proposer_user_id == self.user.pk

    def schedule_refusal(self, change_request) -> Refusal | None:
        if change_request.proposer_user_id == self.user.pk or self.is_reviewer(change_request.tenant_id):
            return None
        if user_is_only_auditor(self.user, change_request.tenant_id):
            return auditor_refusal()
        return Refusal("not_allowed", _("Only the proposer or a reviewer can schedule this request."))

    def can_schedule(self, change_request) -> bool:
        return change_request.state in OPEN_STATES and self.schedule_refusal(change_request) is None
