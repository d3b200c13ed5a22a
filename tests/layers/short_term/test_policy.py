"""Short-term policy numbers come from code defaults, overridden by approved permanent entries."""
import pytest
from django.contrib.auth.models import Group, Permission

from layers.short_term.policy import DEFAULT_WINDOW_MAX_TURNS, short_term_policy
from layers.short_term.selectors import session_window
from memoryhub.console.roles import staff_groups_grant
from memoryhub.tenancy.models import Membership
from permanent.models import ChangeAction
from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def approve(tenant, django_user_model):
    staff_groups_grant(group_model=Group, permission_model=Permission)
    reviewer = django_user_model.objects.create_user("policy-reviewer", password="pw", is_staff=True)
    Membership.objects.create(user=reviewer, tenant=tenant, role="reviewer")
    reviewer.groups.add(Group.objects.get(name="reviewer"))

    def set_value(key, value):
        request = change_request_propose(tenant=tenant, key=key, action=ChangeAction.CREATE, value=value,
                                         system_job="tests")
        change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    return set_value


def test_an_approved_entry_changes_the_window_default(tenant, approve, open_session, append):
    session = open_session()
    append(session, *[f"turn {i}" for i in range(20)])
    assert len(session_window(session=session).turns) == DEFAULT_WINDOW_MAX_TURNS
    approve("policy.short_term.window_max_turns", 4)
    assert short_term_policy(tenant.id).window_max_turns == 4
    assert len(session_window(session=session).turns) == 4


def test_an_out_of_range_entry_is_ignored(tenant, approve):
    approve("policy.short_term.summary_trigger_turns", -3)
    approve("policy.short_term.idle_timeout_minutes", "soon")
    policy = short_term_policy(tenant.id)
    assert policy.summary_trigger_turns == 20 and policy.idle_timeout_minutes > 0
