"""Reads of the transient layer. Expired task states are never served, swept or not."""
from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from layers.short_term.models import Session
from layers.transient.models import (
    LIVE_STATUSES,
    EntityResolution,
    SessionEntity,
    TaskState,
    TaskStatus,
    TaskType,
)
from layers.transient.references.resolve import Registry, Resolution, references_resolve_text
from layers.transient.services.task_states import task_expired_error
from memoryhub.core.errors import NotFound
from memoryhub.tenancy.models import Tenant


def task_get(*, tenant: Tenant, task_id: int) -> TaskState:
    """The tenant's task; 404 `task_not_found` (also for other tenants'), 404 `task_expired` once
    its TTL has passed."""
    task = TaskState.objects.select_related("task_type", "session", "parent").filter(tenant=tenant, pk=task_id).first()
    if task is None:
        raise NotFound(_("no such task"), code="task_not_found")
    if task.expires_at <= timezone.now():
        raise task_expired_error()
    return task


def task_stack(*, session: Session) -> list[TaskState]:
    """The session's running tasks, current first: the innermost running sub-task, then the tasks
    suspended under it, outwards; among independent tasks the most recently updated leads."""
    tasks = list(
        TaskState.objects.select_related("task_type", "parent")
        .filter(session=session, status__in=LIVE_STATUSES, expires_at__gt=timezone.now())
    )
    return sorted(tasks, key=lambda t: (t.status == TaskStatus.SUSPENDED, -t.depth, -t.updated_at.timestamp(), -t.pk))


def task_type_list(*, tenant: Tenant) -> QuerySet[TaskType]:
    return TaskType.objects.filter(tenant=tenant).order_by("name")


def task_type_get(*, tenant: Tenant, name: str) -> TaskType:
    task_type = TaskType.objects.filter(tenant=tenant, name=name).first()
    if task_type is None:
        raise NotFound(_("no such task type"), code="task_type_not_found")
    return task_type


def session_entities(*, session: Session) -> QuerySet[SessionEntity]:
    """The session's working memory, most recently mentioned first."""
    return SessionEntity.objects.filter(session=session).order_by("-last_turn", "-last_position", "-pk")


def turn_resolutions(*, session: Session, seqs: list[int]) -> dict[int, list]:
    """The resolved references of the given turns, by turn seq, in text order."""
    found: dict[int, list] = {}
    rows = (EntityResolution.objects.filter(session=session, turn__seq__in=seqs, resolved=True)
            .select_related("turn").order_by("turn__seq", "start"))
    for row in rows:
        found.setdefault(row.turn.seq, []).append(row)
    return found


def references_resolve(*, session: Session, text: str) -> list[Resolution]:
    """What the referring expressions of `text` would mean now in this session, without storing
    anything (the append resolves and records through services/entities.py)."""
    from layers.transient.policy import transient_policy
    from layers.transient.services.entities import _to_entity

    registry = Registry([_to_entity(row) for row in SessionEntity.objects.filter(session=session)],
                        size=transient_policy(session.tenant_id).entity_registry_size)
    return references_resolve_text(registry, text)
