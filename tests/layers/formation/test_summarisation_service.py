"""Summarisation runs in-process: the turns that left the window become a summary version and an episode."""
from __future__ import annotations

import pytest

from layers.formation.models import FormationRun, FormationState
from layers.formation.services import session_summarise
from layers.long_term.models import Memory
from layers.short_term.models import SessionSummary, Turn
from layers.short_term.selectors import session_window

pytestmark = pytest.mark.django_db

FILLER = [("user", "What's the weather like?"), ("assistant", "Sunny, around twenty degrees.")]


def test_turns_that_left_the_window_are_summarised_once(talk):
    turns = [("user", "I'm allergic to peanuts."), ("assistant", "Noted.")] + FILLER * 9  # 20 turns
    session = talk("long", "alice", turns)
    assert session.needs_summary  # 20 unsummarised turns with the default trigger
    report = session_summarise(session_pk=session.pk)
    assert report.status == "completed"
    summary = SessionSummary.objects.get(session=session)
    assert (summary.version, summary.covers_up_to) == (1, 5)  # 20 turns - window of 15
    assert "peanut" in summary.content and summary.summariser == "offline-extractive@1"
    episode = Memory.objects.get(kind="episode")
    assert (episode.source_turn_from, episode.source_turn_to, episode.source_session_id) == (1, 5, "long")
    assert episode.attributes["summary_version"] == 1 and "peanut" in episode.content
    assert episode.source == "inferred" and episode.user_id == "alice"
    session.refresh_from_db()
    assert not session.needs_summary
    assert FormationState.objects.get(session=session).last_summarised_seq == 5
    assert Turn.objects.filter(session=session).count() == 20, "turns are never deleted"
    window = session_window(session=session)
    assert window.summary == summary and [t.turn.seq for t in window.turns] == list(range(6, 21))

    assert session_summarise(session_pk=session.pk).status == "nothing_new"
    assert SessionSummary.objects.count() == 1 and Memory.objects.filter(kind="episode").count() == 1

    # Incremental: the next version builds on the previous summary plus only the new turns.
    session = talk("long", "alice", [("user", "I moved to Berlin.")] + FILLER * 2)  # 25 turns
    assert session_summarise(session_pk=session.pk).status == "completed"
    latest = SessionSummary.objects.get(session=session, version=2)
    assert latest.covers_up_to == 10 and "peanut" in latest.content
    second = Memory.objects.filter(kind="episode").order_by("id").last()
    assert (second.source_turn_from, second.source_turn_to) == (6, 10)
    runs = FormationRun.objects.filter(session=session, job="summarise").order_by("id")
    assert [(r.turn_from, r.turn_to, r.summary_version) for r in runs] == [(1, 5, 1), (6, 10, 2)]


def test_secrets_never_reach_summary_or_episode(talk, tenant):
    tenant.redact_secrets_in_turns = False
    tenant.save()
    session = talk("sec", "alice", [("user", "My password is hunter2, and I love hiking.")] + FILLER * 10)
    session_summarise(session_pk=session.pk)
    assert "hunter2" not in SessionSummary.objects.get(session=session).content
    assert not Memory.objects.filter(content__contains="hunter2").exists()


def test_llm_summary_and_its_rejected_reply(talk, openai_stub, stub_provider):
    session = talk("llm-sum", "alice", [("user", "I'm allergic to peanuts."), ("assistant", "Noted.")] + FILLER * 9)
    openai_stub.reply_json({"summary": "The user is allergic to peanuts and asked about the weather.",
                            "facts": ["allergic to peanuts"], "decisions": [], "open_questions": [], "mood": None})
    openai_stub.reply_json({"summary": "The user said they are allergic to peanuts.", "facts": [], "decisions": [],
                            "open_questions": [], "mood": None})
    report = session_summarise(session_pk=session.pk, provider=stub_provider)
    assert report.status == "completed" and report.run.extractor == "openai-chat:stub-model@1"
    summary = SessionSummary.objects.get(session=session)
    assert summary.content == "The user is allergic to peanuts and asked about the weather."
    assert Memory.objects.get(kind="episode").content == "The user said they are allergic to peanuts."
    rolling_request, episode_request = openai_stub.requests
    assert "allergic to peanuts" in rolling_request["messages"][-1]["content"]
    assert episode_request["response_format"] == {"type": "json_object"}

    # A reply outside the schema is never stored: the offline summariser covers the span instead.
    session = talk("llm-sum", "alice", FILLER * 3)
    openai_stub.reply_content('{"summary": 42}')
    report = session_summarise(session_pk=session.pk, provider=stub_provider)
    assert report.status == "fell_back" and report.run.extractor == "offline-extractive@1"
    latest = SessionSummary.objects.get(session=session, version=2)
    assert latest.summariser == "offline-extractive@1" and latest.covers_up_to == 11


def test_a_long_backlog_is_summarised_in_slices(talk, monkeypatch):
    from layers.formation import tasks
    from layers.formation.services import summarisation

    monkeypatch.setattr(summarisation, "MAX_TURNS_PER_RUN", 4)
    session = talk("backlog", "alice", [("user", "I'm allergic to peanuts."), ("assistant", "Noted.")] + FILLER * 14)
    result = tasks.summarise_session.run(session.pk)  # 30 turns: 15 left the window, in slices of 4
    assert [(r["turn_from"], r["turn_to"]) for r in result["runs"]] == [(1, 4), (5, 8), (9, 12), (13, 15)]
    versions = list(SessionSummary.objects.filter(session=session).order_by("version")
                    .values_list("version", "covers_up_to"))
    assert versions == [(1, 4), (2, 8), (3, 12), (4, 15)]
    assert "peanut" in SessionSummary.objects.get(session=session, version=4).content, "carried forward"
    # One episode per slice, and slices that say exactly the same thing merge into one memory.
    episodes = Memory.objects.filter(kind="episode").order_by("id")
    assert episodes.count() == 2 and "peanut" in episodes[0].content and episodes[1].mention_count == 3
