"""Roles reach the short-term and transient consoles through their groups: editors and reviewers
inspect sessions, editors maintain task types, auditors only read."""
import pytest
from django.contrib.auth.models import Group, Permission

from memoryhub.console.roles import staff_groups_grant

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role, can_view_sessions, can_edit_task_types", [
    ("editor", True, True),
    ("reviewer", True, False),
    ("auditor", True, False),
])
def test_role_permissions_on_sessions_and_task_types(make_staff, tenant, role, can_view_sessions,
                                                     can_edit_task_types):
    staff_groups_grant(group_model=Group, permission_model=Permission)
    user = make_staff(tenant, role)
    user = type(user).objects.get(pk=user.pk)  # fresh permission cache
    assert user.has_perm("short_term.view_session") is can_view_sessions
    assert user.has_perm("transient.view_taskstate") is can_view_sessions
    assert user.has_perm("transient.change_tasktype") is can_edit_task_types
    assert not user.has_perm("short_term.change_session")
