"""Task types in the admin go through the audited services; members see only their tenants."""
import pytest
from django.contrib.auth.models import Permission, User

from audit.models import AuditEvent
from layers.transient.models import TaskType
from memoryhub.tenancy.models import Membership

pytestmark = pytest.mark.django_db

ADD = "/admin/transient/tasktype/add/"


@pytest.fixture
def superuser(client):
    user = User.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(user)
    return user


def _form(tenant, **overrides):
    return {"tenant": tenant.pk, "name": "book_flight", "description": "订机票",
            "required_slots": "出发地,目的地,日期", "optional_slots": "舱位", "default_ttl_seconds": 1800,
            **overrides}


def test_adding_and_changing_a_task_type_is_audited_and_versioned(client, superuser, tenant):
    response = client.post(ADD, _form(tenant))
    assert response.status_code == 302, response.content[:2000]
    task_type = TaskType.objects.get(tenant=tenant, name="book_flight")
    assert task_type.required_slots == ["出发地", "目的地", "日期"]

    change = f"/admin/transient/tasktype/{task_type.pk}/change/"
    form = _form(tenant, default_ttl_seconds=600)
    form.pop("tenant")
    assert client.post(change, form).status_code == 302
    task_type.refresh_from_db()
    assert task_type.default_ttl_seconds == 600
    assert task_type.history.count() == 2
    assert task_type.history.first().history_user == superuser
    events = AuditEvent.objects.filter(tenant_id=tenant.id, object_type="task_type").order_by("seq")
    assert [(e.action, e.actor_kind, e.actor_label) for e in events] == [
        ("task_type.created", "user", "root"), ("task_type.updated", "user", "root")]
    assert client.get(f"/admin/transient/tasktype/{task_type.pk}/history/").status_code == 200


@pytest.mark.parametrize("overrides", [
    {"required_slots": "出发地,出发地"},
    {"optional_slots": "出发地"},
    {"name": "has space"},
    {"default_ttl_seconds": 5},
])
def test_bad_task_types_are_form_errors_and_store_nothing(client, superuser, tenant, overrides):
    response = client.post(ADD, _form(tenant, **overrides))
    assert response.status_code == 200  # the form again, with errors
    assert response.context["adminform"].form.errors
    assert not TaskType.objects.exists()
    assert not AuditEvent.objects.filter(object_type="task_type").exists()


def test_duplicate_name_on_change_is_a_form_error(client, superuser, tenant):
    client.post(ADD, _form(tenant))
    client.post(ADD, _form(tenant, name="check_weather", required_slots="城市", optional_slots=""))
    other = TaskType.objects.get(name="check_weather")
    form = _form(tenant, name="book_flight")
    form.pop("tenant")
    response = client.post(f"/admin/transient/tasktype/{other.pk}/change/", form)
    assert response.status_code == 200 and "name" in response.context["adminform"].form.errors
    assert TaskType.objects.get(pk=other.pk).name == "check_weather"


def test_members_see_and_use_only_their_tenants(client, tenant, other_tenant):
    staff = User.objects.create_user("editor1", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(
        content_type__app_label="transient", codename__in=["view_tasktype", "add_tasktype", "change_tasktype"]))
    Membership.objects.create(user=staff, tenant=tenant, role="editor")
    client.force_login(staff)
    from layers.transient.services import task_type_create
    from memoryhub.core.actors import Actor

    mine = task_type_create(tenant=tenant, name="mine", required_slots=["a"], actor=Actor.system("t"))
    theirs = task_type_create(tenant=other_tenant, name="theirs", required_slots=["a"], actor=Actor.system("t"))
    listing = client.get("/admin/transient/tasktype/")
    assert listing.status_code == 200
    assert b"mine" in listing.content and b"theirs" not in listing.content
    assert client.get(f"/admin/transient/tasktype/{theirs.pk}/change/").status_code == 302  # not found → index
    refused = client.post(ADD, _form(other_tenant, name="sneaky"))
    assert refused.status_code == 200 and "tenant" in refused.context["adminform"].form.errors
    assert not TaskType.objects.filter(name="sneaky").exists()
    assert mine.pk
