"""Erasure after the formation layer has worked on the user's sessions in a real worker: extracted
memories, formation runs and state, summaries, outbox rows and task results all go."""
from __future__ import annotations

import uuid

import pytest

from audit.selectors import audit_chain_verify
from layers.formation.models import FormationRun
from layers.long_term.models import Memory
from tests.support.erasure import occurrences, redis_occurrences
from tests.support.processes import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_erasure_covers_what_formation_derived(api, celery_worker):
    run = uuid.uuid4().hex[:10]
    user_id, marker = f"formed-{run}", f"Qzmark{run}"
    session_id = f"s-{run}"
    assert api.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": user_id}).status_code == 201
    turns = [("user", "I'm allergic to peanuts."), ("user", f"I live in {marker}."),
             ("user", f"My nickname is {marker} and I love {marker} noodles."), ("assistant", f"Noted, {marker}.")]
    response = api.post_json(f"/api/v1/sessions/{session_id}/turns",
                             {"turns": [{"role": role, "content": content} for role, content in turns]})
    assert response.status_code == 201, response.content
    assert api.post_json(f"/api/v1/sessions/{session_id}/end").status_code == 200
    wait_for(lambda: FormationRun.objects.filter(session__session_id=session_id, job="extract").exists(),
             timeout=60, message="extraction by the worker")
    assert Memory.objects.filter(user_id=user_id).exists()
    assert occurrences(marker)

    erased = api.delete(f"/api/v1/users/{user_id}")
    assert erased.status_code == 200, erased.content
    assert erased.json()["deleted"].get("formation.formationrun")

    assert occurrences(marker) == [] and occurrences(user_id) == []
    assert redis_occurrences(marker) == [] and redis_occurrences(user_id) == []
    assert not FormationRun.objects.exists() and not Memory.objects.filter(user_id=user_id).exists()
    assert audit_chain_verify().ok
