"""Working memory writes: the session's entity registry and what pronouns in new user turns mean.

Runs inside the turns append transaction (registered as a short-term append annotator in
layers/transient/apps.py, so short-term never imports this layer), after the session row was locked
there, so two appends to one session update its registry one after the other.
"""
from __future__ import annotations

import logging

from django.db import connection
from django.utils import timezone

from layers.short_term.models import Session, Turn, TurnRole
from layers.transient.models import EntityResolution, EntityType, SessionEntity
from layers.transient.policy import transient_policy
from layers.transient.references.llm import references_llm_review, review_client
from layers.transient.references.resolve import (
    Entity,
    Registry,
    references_resolve_text,
)
from memoryhub.core.actors import Actor

logger = logging.getLogger(__name__)


def _to_entity(row: SessionEntity) -> Entity:
    attributes = row.attributes or {}
    entity = Entity(name=row.name, type=row.entity_type, first_turn=row.first_turn, last_turn=row.last_turn,
                    last_pos=row.last_position, gender=row.gender, plural=row.plural, weak=row.guessed_type,
                    mentions=row.mentions, aliases=list(row.aliases or []),
                    attributes=list(attributes.get("said", [])), clauses=list(attributes.get("clauses", [])),
                    numbers=list(attributes.get("numbers", [])), turn_group=row.turn_group,
                    guess=bool(attributes.get("guessed_noun")), user_turn=int(attributes.get("user_turn") or 0))
    entity.row = row  # type: ignore[attr-defined]
    return entity


def _fill(row: SessionEntity, entity: Entity) -> SessionEntity:
    row.name = entity.name[:SessionEntity.NAME_MAX_LENGTH]
    row.entity_type = entity.type if entity.type in EntityType.values else EntityType.OTHER
    # An unknown gender is "" in the row (the extractor may leave it None when a name fixes none).
    row.gender, row.plural, row.guessed_type = entity.gender or "", entity.plural, entity.weak
    row.aliases = [a[:SessionEntity.NAME_MAX_LENGTH] for a in entity.aliases[-10:]]
    row.attributes = {"said": entity.attributes[-6:], "clauses": entity.clauses[-6:], "numbers": entity.numbers[:6]}
    if entity.guess:  # a noun the lexicon lacks: the session's own head noun from now on
        row.attributes["guessed_noun"] = True
    if entity.user_turn:  # the latest user turn that named it: an answer's ranking (references/registry.py)
        row.attributes["user_turn"] = entity.user_turn
    row.first_turn, row.last_turn, row.last_position = entity.first_turn, entity.last_turn, entity.last_pos
    row.turn_group, row.mentions = entity.turn_group, entity.mentions
    return row


_FIELDS = ["name", "entity_type", "gender", "plural", "guessed_type", "aliases", "attributes", "first_turn",
           "last_turn", "last_position", "turn_group", "mentions"]


def _state(row: SessionEntity) -> tuple:
    return tuple(repr(getattr(row, name)) for name in _FIELDS)


def _rows_update(rows: list[SessionEntity], names: list[str]) -> None:
    """The changed rows in one UPDATE ... FROM (VALUES ...): bulk_update's CASE WHEN per field and row took more
    of an append's CPU than the registry's rules (docs/benchmarks.md, issue 16)."""
    quote = connection.ops.quote_name
    fields = [SessionEntity._meta.get_field(name) for name in names]
    row_sql = f"(%s::{SessionEntity._meta.pk.rel_db_type(connection)}, " + ", ".join(
        f"%s::{field.db_type(connection)}" for field in fields) + ")"
    columns = [quote(field.column) for field in fields]
    pk = quote(SessionEntity._meta.pk.column)
    params = [value for row in rows for value in (
        row.pk, *(field.get_db_prep_save(getattr(row, field.attname), connection) for field in fields))]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(SessionEntity._meta.db_table)} AS e SET {', '.join(f'{c} = v.{c}' for c in columns)} "
            f"FROM (VALUES {', '.join([row_sql] * len(rows))}) AS v({pk}, {', '.join(columns)}) WHERE e.{pk} = v.{pk}",
            params)


def entity_registry_update(*, session: Session, turns: list[Turn], actor: Actor) -> list[dict]:
    """Add the entities of `turns` (new, in seq order) to the session's registry, resolving each user
    turn's pronouns and demonstratives first against what was said before it. Returns one item per
    referring expression: {index (in `turns`), seq, mention, start, end, entities, confidence, resolved}.

    The actor is not recorded: like turns themselves, the registry follows from the conversation.
    """
    policy = transient_policy(session.tenant_id)
    rows = list(SessionEntity.objects.filter(session=session))
    registry = Registry([_to_entity(row) for row in rows], size=policy.entity_registry_size)
    pending: list[tuple[int, Turn, object]] = []
    reviewer = None  # built on first use when policy.transient.reference_llm is on
    for index, turn in enumerate(turns):
        try:
            resolutions = references_resolve_text(registry, turn.content) if turn.role == TurnRole.USER else []
        except Exception:  # noqa: BLE001 - rules that trip on a text must not cost the user the append
            logger.exception("reference resolution failed on turn %s of session %s", turn.seq, session.pk)
            resolutions = []
        if resolutions and policy.reference_llm:
            reviewer = reviewer if reviewer is not None else (review_client() or False)
            if reviewer:  # the model reviews low-confidence choices; any failure keeps the offline choice
                references_llm_review(resolutions, turn.content, client=reviewer)
        if resolutions:
            for resolution in resolutions:
                pending.append((index, turn, resolution))
                if resolution.confidence >= policy.reference_min_confidence:
                    for entity in resolution.entities:  # referring to it is mentioning it again
                        entity.last_turn, entity.last_pos = turn.seq, resolution.end
                        entity.user_turn = turn.seq
                        entity.mentions += 1
        try:
            registry.update(turn.seq, turn.role, turn.content)
        except Exception:  # noqa: BLE001 - as above: the turn is stored, its entities are skipped
            logger.exception("entity extraction failed on turn %s of session %s", turn.seq, session.pk)

    kept = {id(entity) for entity in registry.entities}
    evicted = [row.pk for row in rows if not any(getattr(e, "row", None) is row for e in registry.entities)]
    if evicted:
        SessionEntity.objects.filter(pk__in=evicted).delete()
    # Only what changed is written: an append touches a few entities of a registry of dozens.
    created, changed = [], []
    for entity in registry.entities:
        row = getattr(entity, "row", None)
        if row is None:
            row = _fill(SessionEntity(tenant_id=session.tenant_id, session=session), entity)
            created.append(row)
        else:
            before = _state(row)
            if _state(_fill(row, entity)) != before:
                changed.append(row)
        entity.row = row  # type: ignore[attr-defined]
    if created:
        SessionEntity.objects.bulk_create(created)
    if changed:
        now = timezone.now()  # an UPDATE leaves auto_now alone
        for row in changed:
            row.updated_at = now
        _rows_update(changed, [*_FIELDS, "updated_at"])

    results, records = [], []
    for index, turn, resolution in pending:
        resolved = bool(resolution.entities) and resolution.confidence >= policy.reference_min_confidence
        entities = [{"id": e.row.pk if id(e) in kept else None, "name": e.name, "type": e.type}
                    for e in resolution.entities] if resolved else []
        item = {"index": index, "seq": turn.seq, "mention": resolution.text, "start": resolution.start,
                "end": resolution.end, "entities": entities, "confidence": resolution.confidence if resolved else
                min(resolution.confidence, policy.reference_min_confidence), "resolved": resolved}
        results.append(item)
        records.append(EntityResolution(tenant_id=session.tenant_id, session=session, turn=turn,
                                        mention=resolution.text[:100], start=resolution.start, end=resolution.end,
                                        entities=entities, confidence=item["confidence"], resolved=resolved))
    if records:
        EntityResolution.objects.bulk_create(records)
    return results
