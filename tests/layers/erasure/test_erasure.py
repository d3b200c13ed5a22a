"""Erasing an end user leaves no trace of them in any table or in Redis, while the audit chain still
verifies and records the erasure; export returns all of it first."""
from __future__ import annotations

import io
import uuid

import pytest
import redis
from django.core.cache import cache
from django.core.management import call_command

from audit.models import AuditEvent, SubjectKey
from audit.selectors import audit_chain_verify
from layers.erasure import redis_purge
from layers.long_term.services import memory_create, memory_soft_delete, memory_update
from layers.short_term.models import Session
from layers.short_term.services.summaries import session_summary_create
from memoryhub.core.actors import Actor
from memoryhub.core.redis import user_key_prefix
from permanent.services import change_request_approve, change_request_propose
from tests.support.erasure import occurrences, redis_occurrences

pytestmark = pytest.mark.django_db

TEXT_TYPES = ("text", "character varying", "json", "jsonb", "ARRAY", "tsvector")


def populate(api, tenant, editor, reviewer, user_id: str, marker: str) -> None:
    """The user's data in every layer, each piece carrying `marker`."""
    session_id = f"s-{uuid.uuid4().hex[:8]}"
    opened = api.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": user_id,
                                                "metadata": {"note": f"meta {marker}"}})
    assert opened.status_code in (200, 201), opened.content
    turns = api.post_json(f"/api/v1/sessions/{session_id}/turns", {"turns": [
        {"role": "user", "content": f"I live at {marker} street"},
        {"role": "assistant", "content": f"Noted, {marker} street."}]})
    assert turns.status_code in (200, 201), turns.content
    session = Session.objects.get(tenant=tenant, session_id=session_id)
    session_summary_create(session=session, covers_up_to=2, content=f"Lives at {marker} street",
                           summariser="tests", actor=Actor.system("tests"))
    type_name = f"booking-{uuid.uuid4().hex[:8]}"  # tenant configuration, not the user's data
    task_type = api.post_json("/api/v1/task-types", {"name": type_name, "required_slots": ["city"]})
    assert task_type.status_code in (200, 201), task_type.content
    task = api.post_json(f"/api/v1/sessions/{session_id}/tasks",
                         {"task_type": type_name, "slots": {"city": f"{marker} city"}})
    assert task.status_code in (200, 201), task.content
    memory = memory_create(tenant=tenant, actor=Actor.system("tests"), user_id=user_id, kind="fact",
                           content=f"Home address is {marker} street", entities=[f"{marker}"],
                           attributes={"street": marker}).memory
    memory_update(memory=memory, actor=Actor.system("tests"), content=f"Home address is now {marker} avenue")
    gone = memory_create(tenant=tenant, actor=Actor.system("tests"), user_id=user_id, kind="preference",
                         content=f"Likes {marker} tea").memory
    memory_soft_delete(memory=gone, actor=Actor.system("tests"))
    cr = change_request_propose(tenant=tenant, key="profile.nickname", action="create", user_id=user_id,
                                value={"nickname": marker}, proposer_user=editor)
    change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    change_request_propose(tenant=tenant, key="profile.nickname", action="update", user_id=user_id,
                           value={"nickname": f"{marker}-2"}, reason=f"asked by {marker}", proposer_user=editor)
    # A served copy in the permanent read cache, and some other layer's cached copy.
    assert api.get("/api/v1/permanent/profile.nickname", {"user_id": user_id}).json()["value"] == {"nickname": marker}
    # (Every writer of per-user Redis data keys it under the user's prefix: memoryhub/core/redis.py.)
    cache.set(user_key_prefix(tenant.id, user_id) + f"test-copy-{uuid.uuid4().hex}", {"text": f"cached {marker}"},
              600)


def test_erasure_leaves_no_trace_and_the_chain_verifies(api, tenant, editor, reviewer):
    run = uuid.uuid4().hex[:10]
    user_id, marker = f"erase-me-{run}", f"QZMARK{run}"
    keep_user, keep_marker = f"keep-me-{run}", f"KEEPMARK{run}"
    populate(api, tenant, editor, reviewer, user_id, marker)
    populate(api, tenant, editor, reviewer, keep_user, keep_marker)
    assert occurrences(marker) and redis_occurrences(marker)

    exported = api.get(f"/api/v1/users/{user_id}/export")
    assert exported.status_code == 200
    data = exported.json()["data"]
    for label in ("short_term.session", "short_term.turn", "short_term.sessionsummary", "transient.taskstate",
                  "long_term.memory", "long_term.historicalmemory", "permanent.permanententry",
                  "permanent.permanentversion", "permanent.changerequest", "permanent.historicalchangerequest"):
        assert data.get(label), label
    assert marker in str(data) and keep_marker not in str(data)

    erased = api.delete(f"/api/v1/users/{user_id}")
    assert erased.status_code == 200, erased.content
    assert erased.json()["deleted"]["long_term.memory"] == 2

    assert occurrences(marker) == []
    assert occurrences(user_id) == []
    assert redis_occurrences(marker) == [] and redis_occurrences(user_id) == []
    assert not SubjectKey.objects.filter(tenant_id=tenant.id, user_id=user_id).exists()
    assert audit_chain_verify().ok
    assert AuditEvent.objects.filter(tenant_id=tenant.id, action="user.erased").count() == 1
    out = io.StringIO()
    call_command("verify_audit", stdout=out)
    assert out.getvalue().startswith("OK:")
    # The other user is untouched.
    assert occurrences(keep_marker) and redis_occurrences(keep_marker)
    assert api.get("/api/v1/permanent/profile.nickname", {"user_id": keep_user}).json()["scope"] == "user"
    # Again: nothing left to erase, still fine.
    again = api.delete(f"/api/v1/users/{user_id}")
    assert again.status_code == 200 and again.json()["deleted"] == {}
    assert audit_chain_verify().ok


def test_erasure_and_export_need_the_admin_scope_and_stay_in_the_tenant(make_client, tenant, other_api, editor,
                                                                        reviewer, api):
    run = uuid.uuid4().hex[:10]
    user_id, marker = f"shared-{run}", f"SHAREDMARK{run}"
    populate(api, tenant, editor, reviewer, user_id, marker)
    writer = make_client(tenant, scopes=["read", "write"])
    assert writer.delete(f"/api/v1/users/{user_id}").status_code == 403
    assert writer.get(f"/api/v1/users/{user_id}/export").status_code == 403
    # Another tenant erasing the same user id removes nothing here.
    assert other_api.delete(f"/api/v1/users/{user_id}").json()["deleted"] == {}
    assert other_api.get(f"/api/v1/users/{user_id}/export").json()["data"] == {}
    assert occurrences(marker)
    assert api.delete("/api/v1/users/bad%01id").status_code == 400
    # Client user ids may contain slashes.
    slashed = f"org/{run}/alice"
    memory_create(tenant=tenant, actor=Actor.system("tests"), user_id=slashed, kind="fact", content=f"{marker} slash")
    assert api.get(f"/api/v1/users/{slashed}/export").json()["data"]["long_term.memory"][0]["user_id"] == slashed
    assert api.delete(f"/api/v1/users/{slashed}").json()["deleted"]["long_term.memory"] == 1


def test_erasure_refuses_with_503_and_keeps_everything_when_redis_is_down(api, tenant, editor, reviewer, settings,
                                                                          monkeypatch):
    run = uuid.uuid4().hex[:10]
    user_id, marker = f"later-{run}", f"LATERMARK{run}"
    populate(api, tenant, editor, reviewer, user_id, marker)
    before = occurrences(marker)
    dead = "redis://127.0.0.1:9/0"  # nothing listens on the discard port
    settings.REDIS_URL = settings.CELERY_BROKER_URL = settings.CELERY_RESULT_BACKEND = dead
    # The purge goes through the process's shared client, made once from the old URL: point it at the
    # dead port too (a real client that fails to connect, as with Redis down).
    unreachable = redis.Redis.from_url(dead, socket_timeout=0.2, socket_connect_timeout=0.2)
    monkeypatch.setattr(redis_purge, "redis_client", lambda: unreachable)
    response = api.delete(f"/api/v1/users/{user_id}")
    assert response.status_code == 503 and response.json()["error"]["code"] == "redis_unavailable"
    assert occurrences(marker) == before
    assert SubjectKey.objects.filter(tenant_id=tenant.id, user_id=user_id).exists()
