"""Writing new memories: one or a batch, with secret refusal, quarantine, merge and supersession."""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actors import Actor
from audit.services import audit_record
from audit.subjects import subject_digest
from layers.long_term.models import Memory, MemoryKind, MemorySource, MemoryStatus
from layers.long_term.policy import Policy, tenant_policy
from layers.long_term.services.indexing import apply_derived, content_hash, embed_contents, expiry_for
from layers.safety.injection import injection_reasons
from layers.safety.secrets import find_secrets
from memoryhub.errors import InvalidInput

MAX_BATCH = 100
# Advisory lock class for one user's memory writes (dedupe and supersession read-then-write).
MEMORY_LOCK_CLASS = 0x4C54  # "LT"


class Outcome:
    CREATED = "created"
    MERGED = "merged"
    SUPERSEDED = "superseded"
    EXISTING = "existing"


@dataclass
class MemoryWrite:
    memory: Memory
    outcome: str
    superseded: Memory | None = None


def memory_fields_errors(*, user_id: Any, kind: Any, content: Any, memory_key: Any = None, entities: Any = (),
                         attributes: Any = None, confidence: Any = 1.0, importance: Any = 0.5,
                         source: Any = MemorySource.STATED, client_id: Any = None) -> list[dict]:
    """Problems with one memory's fields, as [{field, code, message}] (empty when it can be written)."""
    errors = []

    def bad(field, code, message):
        errors.append({"field": field, "code": code, "message": str(message)})

    if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > Memory.USER_ID_MAX_LENGTH:
        bad("user_id", "invalid", _("user_id must be a non-empty string of at most %d characters")
            % Memory.USER_ID_MAX_LENGTH)
    if kind not in MemoryKind.values:
        bad("kind", "invalid_kind", _("kind must be one of %s") % ", ".join(MemoryKind.values))
    if not isinstance(content, str) or not content.strip():
        bad("content", "blank", _("content must be a non-empty string"))
    elif len(content) > Memory.CONTENT_MAX_LENGTH:
        bad("content", "too_long", _("content is longer than %d characters") % Memory.CONTENT_MAX_LENGTH)
    elif find_secrets(content):
        kinds = sorted({finding.kind for finding in find_secrets(content)})
        bad("content", "secret_detected", _("content holds a secret (%s); secrets are never stored as memories")
            % ", ".join(kinds))
    if memory_key is not None and (not isinstance(memory_key, str) or len(memory_key) > Memory.MEMORY_KEY_MAX_LENGTH):
        bad("memory_key", "invalid", _("memory_key must be a string of at most %d characters")
            % Memory.MEMORY_KEY_MAX_LENGTH)
    if not isinstance(entities, (list, tuple)) or len(entities) > Memory.MAX_ENTITIES or not all(
            isinstance(e, str) and 0 < len(e) <= Memory.ENTITY_MAX_LENGTH for e in entities):
        bad("entities", "invalid", _("entities must be a list of at most %d non-empty strings") % Memory.MAX_ENTITIES)
    if attributes is not None and not isinstance(attributes, dict):
        bad("attributes", "invalid", _("attributes must be a JSON object"))
    for name, value in (("confidence", confidence), ("importance", importance)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            bad(name, "out_of_range", _("%s must be a number between 0 and 1") % name)
    if source not in MemorySource.values:
        bad("source", "invalid", _("source must be one of %s") % ", ".join(MemorySource.values))
    if client_id is not None and (not isinstance(client_id, str) or not client_id
                                  or len(client_id) > Memory.CLIENT_ID_MAX_LENGTH):
        bad("client_id", "invalid", _("client_id must be a non-empty string of at most %d characters")
            % Memory.CLIENT_ID_MAX_LENGTH)
    return errors


def _raise_for(errors_by_index: dict[int, list[dict]], *, batch: bool) -> None:
    if not errors_by_index:
        return
    codes = {error["code"] for errors in errors_by_index.values() for error in errors}
    code = "secret_detected" if "secret_detected" in codes else "invalid"
    if batch:
        items = [{"index": index, "errors": errors} for index, errors in sorted(errors_by_index.items())]
        message = _("%(count)d of the memories cannot be stored; nothing was written") % {"count": len(items)}
        raise InvalidInput(message, code=code, details={"items": items})
    errors = errors_by_index[0]
    raise InvalidInput(errors[0]["message"], code=code,
                       details={"fields": {error["field"]: [error["message"]] for error in errors}})


def lock_user_memories(tenant_id: int, user_id: str) -> None:
    """Serialise writes to one user's memories (dedupe and supersession read before they write)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                       [MEMORY_LOCK_CLASS, zlib.crc32(f"{tenant_id}:{user_id}".encode()) - 2**31])


def memory_audit_state(memory: Memory) -> dict:
    """What the audit trail may hold about a memory: no user text, only its keyed digest."""
    return {
        "kind": memory.kind, "status": memory.status, "memory_key": memory.memory_key,
        "content": subject_digest(memory.tenant_id, memory.user_id, memory.content),
        "confidence": memory.confidence, "importance": memory.importance,
    }


def _merge(existing: Memory, *, confidence: float, importance: float, entities, client_id, policy: Policy,
           actor: Actor, now) -> MemoryWrite:
    before = memory_audit_state(existing)
    stronger = max(existing.confidence, confidence)
    # Saying the same thing again makes it more certain, a quarter of the remaining way each time.
    existing.confidence = min(1.0, stronger + (1.0 - stronger) * 0.25)
    existing.importance = max(existing.importance, importance)
    existing.mention_count += 1
    existing.last_confirmed_at = now
    existing.entities = list(dict.fromkeys([*existing.entities, *entities]))
    existing.expires_at = expiry_for(policy, existing.importance, now)
    if client_id and not existing.client_id:
        existing.client_id = client_id
    existing.save()
    audit_record(tenant_id=existing.tenant_id, actor=actor, action="memory.merged", object_type="long_term.memory",
                 object_id=existing.pk, before=before, after=memory_audit_state(existing),
                 subject_user_id=existing.user_id)
    return MemoryWrite(existing, Outcome.MERGED)


def _create_one(*, tenant, actor: Actor, policy: Policy, item: dict, embedding: list[float], embedding_model: str,
                now) -> MemoryWrite:
    user_id, client_id = item["user_id"], item.get("client_id")
    lock_user_memories(tenant.pk, user_id)
    owner = Memory.objects.filter(tenant=tenant, user_id=user_id)
    if client_id:
        existing = owner.filter(client_id=client_id).first()
        if existing is not None:
            return MemoryWrite(existing, Outcome.EXISTING)

    kind, content = item.get("kind") or MemoryKind.FACT, item["content"]
    memory_key = item.get("memory_key") or ""
    confidence, importance = float(item.get("confidence", 1.0)), float(item.get("importance", 0.5))
    entities = list(dict.fromkeys(item.get("entities") or ()))

    duplicate = (owner.select_for_update()
                 .filter(kind=kind, content_hash=content_hash(content), memory_key=memory_key,
                         status__in=[MemoryStatus.ACTIVE, MemoryStatus.QUARANTINED])
                 .order_by("id").first())
    if duplicate is not None:
        return _merge(duplicate, confidence=confidence, importance=importance, entities=entities,
                      client_id=client_id, policy=policy, actor=actor, now=now)

    reasons = injection_reasons(content)
    memory = Memory(
        tenant=tenant, user_id=user_id, agent_id=item.get("agent_id") or "", kind=kind, content=content,
        memory_key=memory_key, entities=entities, attributes=item.get("attributes") or {},
        confidence=confidence, importance=importance, source=item.get("source") or MemorySource.STATED,
        source_session_id=item.get("source_session_id") or "", source_turn_from=item.get("source_turn_from"),
        source_turn_to=item.get("source_turn_to"), extractor=item.get("extractor") or "", client_id=client_id,
        valid_from=now, last_confirmed_at=now, expires_at=expiry_for(policy, importance, now),
        status=MemoryStatus.QUARANTINED if reasons else MemoryStatus.ACTIVE, quarantine_reasons=reasons,
    )
    apply_derived(memory, embedding=embedding, embedding_model=embedding_model)
    try:
        with transaction.atomic():
            memory.save()
    except IntegrityError:
        # Another request with the same client_id won the race between our check and our insert.
        if client_id:
            existing = owner.filter(client_id=client_id).first()
            if existing is not None:
                return MemoryWrite(existing, Outcome.EXISTING)
        raise
    audit_record(tenant_id=tenant.pk, actor=actor,
                 action="memory.quarantined" if reasons else "memory.created", object_type="long_term.memory",
                 object_id=memory.pk, after={**memory_audit_state(memory), "quarantine_reasons": reasons},
                 subject_user_id=user_id)

    superseded = None
    if memory_key and not reasons and policy.is_single_valued(memory_key):
        for old in (owner.select_for_update().filter(memory_key=memory_key, status=MemoryStatus.ACTIVE)
                    .exclude(pk=memory.pk).order_by("id")):
            before = memory_audit_state(old)
            old.transition_to(MemoryStatus.SUPERSEDED)
            old.valid_to = now
            old.superseded_by = memory
            old.save()
            audit_record(tenant_id=tenant.pk, actor=actor, action="memory.superseded", object_type="long_term.memory",
                         object_id=old.pk, before=before,
                         after={**memory_audit_state(old), "superseded_by": memory.pk}, subject_user_id=user_id)
            superseded = old
    return MemoryWrite(memory, Outcome.SUPERSEDED if superseded else Outcome.CREATED, superseded)


def memory_create_batch(*, tenant, actor: Actor, items: list[dict], name_items: bool = True) -> list[MemoryWrite]:
    """Write up to MAX_BATCH memories, all or nothing.

    Every item is checked before anything is written; if any fails (a secret, a bad field), one
    InvalidInput names each failing item by index and nothing is stored. Contents are embedded in
    one provider call, outside the write transaction.
    """
    if not items:
        raise InvalidInput(_("no memories given"), code="invalid")
    if len(items) > MAX_BATCH:
        raise InvalidInput(_("at most %d memories per batch") % MAX_BATCH, code="batch_too_large")
    normalised = []
    errors: dict[int, list[dict]] = {}
    for index, item in enumerate(items):
        item = {**item, "kind": item.get("kind") or MemoryKind.FACT, "entities": item.get("entities") or [],
                "confidence": item.get("confidence", 1.0), "importance": item.get("importance", 0.5),
                "source": item.get("source") or MemorySource.STATED}
        problems = memory_fields_errors(**{k: item.get(k) for k in (
            "user_id", "kind", "content", "memory_key", "entities", "attributes", "confidence", "importance",
            "source", "client_id")})
        if problems:
            errors[index] = problems
        normalised.append(item)
    _raise_for(errors, batch=name_items)

    vectors, model = embed_contents([item["content"] for item in normalised])
    policy = tenant_policy(tenant.pk)
    now = timezone.now()
    with transaction.atomic():
        return [_create_one(tenant=tenant, actor=actor, policy=policy, item=item, embedding=vector,
                            embedding_model=model, now=now)
                for item, vector in zip(normalised, vectors)]


def memory_create(*, tenant, actor: Actor, user_id: str, kind: str, content: str, memory_key: str | None = None,
                  entities=(), attributes: dict | None = None, confidence: float = 1.0, importance: float = 0.5,
                  source: str = MemorySource.STATED, source_session_id: str | None = None,
                  source_turn_from: int | None = None, source_turn_to: int | None = None,
                  agent_id: str | None = None, client_id: str | None = None,
                  extractor: str | None = None) -> MemoryWrite:
    """Write one memory (see `memory_create_batch`); outcome is created, merged, superseded or existing."""
    item = {"user_id": user_id, "kind": kind, "content": content, "memory_key": memory_key,
            "entities": list(entities or ()), "attributes": attributes, "confidence": confidence,
            "importance": importance, "source": source, "source_session_id": source_session_id,
            "source_turn_from": source_turn_from, "source_turn_to": source_turn_to, "agent_id": agent_id,
            "client_id": client_id, "extractor": extractor}
    return memory_create_batch(tenant=tenant, actor=actor, items=[item], name_items=False)[0]
