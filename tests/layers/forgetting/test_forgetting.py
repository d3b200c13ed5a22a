"""Each forgetting job on rows with crafted timestamps: what it changes, its audit events, and its dry run."""
from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from layers.forgetting.jobs import forget_run
from layers.forgetting.services import (
    memories_archive_decayed,
    memories_expire,
    memories_purge_deleted,
)
from layers.long_term.models import Memory
from layers.long_term.services import memory_create, memory_soft_delete
from layers.short_term.models import Session
from layers.transient.models import TaskState
from layers.transient.services import task_start, task_type_create
from memoryhub.core.actors import Actor
from memoryhub.outbox.services import task_enqueue_on_commit
from tests.support.processes import wait_for

pytestmark = pytest.mark.django_db

ACTOR = Actor.system("tests.forgetting")
NOW = timezone.now()


@pytest.fixture
def remember(tenant):
    def write(content, *, importance=0.5, kind="fact", user_id="alice", **crafted):
        memory = memory_create(tenant=tenant, actor=ACTOR, user_id=user_id, kind=kind, content=content,
                               importance=importance).memory
        if crafted:
            # Crafting the past: a test-only bulk update (bypassing history on purpose).
            Memory.objects.filter(pk=memory.pk).update(**crafted)
        return Memory.objects.get(pk=memory.pk)
    return write


def _snapshot():
    return (sorted(Memory.objects.values_list("pk", "status", "expires_at", "updated_at")),
            AuditEvent.objects.count(), Memory.history.count())


def _actions(pk):
    return list(AuditEvent.objects.filter(object_type="long_term.memory", object_id=str(pk))
                .order_by("id").values_list("action", flat=True))


def test_expiry_soft_deletes_the_unimportant_and_extends_the_important(remember):
    trivial = remember("User is in Rome this week.", importance=0.3, expires_at=NOW - timedelta(hours=1))
    important = remember("User works as a nurse.", importance=0.75, expires_at=NOW - timedelta(hours=1))
    fresh = remember("User likes tea.", importance=0.3, expires_at=NOW + timedelta(days=3))
    before = _snapshot()
    assert memories_expire(now=NOW, dry_run=True) == {
        "dry_run": True, "would_soft_delete": 1, "would_extend": 1, "soft_deleted": 0, "extended": 0}
    assert _snapshot() == before, "a dry run changes nothing"

    result = memories_expire(now=NOW)
    assert (result["soft_deleted"], result["extended"]) == (1, 1)
    trivial.refresh_from_db(), important.refresh_from_db(), fresh.refresh_from_db()
    assert trivial.status == "deleted" and trivial.status_before_delete == "active"
    assert important.status == "active" and important.expires_at == NOW + timedelta(days=90)
    assert fresh.status == "active"
    assert _actions(trivial.pk)[-1] == "memory.soft_deleted" and _actions(important.pk)[-1] == "memory.ttl_extended"
    event = AuditEvent.objects.filter(action="memory.ttl_extended").get()
    assert event.actor_id == "long_term.expire" and "nurse" not in json.dumps(event.after)

    assert memories_expire(now=NOW)["soft_deleted"] == 0, "idempotent"
    assert AuditEvent.objects.filter(action__in=["memory.soft_deleted", "memory.ttl_extended"]).count() == 2


def test_decayed_and_idle_memories_are_archived(remember):
    old = NOW - timedelta(days=400)
    # An event (α 120 days) confirmed 400 days ago: exp(-400/120) ≈ 0.036 < 0.1.
    faded = remember("User went to a concert.", kind="event", last_confirmed_at=old, last_accessed_at=None)
    read_lately = remember("User saw a play.", kind="event", last_confirmed_at=old,
                           last_accessed_at=NOW - timedelta(days=2))
    # A preference (α 365 days) of the same age still scores exp(-400/365) ≈ 0.33.
    lasting = remember("User likes jazz.", kind="preference", last_confirmed_at=old, last_accessed_at=None)
    before = _snapshot()
    assert memories_archive_decayed(now=NOW, dry_run=True) == {"dry_run": True, "would_archive": 1, "archived": 0}
    assert _snapshot() == before

    assert memories_archive_decayed(now=NOW)["archived"] == 1
    assert Memory.objects.get(pk=faded.pk).status == "archived"
    assert Memory.objects.get(pk=read_lately.pk).status == "active"
    assert Memory.objects.get(pk=lasting.pk).status == "active"
    (event,) = AuditEvent.objects.filter(action="memory.archived")
    assert event.object_id == str(faded.pk) and event.after["score"] < 0.1
    assert memories_archive_decayed(now=NOW)["archived"] == 0


def test_soft_deleted_memories_are_purged_after_the_grace_period_keeping_history(remember):
    long_gone = remember("User likes opera.")
    memory_soft_delete(memory=long_gone, actor=ACTOR)
    Memory.objects.filter(pk=long_gone.pk).update(updated_at=NOW - timedelta(days=31))
    recent = remember("User likes ballet.")
    memory_soft_delete(memory=recent, actor=ACTOR)
    Memory.objects.filter(pk=recent.pk).update(updated_at=NOW - timedelta(days=29))
    before = _snapshot()
    assert memories_purge_deleted(now=NOW, dry_run=True) == {"dry_run": True, "would_purge": 1, "purged": 0}
    assert _snapshot() == before

    assert memories_purge_deleted(now=NOW)["purged"] == 1
    assert not Memory.objects.filter(pk=long_gone.pk).exists()
    assert Memory.objects.get(pk=recent.pk).status == "deleted"
    versions = list(Memory.history.filter(id=long_gone.pk).order_by("history_id").values_list("history_type", flat=True))
    assert versions[0] == "+" and versions[-1] == "-", "history keeps the record, ending with the deletion"
    assert _actions(long_gone.pk)[-1] == "memory.purged"
    assert memories_purge_deleted(now=NOW)["purged"] == 0


def test_forget_command_dry_run_reports_every_job_and_changes_nothing(remember, tenant):
    remember("User is in Rome this week.", importance=0.3, expires_at=NOW - timedelta(hours=1))
    remember("User went to a concert.", kind="event", last_confirmed_at=NOW - timedelta(days=400))
    gone = remember("User likes opera.")
    memory_soft_delete(memory=gone, actor=ACTOR)
    Memory.objects.filter(pk=gone.pk).update(updated_at=NOW - timedelta(days=40))
    session = Session.objects.create(tenant=tenant, session_id="idle", user_id="alice", last_activity_at=NOW)
    booking = task_type_create(tenant=tenant, name="book", required_slots=["date"], actor=ACTOR)
    task = task_start(session=session, task_type_name=booking.name, slots={}, actor=ACTOR)
    TaskState.objects.filter(pk=task.task.pk).update(expires_at=NOW - timedelta(minutes=1))
    Session.objects.filter(pk=session.pk).update(last_activity_at=NOW - timedelta(days=2))
    before = (_snapshot(), list(Session.objects.values_list("status", flat=True)), TaskState.objects.count())

    out = StringIO()
    call_command("forget", "--dry-run", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["transient.sweep_expired_tasks"]["would_expire"] == 1
    assert report["short_term.expire_idle_sessions"]["would_expire"] == 1
    assert report["long_term.expire"]["would_soft_delete"] == 1
    assert report["long_term.archive_decayed"]["would_archive"] == 1
    assert report["long_term.purge_deleted"]["would_purge"] == 1
    assert all(result["dry_run"] for result in report.values())
    assert (_snapshot(), list(Session.objects.values_list("status", flat=True)),
            TaskState.objects.count()) == before, "the dry run changed nothing"

    only = StringIO()
    call_command("forget", "--dry-run", "--json", "--job", "long_term.expire", stdout=only)
    assert list(json.loads(only.getvalue())) == ["long_term.expire"]

    text = StringIO()
    call_command("forget", "--dry-run", stdout=text)
    assert "[dry run] long_term.purge_deleted: would_purge=1, purged=0" in text.getvalue()

    done = forget_run()
    assert done["long_term.expire"]["soft_deleted"] == 1 and done["long_term.purge_deleted"]["purged"] == 1
    assert done["short_term.expire_idle_sessions"]["expired"] == 1
    assert Session.objects.get(pk=session.pk).status == "expired"
    # The second run finds nothing left to do (the memory expired just now is inside its grace period).
    again = forget_run()
    assert again["long_term.expire"]["soft_deleted"] == 0 and again["long_term.purge_deleted"]["purged"] == 0


@pytest.mark.django_db(transaction=True)
def test_forget_task_in_a_worker(tenant, celery_worker):
    memory = memory_create(tenant=tenant, actor=Actor.system("tests"), user_id="alice", kind="fact",
                           content="User is in Rome this week.", importance=0.2).memory
    Memory.objects.filter(pk=memory.pk).update(expires_at=timezone.now() - timedelta(minutes=1))  # crafted
    task_enqueue_on_commit("forgetting.run", args=["long_term.expire"])
    wait_for(lambda: Memory.objects.get(pk=memory.pk).status == "deleted", timeout=60,
             message="the worker to expire the memory")
