"""Bounded owners (layers/forgetting/capacity.py): a governed capacity per kind; past it the least important,
least recently used memories are archived, never core facts, never deleted, with a dry run and audit."""
from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from layers.forgetting.capacity import memories_archive_over_capacity
from layers.forgetting.policy import forgetting_policy
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.services import memory_create
from memoryhub.core.actors import Actor
from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db

ACTOR = Actor.system("tests.capacity")
NOW = timezone.now()


@pytest.fixture
def capacity(tenant, make_staff):
    """Approve `policy.forgetting.capacity_per_kind` for the tenant, as staff would."""
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")

    def govern(value: dict):
        request = change_request_propose(tenant=tenant, key="policy.forgetting.capacity_per_kind", action="create",
                                         value=value, proposer_user=editor)
        change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    return govern


def remember(tenant, content, *, importance, used_days_ago, user_id="chatty", kind="event"):
    memory = memory_create(tenant=tenant, actor=ACTOR, user_id=user_id, kind=kind, content=content,
                           importance=importance).memory
    # Crafting the past: a test-only bulk update (bypassing history on purpose).
    Memory.objects.filter(pk=memory.pk).update(last_accessed_at=NOW - timedelta(days=used_days_ago))
    return memory.pk


def _state():
    return (sorted(Memory.objects.values_list("pk", "status")), AuditEvent.objects.count(), Memory.history.count())


def test_default_capacity_is_generous_and_merged_per_kind(tenant, capacity):
    assert set(forgetting_policy(tenant.pk).capacity_per_kind.values()) == {1_000_000}
    capacity({"event": 3})
    merged = forgetting_policy(tenant.pk).capacity_per_kind
    assert merged["event"] == 3 and merged["fact"] == 1_000_000


def test_least_important_then_least_recently_used_are_archived_never_core_facts(tenant, other_tenant, capacity):
    core = remember(tenant, "Chatty is allergic to peanuts", importance=0.95, used_days_ago=400)
    cold = remember(tenant, "Chatty went to a concert", importance=0.3, used_days_ago=200)
    warm = remember(tenant, "Chatty visited a museum", importance=0.3, used_days_ago=1)
    colder_but_important = remember(tenant, "Chatty got married", importance=0.8, used_days_ago=300)
    fresh = remember(tenant, "Chatty bought a bike", importance=0.5, used_days_ago=0)
    quiet = remember(tenant, "Quiet went hiking", importance=0.1, used_days_ago=500, user_id="quiet")
    elsewhere = [remember(other_tenant, f"Chatty elsewhere {i}", importance=0.1, used_days_ago=500) for i in range(6)]
    fact = remember(tenant, "Chatty is a pilot", importance=0.1, used_days_ago=900, kind="fact")
    capacity({"event": 3})

    before = _state()
    report = memories_archive_over_capacity(dry_run=True)
    assert report == {"dry_run": True, "owners_over_capacity": 1, "would_archive": 2, "core_over_capacity": 0,
                      "archived": 0}
    assert _state() == before, "a dry run changes nothing"

    report = memories_archive_over_capacity()
    assert (report["archived"], report["would_archive"]) == (2, 2)
    status = dict(Memory.objects.values_list("pk", "status"))
    # 5 events, capacity 3: the two least important go, the colder of them first; the core fact stays
    assert {pk for pk, s in status.items() if s == MemoryStatus.ARCHIVED} == {cold, warm}
    assert all(status[pk] == MemoryStatus.ACTIVE for pk in (core, colder_but_important, fresh, quiet, fact, *elsewhere))
    events = list(AuditEvent.objects.filter(action="memory.archived_over_capacity").order_by("seq"))
    assert [(int(e.object_id), e.after["rank"], e.after["capacity"]) for e in events] == [(cold, 1, 3), (warm, 2, 3)]
    assert all(e.actor_id == "long_term.archive_over_capacity" and "Chatty" not in json.dumps(e.after) for e in events)
    archived = Memory.objects.get(pk=cold)
    assert archived.history.first().history_change_reason == "archived: over capacity"

    after = _state()
    assert memories_archive_over_capacity()["archived"] == 0, "idempotent"
    assert _state() == after


def test_core_facts_over_capacity_are_reported_not_archived(tenant, capacity):
    core = [remember(tenant, f"Chatty is allergic to food number {i}", importance=0.95, used_days_ago=i, kind="fact")
            for i in range(3)]
    plain = remember(tenant, "Chatty likes tea", importance=0.4, used_days_ago=5, kind="fact")
    capacity({"fact": 2})
    report = memories_archive_over_capacity()
    assert (report["archived"], report["core_over_capacity"]) == (1, 1)
    assert Memory.objects.get(pk=plain).status == MemoryStatus.ARCHIVED
    assert set(Memory.objects.filter(pk__in=core).values_list("status", flat=True)) == {MemoryStatus.ACTIVE}


def test_forget_command_runs_it_with_a_dry_run(tenant, capacity):
    for i in range(3):
        remember(tenant, f"Chatty event {i}", importance=0.2, used_days_ago=i)
    capacity({"event": 1})
    out = StringIO()
    call_command("forget", "--dry-run", "--job", "long_term.archive_over_capacity", stdout=out)
    assert "[dry run] long_term.archive_over_capacity: owners_over_capacity=1, would_archive=2" in out.getvalue()
    assert Memory.objects.filter(status=MemoryStatus.ARCHIVED).count() == 0
    call_command("forget", "--job", "long_term.archive_over_capacity", stdout=StringIO())
    assert Memory.objects.filter(status=MemoryStatus.ARCHIVED).count() == 2
