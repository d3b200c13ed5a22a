"""Operating the jobs: beat entries name registered tasks, the forget task runs in a worker, and staff
see formation runs in the console."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.actors import Actor
from layers.formation.models import FormationRun
from layers.formation.services import session_extract
from layers.long_term.models import Memory
from layers.long_term.services import memory_create
from memoryhub.outbox.services import task_enqueue_on_commit
from tests.conftest import wait_for


def test_every_beat_entry_names_a_registered_task():
    from memoryhub.celery import app

    app.loader.import_default_modules()
    names = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {"formation.catch_up", "formation.forget", "formation.reembed"} <= names
    assert names <= set(app.tasks), sorted(names - set(app.tasks))


@pytest.mark.django_db(transaction=True)
def test_forget_task_in_a_worker(tenant, celery_worker):
    memory = memory_create(tenant=tenant, actor=Actor.system("tests"), user_id="alice", kind="fact",
                           content="User is in Rome this week.", importance=0.2).memory
    Memory.objects.filter(pk=memory.pk).update(expires_at=timezone.now() - timedelta(minutes=1))  # crafted
    task_enqueue_on_commit("formation.forget", args=["long_term.expire"])
    wait_for(lambda: Memory.objects.get(pk=memory.pk).status == "deleted", timeout=60,
             message="the worker to expire the memory")


@pytest.mark.django_db
def test_staff_see_formation_runs(admin_client, talk):
    session = talk("seen", "alice", [("user", "I love jazz.")], end=True)
    run = session_extract(session_pk=session.pk).run
    listing = admin_client.get("/admin/formation/formationrun/")
    assert listing.status_code == 200 and "offline-rules@1" in listing.content.decode()
    detail = admin_client.get(f"/admin/formation/formationrun/{run.pk}/change/")
    assert detail.status_code == 200
    assert admin_client.get("/admin/formation/formationstate/").status_code == 200
    assert admin_client.post(f"/admin/formation/formationrun/{run.pk}/delete/").status_code == 403
    assert FormationRun.objects.filter(pk=run.pk).exists()
