"""Staff setup in one step (`create_staff` and the console's staff page): staff status, group and
membership together, and every grant and revocation an audited event in the tenant's chain."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from audit.models import AuditEvent
from audit.selectors import audit_chain_verify
from memoryhub.core.actors import Actor
from memoryhub.tenancy.models import Membership
from memoryhub.tenancy.services import membership_grant, membership_revoke

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Staff-Setup-93"


def _fresh(user):
    return get_user_model().objects.get(pk=user.pk)


@pytest.mark.parametrize("role, can_review, can_read_audit", [
    ("editor", False, False), ("reviewer", True, False), ("auditor", False, True),
])
def test_create_staff_makes_a_working_console_user(tenant, staff_groups, role, can_review, can_read_audit, capsys):
    call_command("create_staff", "nina", "--tenant", tenant.slug, "--role", role, "--password", PASSWORD)
    user = get_user_model().objects.get(username="nina")
    assert user.is_staff and not user.is_superuser and user.check_password(PASSWORD)
    assert list(user.groups.values_list("name", flat=True)) == [role]
    assert Membership.objects.filter(user=user, tenant=tenant, role=role).exists()
    assert user.has_perm("permanent.review_changerequest") is can_review
    assert user.has_perm("audit.view_auditevent") is can_read_audit
    event = AuditEvent.objects.get(tenant_id=tenant.id, action="membership.granted")
    assert event.after["user"] == "nina" and event.after["role"] == role and event.actor_label == "cli.create_staff"
    client = Client()
    assert client.login(username="nina", password=PASSWORD)
    assert client.get("/admin/").status_code == 200


def test_create_staff_generates_a_password_once_and_is_idempotent(tenant, staff_groups, capsys):
    call_command("create_staff", "omar", "--tenant", tenant.slug, "--role", "editor")
    out = capsys.readouterr().out
    password = out.split("password (shown once): ")[1].strip()
    assert get_user_model().objects.get(username="omar").check_password(password)
    call_command("create_staff", "omar", "--tenant", tenant.slug, "--role", "editor")
    assert "already held" in capsys.readouterr().out
    assert AuditEvent.objects.filter(tenant_id=tenant.id, action="membership.granted").count() == 1


def test_create_staff_refuses_bad_input(tenant, staff_groups):
    with pytest.raises(CommandError, match="no tenant"):
        call_command("create_staff", "pia", "--tenant", "nope", "--role", "editor")
    with pytest.raises(CommandError):
        call_command("create_staff", "pia", "--tenant", tenant.slug, "--role", "owner")
    with pytest.raises(CommandError):  # too weak for the password validators
        call_command("create_staff", "pia", "--tenant", tenant.slug, "--role", "editor", "--password", "123")
    assert not get_user_model().objects.filter(username="pia").exists()
    assert not AuditEvent.objects.filter(action="membership.granted").exists()


def test_revoking_the_last_role_removes_group_and_staff_status(tenant, other_tenant, staff_groups):
    call_command("create_staff", "quinn", "--tenant", tenant.slug, "--role", "reviewer", "--password", PASSWORD)
    call_command("create_staff", "quinn", "--tenant", other_tenant.slug, "--role", "editor")
    user = get_user_model().objects.get(username="quinn")
    assert set(user.groups.values_list("name", flat=True)) == {"reviewer", "editor"}
    call_command("create_staff", "quinn", "--tenant", tenant.slug, "--role", "reviewer", "--revoke")
    user = _fresh(user)
    assert set(user.groups.values_list("name", flat=True)) == {"editor"} and user.is_staff
    revoked = AuditEvent.objects.get(tenant_id=tenant.id, action="membership.revoked")
    assert revoked.before == {"user": "quinn", "user_pk": user.pk, "role": "reviewer"}
    # The other tenant's chain holds its own grant only: events land in the tenant they concern.
    assert list(AuditEvent.objects.filter(tenant_id=other_tenant.id).values_list("action", flat=True)) == \
        ["membership.granted"]
    membership_revoke(user=user, tenant=other_tenant, role="editor", actor=Actor.system("tests"))
    user = _fresh(user)
    assert not user.is_staff and not user.groups.exists()
    assert audit_chain_verify().ok


def test_the_staff_page_grants_in_one_step_and_revokes(tenant, other_tenant, make_staff):
    admin = make_staff(superuser=True, username="root", password=PASSWORD)
    client = Client()
    client.force_login(admin)
    page = client.get("/admin/tenancy/membership/add/")
    assert page.status_code == 200 and b'id="staff-form"' in page.content
    response = client.post("/admin/tenancy/membership/add/",
                           {"username": "rae", "password": PASSWORD, "tenant": tenant.pk, "role": "auditor"})
    assert response.status_code == 302, response.content.decode()[:2000]
    rae = get_user_model().objects.get(username="rae")
    assert rae.is_staff and list(rae.groups.values_list("name", flat=True)) == ["auditor"]
    event = AuditEvent.objects.get(tenant_id=tenant.id, action="membership.granted")
    assert event.actor_label == "root"
    # An existing user with a password typed in is refused (the page never resets passwords).
    again = client.post("/admin/tenancy/membership/add/",
                        {"username": "rae", "password": PASSWORD, "tenant": other_tenant.pk, "role": "editor"})
    assert again.status_code == 200 and b"exists already" in again.content
    membership = Membership.objects.get(user=rae)
    client.post("/admin/tenancy/membership/", {"action": "revoke_selected", "_selected_action": [membership.pk]})
    assert not Membership.objects.filter(user=rae).exists() and not _fresh(rae).groups.exists()
    assert AuditEvent.objects.filter(tenant_id=tenant.id, action="membership.revoked").count() == 1


def test_the_staff_page_is_closed_to_tenant_staff(tenant, make_staff):
    for role in ("editor", "reviewer", "auditor"):
        user = make_staff(tenant, role)
        client = Client()
        client.force_login(user)
        assert client.get("/admin/tenancy/membership/add/").status_code == 403
        response = client.post("/admin/tenancy/membership/add/",
                               {"username": "x", "password": PASSWORD, "tenant": tenant.pk, "role": "reviewer"})
        assert response.status_code == 403
    assert not get_user_model().objects.filter(username="x").exists()


def test_a_membership_change_rolls_back_with_its_event(tenant, staff_groups, django_user_model):
    user = django_user_model.objects.create_user(username="sol", password=PASSWORD)
    from django.db import transaction
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            membership_grant(user=user, tenant=tenant, role="editor", actor=Actor.system("tests"))
            raise RuntimeError
    assert not Membership.objects.filter(user=user).exists()
    assert not AuditEvent.objects.filter(action="membership.granted").exists()
