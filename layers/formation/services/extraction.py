"""Extraction runs: the turns after a session's cursor become long-term memories, exactly once."""
from __future__ import annotations

import logging
from dataclasses import replace

from audit.services import audit_record
from layers.formation.conditions import conditional_items_add
from layers.formation.events import EXTRACTED
from layers.formation.extractor import (
    DROP_SECRET,
    EXTRACTED_KINDS,
    ExtractedItem,
    ExtractionResult,
    TranscriptTurn,
    as_transcript_turns,
    key_allowed,
)
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
from layers.long_term.events import MEMORY_QUARANTINED
from layers.formation.spans import SPAN_EXTRACTOR, span_content, user_spans, without_secrets
from layers.long_term.importance import importance_infer
from layers.long_term.models import Memory, MemoryKind, MemorySource, MemoryStatus
from layers.long_term.services import memory_create_batch
from layers.long_term.services.create import (
    MAX_BATCH,
    memory_audit_state,
    memory_fields_errors,
)
from layers.short_term.models import Session, SessionStatus, Turn
from memoryhub.core.actors import Actor
from memoryhub.safety.injection import injection_reasons

logger = logging.getLogger(__name__)

ACTOR = Actor.system("formation.extract")
# Earlier turns of the session read as context by each run (a follow-up seldom reaches further back).
CONTEXT_TURNS = 6


def extraction_due(session: Session, *, cursor: int) -> bool:
    """Every `extract_every_turns` new turns while the session is active; everything left once it closed."""
    new = session.turn_count - cursor
    if new <= 0:
        return False
    return session.status != SessionStatus.ACTIVE or new >= formation_policy(session.tenant_id).extract_every_turns


def extraction_asked_by_append(session: Session, *, cursor: int, appended: int) -> bool:
    """Whether an append of `appended` turns asks for extraction: it is due, and these turns took the turns after
    the cursor past a multiple of the step. Between two multiples the request made at the last one is pending,
    sent or running, and the run reads every turn after the cursor, so asking again on each turn (an outbox row,
    a publish and its UPDATE per append, while a worker is behind or absent) added nothing. A request that is
    lost is asked again at the next multiple, and formation_catch_up enqueues every session left behind."""
    if not extraction_due(session, cursor=cursor):
        return False
    step = formation_policy(session.tenant_id).extract_every_turns
    new = session.turn_count - cursor
    return new // step > (new - appended) // step


def session_extract(*, session_pk: int, provider: LLMProvider | None = None) -> RunReport:
    """Extract memories from the turns after the session's cursor, if due, and move the cursor.

    The run holds the session's advisory lock ("extract") for its whole transaction; a second caller
    meanwhile gets `busy` and writes nothing. Memories, the cursor, the run record and its audit
    event commit together, so a run killed half-way leaves nothing and the retry redoes it whole.
    A model reply that does not fit the schema is rejected (nothing from it is stored) and the
    offline rules extract the span instead; an unreachable endpoint raises `LLMUnavailable` with
    nothing written, for the caller to retry. The model call happens inside the transaction on
    purpose: the lock must cover reading the cursor, deciding, writing and moving the cursor.
    """
    provider = provider or get_llm_provider()
    return session_job_run("extract", session_pk, lambda session: _extract(session, provider))


def _extract(session: Session, provider: LLMProvider) -> RunReport:
    session_pk = session.pk
    cursor = FormationState.objects.get(session_id=session_pk).last_extracted_seq
    if not extraction_due(session, cursor=cursor):
        return RunReport("nothing_new" if session.turn_count <= cursor else "not_due", session_pk)
    # Turns appended after this read belong to the next run; a long backlog is taken in slices.
    end = min(session.turn_count, cursor + MAX_TURNS_PER_RUN)
    turns = list(Turn.objects.filter(session=session, seq__gt=cursor, seq__lte=end).order_by("seq"))
    # The turns just before the span are context: the assistant's question gives a bare answer ("Berlin.")
    # its meaning, and the user's earlier turns the people and pets a follow-up refers back to ("我有两个孩子"
    # then "大的叫毛毛"). Items from them were written by the run that covered them (_write keeps the span).
    earlier = Turn.objects.filter(session=session, seq__lte=cursor, seq__gt=cursor - CONTEXT_TURNS).order_by("seq")
    transcript = [TranscriptTurn(turn.seq, turn.role, turn.content or "", context=True) for turn in earlier] + turns
    outcome = RunOutcome.COMPLETED
    backup = formation_policy(session.tenant_id).learned_backup  # the tenant's, not the code default
    try:
        result = provider.extract(transcript, user_id=session.user_id, learned_backup=backup)
    except LLMOutputInvalid:
        logger.warning("extraction for session %s: model reply rejected, offline rules used", session_pk)
        result = OfflineProvider().extract(transcript, user_id=session.user_id, learned_backup=backup)
        outcome = RunOutcome.FELL_BACK
    result = conditional_items_add(result, transcript, user_id=session.user_id)  # layers/formation/conditions.py
    session_writes_lock(session, updates_row=False)  # before the memory lock (memoryhub/core/locks.py)
    counts = _write(session, [item for item in result.items if cursor < item.source_turn_seq <= end], result)
    if formation_policy(session.tenant_id).keep_statement_spans:
        _write_spans(session, turns, result, counts)
    FormationState.objects.filter(session_id=session_pk).update(last_extracted_seq=end)
    run = FormationRun.objects.create(
        tenant_id=session.tenant_id, session=session, job=RunJob.EXTRACT, outcome=outcome,
        extractor=result.extractor_label, turn_from=cursor + 1, turn_to=end,
        **counts.as_dict())
    audit_record(tenant_id=session.tenant_id, actor=ACTOR, event=EXTRACTED,
                 object_id=session.pk, before={"last_extracted_seq": cursor},
                 after={"last_extracted_seq": end, "run": run.pk, "extractor": run.extractor,
                        "outcome": outcome, **counts.as_dict()},
                 subject_user_id=session.user_id)
    run_writes_done("extract", session.pk)
    return RunReport(outcome, session_pk, run, more=end < session.turn_count)


def _fields(session: Session, item: ExtractedItem, result: ExtractionResult) -> dict:
    return {
        # Always the session's own user: nothing an extractor says can aim a write elsewhere.
        "user_id": session.user_id, "agent_id": session.agent_id, "kind": item.kind, "content": item.content,
        "memory_key": item.memory_key, "entities": list(item.entities),
        "attributes": {**item.attributes, "extractor": result.extractor, "extractor_version": result.extractor_version,
                       "session_id": session.session_id, "turns": [item.source_turn_seq, item.source_turn_seq]},
        "confidence": item.confidence, "importance": item.importance,
        "source": MemorySource.STATED if item.confidence >= 1.0 else MemorySource.INFERRED,
        "source_session_id": session.session_id, "source_turn_from": item.source_turn_seq,
        "source_turn_to": item.source_turn_seq, "extractor": result.extractor_label,
    }


def _write(session: Session, items: list[ExtractedItem], result: ExtractionResult) -> RunCounts:
    counts = RunCounts(dropped=dict(result.dropped))
    counts.secrets_dropped = result.dropped.get(DROP_SECRET, 0)
    counts.rejected = sum(n for reason, n in result.dropped.items() if reason != DROP_SECRET)
    accepted: list[tuple[ExtractedItem, dict]] = []
    for item in items:
        if item.kind not in EXTRACTED_KINDS or not key_allowed(item.memory_key):
            counts.rejected += 1  # a second line behind the extractor's guard: episodes and foreign keys never
            continue
        fields = _fields(session, item, result)
        errors = memory_fields_errors(tenant_id=session.tenant_id, **{name: fields[name] for name in (
            "user_id", "kind", "content", "memory_key", "entities", "attributes", "confidence", "importance",
            "source")})
        if errors:
            if any(error["code"] == "secret_detected" for error in errors):
                counts.secrets_dropped += 1
            else:
                counts.rejected += 1
            continue
        accepted.append((item, fields))
    for start in range(0, len(accepted), MAX_BATCH):
        chunk = accepted[start:start + MAX_BATCH]
        writes = memory_create_batch(tenant=session.tenant, actor=ACTOR, items=[fields for _, fields in chunk])
        for (item, _written_fields), write in zip(chunk, writes):
            if write.outcome == "merged":
                counts.merged += 1
                continue
            if item.quarantine and write.memory.status == MemoryStatus.ACTIVE:
                _quarantine(write.memory, item.injection_reasons)
            if write.memory.status == MemoryStatus.QUARANTINED:
                counts.quarantined += 1
            elif write.outcome == "superseded":
                counts.superseded += 1
            else:
                counts.written += 1
    return counts


def _write_spans(session: Session, turns: list[Turn], result: ExtractionResult, counts: RunCounts) -> None:
    """The user's statements in the span as episode memories (layers/formation/spans.py): dated,
    with provenance, secrets redacted (the turn may have been stored unredacted by the tenant's choice),
    exact repeats merged. Instruction-like turns are left to the extractor's quarantined note, and
    `memory_create_batch` would quarantine anything else that reads like one."""
    policy = formation_policy(session.tenant_id)
    said_at = {turn.seq: turn.occurred_at or turn.created_at for turn in turns}
    items = []
    # Instruction-like turns are not spans: extraction already keeps each as a quarantined note for review.
    # Sentences with a secret (or its redaction mark) leave the turn; the extractor counted them.
    # An assistant turn stays in only for the question a reply answers (user_spans keeps just that
    # sentence, and none when that sentence reads like an instruction): it is checked for injection there,
    # on that one sentence, not here on every assistant turn.
    statements = []
    for turn in as_transcript_turns(turns):
        if turn.role not in ("user", "assistant") or (turn.role == "user" and injection_reasons(turn.content)):
            continue
        text = without_secrets(turn.content)
        if text:
            statements.append(replace(turn, content=text))
    for span in user_spans(statements, said_at=said_at):
        content = span_content(span)
        items.append({
            "user_id": session.user_id, "agent_id": session.agent_id, "kind": MemoryKind.EPISODE, "content": content,
            "attributes": {"span": "user_statements", "session_id": session.session_id,
                           "turns": [span.turn_from, span.turn_to]},
            "importance": min(policy.span_max_importance,
                              importance_infer(kind=MemoryKind.EPISODE, memory_key=None, content=span.text)),
            "source": MemorySource.STATED, "source_session_id": session.session_id,
            "source_turn_from": span.turn_from, "source_turn_to": span.turn_to, "extractor": SPAN_EXTRACTOR,
        })
    for start in range(0, len(items), MAX_BATCH):
        for write in memory_create_batch(tenant=session.tenant, actor=ACTOR, items=items[start:start + MAX_BATCH]):
            if write.outcome == "merged":
                counts.merged += 1
            elif write.memory.status == MemoryStatus.QUARANTINED:
                counts.quarantined += 1
            else:
                counts.spans += 1


def _quarantine(memory: Memory, reasons: tuple[str, ...]) -> None:
    """The extractor flagged an item the content check alone did not (e.g. a planted tool instruction)."""
    before = memory_audit_state(memory)
    memory.transition_to(MemoryStatus.QUARANTINED)
    memory.quarantine_reasons = list(reasons)
    memory._change_reason = "quarantined by extraction"
    memory.save()
    audit_record(tenant_id=memory.tenant_id, actor=ACTOR, event=MEMORY_QUARANTINED,
                 object_id=memory.pk, before=before, after={**memory_audit_state(memory), "quarantine_reasons": list(reasons)},
                 subject_user_id=memory.user_id)
