"""Staff users with roles, and shortcuts to drive the workflow through the services."""
from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import Group, Permission

from memoryhub.tenancy.models import Membership
from permanent.staff import staff_groups_grant

_counter = itertools.count(1)


@pytest.fixture
def staff_groups(db):
    staff_groups_grant(group_model=Group, permission_model=Permission)


@pytest.fixture
def make_staff(db, staff_groups, django_user_model):
    def make(tenant=None, role: str | None = None, *, superuser: bool = False, username: str | None = None,
             password: str = "pw-Staff-12345"):
        username = username or f"{role or 'super'}{next(_counter)}"
        if superuser:
            user = django_user_model.objects.create_superuser(username=username, password=password, email="")
        else:
            user = django_user_model.objects.create_user(username=username, password=password, is_staff=True)
        if role:
            roles = role.split("+")
            for name in roles:
                Membership.objects.create(user=user, tenant=tenant, role=name)
                user.groups.add(Group.objects.get(name=name))
        return user
    return make


@pytest.fixture
def editor(make_staff, tenant):
    return make_staff(tenant, "editor", username="editor")


@pytest.fixture
def reviewer(make_staff, tenant):
    return make_staff(tenant, "reviewer", username="reviewer")


@pytest.fixture
def reviewer2(make_staff, tenant):
    return make_staff(tenant, "reviewer", username="reviewer2")


@pytest.fixture
def auditor(make_staff, tenant):
    return make_staff(tenant, "auditor", username="auditor")
