"""The LLM path with the same families, negatives and validation as the offline rules, against the
local stub: a job change supersedes the job; a hypothetical leaves no fact (the prompt says why); and
when the model's output is unusable the offline extractor's result is used and the fallback counted."""
from __future__ import annotations

import pytest

from layers.formation.models import FormationRun
from layers.formation.services import session_extract
from tests.support.formation import extracted_memories

pytestmark = pytest.mark.django_db


def _item(**fields):
    item = {"kind": "fact", "confidence": 1.0, "importance": 0.7, "entities": [], "source_turn": 1}
    item.update(fields)
    return item


def test_a_job_change_supersedes_the_job(talk, openai_stub, stub_provider):
    openai_stub.reply_json({"memories": [_item(memory_key="user.employer", value="Google",
                                               content="User works at Google.", entities=["Google"])]})
    first = talk("job-1", "kai", [("user", "I'm an engineer at Google.")], end=True)
    assert session_extract(session_pk=first.pk, provider=stub_provider).status == "completed"
    openai_stub.reply_json({"memories": [_item(memory_key="user.employer", value="Stripe",
                                               content="User works at Stripe.", entities=["Stripe"])]})
    second = talk("job-2", "kai", [("user", "Big news: I switched to Stripe last week.")], end=True)
    report = session_extract(session_pk=second.pk, provider=stub_provider)
    assert report.run.superseded == 1
    old, new = extracted_memories().filter(user_id="kai", memory_key="user.employer").order_by("id")
    assert (old.status, old.superseded_by_id, new.status) == ("superseded", new.pk, "active")
    assert old.valid_to is not None and "Stripe" in new.content
    # The prompt names the family and what a change means.
    system = openai_stub.requests[-1]["messages"][0]["content"]
    assert "user.employer" in system


def test_a_hypothetical_leaves_no_fact(talk, openai_stub, stub_provider):
    openai_stub.reply_json({"memories": []})
    session = talk("hypo", "lin", [("user", "If I ever get a dog I'd call him Biscuit.")], end=True)
    report = session_extract(session_pk=session.pk, provider=stub_provider)
    assert report.status == "completed" and not extracted_memories().filter(user_id="lin").exists()
    system = openai_stub.requests[-1]["messages"][0]["content"].lower()
    assert "hypothetical" in system  # the negative rule the model is given


def test_unusable_output_falls_back_to_the_offline_rules_and_is_counted(talk, openai_stub, stub_provider):
    openai_stub.reply_content("Sure! Here are the memories: user likes jazz")  # not JSON
    session = talk("fallback", "mo", [("user", "I'm allergic to shellfish.")], end=True)
    report = session_extract(session_pk=session.pk, provider=stub_provider)
    assert report.status == "fell_back"
    assert FormationRun.objects.filter(outcome="fell_back").count() == 1
    assert list(extracted_memories().filter(user_id="mo").values_list("memory_key", flat=True)) == ["user.allergies"]
