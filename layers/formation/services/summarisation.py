"""Summarisation runs: turns that left a session's window become the next rolling summary version
and one `episode` memory for that span. Turns themselves are never deleted."""
from __future__ import annotations

import logging

from audit.services import audit_record
from layers.formation.events import SUMMARISED
from layers.formation.extractor import DROP_SECRET
from layers.formation.llm import (
    LLMOutputInvalid,
    LLMProvider,
    OfflineProvider,
    get_llm_provider,
)
from layers.formation.models import FormationRun, FormationState, RunJob, RunOutcome
from layers.formation.policy import formation_policy
from layers.formation.services.runs import (
    MAX_TURNS_PER_RUN,
    RunCounts,
    RunReport,
    run_writes_done,
    session_job_run,
    session_writes_lock,
)
from layers.long_term.models import MemoryKind, MemorySource, MemoryStatus
from layers.long_term.services import memory_create
from layers.short_term.models import Session, Turn
from layers.short_term.policy import short_term_policy
from layers.short_term.selectors import session_summary_latest
from layers.short_term.services import session_summary_create
from memoryhub.core.actors import Actor
from memoryhub.core.errors import InvalidInput

logger = logging.getLogger(__name__)

ACTOR = Actor.system("formation.summarise")
SUMMARY_MAX_TOKENS = 400
EPISODE_MAX_TOKENS = 300
# An episode is the service's own account of a span, not the user's words: less certain than a statement.
EPISODE_CONFIDENCE = 0.8


def summary_target(session: Session) -> int:
    """The last turn the next summary should cover: every turn older than the default window."""
    return max(0, session.turn_count - short_term_policy(session.tenant_id).window_max_turns)


def session_summarise(*, session_pk: int, provider: LLMProvider | None = None) -> RunReport:
    """Summarise the turns between the latest summary and the window, if any, incrementally.

    The new version = summariser(previous summary + new turns); the episode memory = the new turns
    summarised on their own. Both, the state and the run record commit together under the
    session's "summarise" lock, so a repeated or concurrent run stores nothing twice.
    """
    provider = provider or get_llm_provider()
    return session_job_run("summarise", session_pk, lambda session: _summarise(session, provider))


def _summarise(session: Session, provider: LLMProvider) -> RunReport:
    session_pk = session.pk
    latest = session_summary_latest(session=session)
    covered = latest.covers_up_to if latest else 0
    due_up_to = summary_target(session)
    target = min(due_up_to, covered + MAX_TURNS_PER_RUN)
    if target <= covered:
        return RunReport("nothing_new", session_pk)
    turns = list(Turn.objects.filter(session=session, seq__gt=covered, seq__lte=target).order_by("seq"))
    outcome = RunOutcome.COMPLETED
    try:
        rolling = provider.summarise(latest.content if latest else None, turns, max_tokens=SUMMARY_MAX_TOKENS)
        episode = provider.summarise(None, turns, max_tokens=EPISODE_MAX_TOKENS)
    except LLMOutputInvalid:
        logger.warning("summary for session %s: model reply rejected, offline summariser used", session_pk)
        offline, outcome = OfflineProvider(), RunOutcome.FELL_BACK
        rolling = offline.summarise(latest.content if latest else None, turns, max_tokens=SUMMARY_MAX_TOKENS)
        episode = offline.summarise(None, turns, max_tokens=EPISODE_MAX_TOKENS)

    counts = RunCounts(dropped=dict(rolling.dropped))
    counts.secrets_dropped = rolling.dropped.get(DROP_SECRET, 0)
    # A span of small talk still moves the window on; the summary then says only that.
    content = rolling.content or (latest.content if latest else "") or f"(turns 1–{target}: small talk)"
    session_writes_lock(session, updates_row=True)  # the summary is audited before the episode memory is written
    summary = session_summary_create(session=session, covers_up_to=target, content=content,
                                     summariser=rolling.summariser, actor=ACTOR)
    if episode.content:
        _episode(session, episode, turn_from=covered + 1, turn_to=target, summary_version=summary.version,
                 counts=counts)
    FormationState.objects.filter(session_id=session_pk).update(last_summarised_seq=target)
    run = FormationRun.objects.create(
        tenant_id=session.tenant_id, session=session, job=RunJob.SUMMARISE, outcome=outcome,
        extractor=rolling.summariser, turn_from=covered + 1, turn_to=target, summary_version=summary.version,
        **counts.as_dict())
    audit_record(tenant_id=session.tenant_id, actor=ACTOR, event=SUMMARISED,
                 object_id=session.pk, before={"covers_up_to": covered},
                 after={"covers_up_to": target, "summary_version": summary.version, "run": run.pk,
                        "summariser": run.extractor, "outcome": outcome, **counts.as_dict()},
                 subject_user_id=session.user_id)
    run_writes_done("summarise", session.pk)
    return RunReport(outcome, session_pk, run, more=target < due_up_to)


def _episode(session: Session, episode, *, turn_from: int, turn_to: int, summary_version: int,
             counts: RunCounts) -> None:
    try:
        write = memory_create(
            tenant=session.tenant, actor=ACTOR, user_id=session.user_id, agent_id=session.agent_id,
            kind=MemoryKind.EPISODE, content=episode.content,
            attributes={"summariser": episode.summariser, "session_id": session.session_id,
                        "turns": [turn_from, turn_to], "summary_version": summary_version},
            confidence=EPISODE_CONFIDENCE, importance=formation_policy(session.tenant_id).episode_importance,
            source=MemorySource.INFERRED, source_session_id=session.session_id, source_turn_from=turn_from,
            source_turn_to=turn_to, extractor=episode.summariser)
    except InvalidInput as exc:
        # The summariser already drops secrets; this is the last line, counted rather than stored.
        if exc.code == "secret_detected":
            counts.secrets_dropped += 1
        else:
            counts.rejected += 1
        return
    if write.memory.status == MemoryStatus.QUARANTINED:
        counts.quarantined += 1
    elif write.outcome == "merged":
        counts.merged += 1
    else:
        counts.written += 1
