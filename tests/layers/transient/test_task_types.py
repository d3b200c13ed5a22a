"""Task types: validation, audit, history, and the admin-scoped API."""
import pytest

from audit.models import AuditEvent
from layers.short_term.services import session_open
from layers.transient.models import TaskType
from layers.transient.services import (
    task_start,
    task_type_create,
    task_type_delete,
    task_type_update,
)
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, InvalidInput
from tests.support.actors import TEST_ACTOR

pytestmark = pytest.mark.django_db
ACTOR = Actor.system("tests")


def test_create_update_are_audited_and_versioned(tenant):
    task_type = task_type_create(tenant=tenant, name="book_hotel", required_slots=["城市", "入住日期"], actor=ACTOR)
    task_type_update(task_type=task_type, optional_slots=["预算"], default_ttl_seconds=600, actor=ACTOR)
    task_type_update(task_type=task_type, optional_slots=["预算"], actor=ACTOR)  # no change, no event
    task_type.refresh_from_db()
    assert task_type.optional_slots == ["预算"] and task_type.default_ttl_seconds == 600
    assert task_type.history.count() == 2
    actions = list(AuditEvent.objects.filter(tenant_id=tenant.id, object_type="task_type")
                   .order_by("seq").values_list("action", flat=True))
    assert actions == ["task_type.created", "task_type.updated"]
    updated = AuditEvent.objects.get(tenant_id=tenant.id, action="task_type.updated")
    assert updated.before["optional_slots"] == [] and updated.after["optional_slots"] == ["预算"]


@pytest.mark.parametrize("kwargs", [
    {"name": "", "required_slots": ["a"]},
    {"name": "has space", "required_slots": ["a"]},
    {"name": "x", "required_slots": ["a", "a"]},
    {"name": "x", "required_slots": ["a"], "optional_slots": ["a"]},
    {"name": "x", "required_slots": [""]},
    {"name": "x", "required_slots": ["s" * 65]},
    {"name": "x", "required_slots": [f"s{i}" for i in range(TaskType.MAX_SLOTS + 1)]},
    {"name": "x", "required_slots": ["a"], "default_ttl_seconds": 5},
])
def test_bad_task_types_are_refused(tenant, kwargs):
    with pytest.raises(InvalidInput):
        task_type_create(tenant=tenant, actor=ACTOR, **kwargs)
    assert not TaskType.objects.exists()


def test_duplicate_names_conflict_and_used_types_cannot_be_deleted(tenant):
    task_type = task_type_create(tenant=tenant, name="t", required_slots=[], actor=ACTOR)
    with pytest.raises(Conflict):
        task_type_create(tenant=tenant, name="t", required_slots=[], actor=ACTOR)
    session, _ = session_open(tenant=tenant, session_id="s", user_id="u", actor=ACTOR)
    assert task_start(session=session, task_type_name="t", actor=TEST_ACTOR).task.status == "ready"  # nothing required
    with pytest.raises(Conflict):
        task_type_delete(task_type=task_type, actor=ACTOR)
    unused = task_type_create(tenant=tenant, name="unused", required_slots=[], actor=ACTOR)
    task_type_delete(task_type=unused, actor=ACTOR)
    assert AuditEvent.objects.filter(tenant_id=tenant.id, action="task_type.deleted").count() == 1


def test_task_type_api_needs_admin_scope_to_write(api, make_client, tenant, other_api):
    writer = make_client(tenant, scopes=["write"])
    body = {"name": "book_flight", "required_slots": ["出发地", "目的地", "日期"], "optional_slots": ["舱位"]}
    assert writer.post_json("/api/v1/task-types", body).status_code == 403
    created = api.post_json("/api/v1/task-types", body)
    assert created.status_code == 201 and created.json()["default_ttl_seconds"] == 1800
    assert writer.get("/api/v1/task-types").json()["results"][0]["name"] == "book_flight"
    assert api.post_json("/api/v1/task-types", body).status_code == 409

    changed = api.patch_json("/api/v1/task-types/book_flight", {"default_ttl_seconds": 900})
    assert changed.status_code == 200 and changed.json()["default_ttl_seconds"] == 900
    assert writer.patch_json("/api/v1/task-types/book_flight", {"default_ttl_seconds": 60}).status_code == 403
    bad = api.patch_json("/api/v1/task-types/book_flight", {"optional_slots": ["出发地"]})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_task_type"
    assert other_api.get("/api/v1/task-types/book_flight").status_code == 404
    assert other_api.get("/api/v1/task-types").json()["results"] == []
