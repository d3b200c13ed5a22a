"""Changing existing memories: correct, soft delete, restore, revert, release, hard delete, feedback, re-embed."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from layers.long_term.events import (
    MEMORY_FEEDBACK,
    MEMORY_HARD_DELETED,
    MEMORY_REEMBEDDED,
    MEMORY_RELEASED,
    MEMORY_RESTORED,
    MEMORY_REVERTED,
    MEMORY_SOFT_DELETED,
    MEMORY_UPDATED,
)
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.policy import tenant_policy
from layers.long_term.services.create import lock_user_memories, memory_audit_state
from layers.long_term.services.indexing import apply_derived, embed_contents, expiry_for
from layers.long_term.services.validation import memory_fields_errors, raise_item_errors
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, InvalidInput, NotFound
from memoryhub.core.locks import deadlock_retry
from memoryhub.providers.embeddings import Embedder, get_embedder
from memoryhub.safety.injection import injection_reasons

# Fields a correction or a revert may change; everything else is provenance or bookkeeping.
EDITABLE_FIELDS = ("kind", "content", "memory_key", "entities", "attributes", "confidence", "importance")
_OBJECT = "long_term.memory"


def _audit(memory: Memory, *, actor: Actor, action: str, before: dict | None, extra: dict | None = None) -> None:
    audit_record(tenant_id=memory.tenant_id, actor=actor, event=action, object_id=memory.pk,
                 before=before, after={**memory_audit_state(memory), **(extra or {})},
                 subject_user_id=memory.user_id)


def _locked(memory: Memory) -> Memory:
    lock_user_memories(memory.tenant_id, memory.user_id)
    return Memory.objects.select_for_update().get(pk=memory.pk)


def _set_content(memory: Memory, content: str) -> None:
    vectors, model = embed_contents([content])
    memory.content = content
    apply_derived(memory, embedding=vectors[0], embedding_model=model)
    reasons = injection_reasons(content)
    if reasons and memory.status == MemoryStatus.ACTIVE:
        memory.transition_to(MemoryStatus.QUARANTINED)
    memory.quarantine_reasons = reasons


@deadlock_retry
@transaction.atomic
def memory_update(*, memory: Memory, actor: Actor, **changes) -> Memory:
    """Correct a memory (PATCH): a new history version; a new content is re-embedded and re-tokenised."""
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise InvalidInput(_("these fields cannot be changed: %s") % ", ".join(sorted(unknown)), code="invalid")
    memory = _locked(memory)
    if memory.status not in (MemoryStatus.ACTIVE, MemoryStatus.QUARANTINED):
        raise Conflict(_("only active or quarantined memories can be corrected; this one is %s") % memory.status,
                       code="invalid_transition")
    current = {name: getattr(memory, name) for name in EDITABLE_FIELDS}
    merged = {**current, **{k: v for k, v in changes.items() if not (k == "memory_key" and v is None)}}
    errors = memory_fields_errors(tenant_id=memory.tenant_id, user_id=memory.user_id, kind=merged["kind"],
                                  content=merged["content"],
                                  memory_key=merged["memory_key"], entities=merged["entities"],
                                  attributes=merged["attributes"], confidence=merged["confidence"],
                                  importance=merged["importance"])
    raise_item_errors({0: errors} if errors else {}, batch=False)
    before = memory_audit_state(memory)
    changed = sorted(name for name in EDITABLE_FIELDS if merged[name] != current[name])
    if not changed:
        return memory
    for name in changed:
        if name != "content":
            setattr(memory, name, merged[name])
    if "content" in changed:
        _set_content(memory, merged["content"])
    if "importance" in changed:
        memory.expires_at = expiry_for(tenant_policy(memory.tenant_id), memory.importance)
    memory.last_confirmed_at = timezone.now()
    memory._change_reason = "corrected"
    memory.save()
    _audit(memory, actor=actor, action=MEMORY_UPDATED, before=before, extra={"changed": changed})
    return memory


@deadlock_retry
@transaction.atomic
def memory_soft_delete(*, memory: Memory, actor: Actor) -> Memory:
    """Hide a memory from every read; `memory_restore` brings it back with the status it had."""
    memory = _locked(memory)
    if memory.status == MemoryStatus.DELETED:
        raise Conflict(_("this memory is already deleted"), code="invalid_transition")
    before = memory_audit_state(memory)
    previous = memory.status
    memory.transition_to(MemoryStatus.DELETED)
    memory.status_before_delete = previous
    memory._change_reason = "soft deleted"
    memory.save()
    _audit(memory, actor=actor, action=MEMORY_SOFT_DELETED, before=before)
    return memory


@deadlock_retry
@transaction.atomic
def memory_restore(*, memory: Memory, actor: Actor) -> Memory:
    memory = _locked(memory)
    if memory.status != MemoryStatus.DELETED:
        raise Conflict(_("only a deleted memory can be restored; this one is %s") % memory.status,
                       code="invalid_transition")
    before = memory_audit_state(memory)
    memory.transition_to(memory.status_before_delete or MemoryStatus.ACTIVE)
    memory.status_before_delete = ""
    memory._change_reason = "restored"
    memory.save()
    _audit(memory, actor=actor, action=MEMORY_RESTORED, before=before)
    return memory


@deadlock_retry
@transaction.atomic
def memory_revert(*, memory: Memory, history_id: int, actor: Actor) -> Memory:
    """Bring back the editable fields of an earlier version, as a new version (history is never rewritten)."""
    memory = _locked(memory)
    version = memory.history.filter(history_id=history_id).first()
    if version is None:
        raise NotFound(_("this memory has no version %s") % history_id, code="version_not_found")
    if memory.status not in (MemoryStatus.ACTIVE, MemoryStatus.QUARANTINED):
        raise Conflict(_("only active or quarantined memories can be reverted; this one is %s") % memory.status,
                       code="invalid_transition")
    before = memory_audit_state(memory)
    for name in EDITABLE_FIELDS:
        if name != "content":
            setattr(memory, name, getattr(version, name))
    if version.content != memory.content:
        _set_content(memory, version.content)
    memory._change_reason = f"reverted to version {history_id}"
    memory.save()
    _audit(memory, actor=actor, action=MEMORY_REVERTED, before=before, extra={"history_id": history_id})
    return memory


@deadlock_retry
@transaction.atomic
def memory_quarantine_release(*, memory: Memory, actor: Actor) -> Memory:
    """A reviewer judged quarantined content harmless: serve it from now on."""
    memory = _locked(memory)
    if memory.status != MemoryStatus.QUARANTINED:
        raise Conflict(_("only a quarantined memory can be released; this one is %s") % memory.status,
                       code="invalid_transition")
    before = memory_audit_state(memory)
    memory.transition_to(MemoryStatus.ACTIVE)
    memory._change_reason = "released from quarantine"
    memory.save()
    _audit(memory, actor=actor, action=MEMORY_RELEASED, before=before)
    return memory


@deadlock_retry
@transaction.atomic
def memory_hard_delete(*, memory: Memory, actor: Actor) -> None:
    """Remove a soft-deleted memory and every stored version of its content for good."""
    memory = _locked(memory)
    if memory.status != MemoryStatus.DELETED:
        raise Conflict(_("soft-delete a memory before deleting it for good"), code="invalid_transition")
    before = memory_audit_state(memory)
    pk = memory.pk
    memory.skip_history_when_saving = True  # no final version holding the content we are erasing
    memory.delete()
    Memory.history.filter(id=pk).delete()
    audit_record(tenant_id=memory.tenant_id, actor=actor, event=MEMORY_HARD_DELETED,
                 object_id=pk, before=before, after=None, subject_user_id=memory.user_id)


@deadlock_retry
@transaction.atomic
def memory_feedback(*, memory: Memory, actor: Actor, useful: bool) -> Memory:
    """Count a useful / not useful vote; every `negative_feedback_threshold` negatives halve the weight."""
    memory = _locked(memory)
    before = memory_audit_state(memory)
    policy = tenant_policy(memory.tenant_id)
    if useful:
        memory.feedback_positive += 1
    else:
        memory.feedback_negative += 1
        halvings = memory.feedback_negative // policy.negative_feedback_threshold
        memory.feedback_weight = policy.negative_feedback_factor ** halvings
    memory._change_reason = "feedback"
    memory.save()
    _audit(memory, actor=actor, action=MEMORY_FEEDBACK, before=before,
           extra={"useful": useful, "feedback_weight": memory.feedback_weight})
    return memory


@transaction.atomic
def memory_reembed(*, memory: Memory, embedder: Embedder | None = None, actor: Actor | None = None,
                   vectors: dict | None = None) -> Memory:
    """Embed the memory again with the current provider (after a model change). The vector is not
    history-tracked, so this writes no new version; it is audited as a system change.

    `vectors` ({content: numpy vector}, made by `embedder.embed` for a whole batch) is used when it holds the
    content as read under the lock; content corrected meanwhile is embedded here."""
    memory = _locked(memory)
    embedder = embedder or get_embedder()
    if vectors is not None and memory.content in vectors:
        vector, model = vectors[memory.content].tolist(), embedder.name
    else:
        embedded, model = embed_contents([memory.content], embedder)
        vector = embedded[0]
    before_model = memory.embedding_model
    memory.embedding, memory.embedding_model = vector, model
    memory.skip_history_when_saving = True
    memory.save(update_fields=["embedding", "embedding_model"])
    del memory.skip_history_when_saving
    audit_record(tenant_id=memory.tenant_id, actor=actor or Actor.system("long_term.reembed"),
                 event=MEMORY_REEMBEDDED, object_id=memory.pk,
                 before={"embedding_model": before_model}, after={"embedding_model": model},
                 subject_user_id=memory.user_id)
    return memory
