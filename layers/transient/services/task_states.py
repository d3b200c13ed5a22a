"""Task states: slot filling, guarded status changes, the sub-task stack, and TTL expiry."""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from layers.short_term.models import Session, SessionStatus, Turn
from layers.short_term.services import turns_append
from layers.short_term.services.sessions import (
    session_expired_error,
    session_is_idle,
    session_touch,
)
from layers.transient.models import (
    CLIENT_SETTABLE_STATUSES,
    FINISHED_STATUSES,
    LIVE_STATUSES,
    TASK_TRANSITIONS,
    TaskState,
    TaskStatus,
    TaskType,
)
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, Gone, InvalidInput, NotFound, TooLarge
from memoryhub.core.locks import deadlock_retry
from memoryhub.safety.secrets import refuse_secrets

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TaskChange:
    task: TaskState
    resumed_parent: TaskState | None = None  # set when finishing this task resumed its parent


def _expiry(task_type: TaskType, now: datetime) -> datetime:
    return now + timedelta(seconds=task_type.default_ttl_seconds)


def task_expired_error() -> Gone:
    return Gone(_("the task expired and is gone"), code="task_expired")


def _clean_slots(task_type: TaskType, slots) -> dict:
    """Validated slot changes: known names only, values JSON of bounded size; None clears a slot."""
    if slots is None:
        return {}
    if not isinstance(slots, dict):
        raise InvalidInput(_("slots must be a JSON object"), code="invalid_slots")
    unknown = sorted(set(slots) - set(task_type.slot_names))
    if unknown:
        raise InvalidInput(_("unknown slots for %(type)s: %(names)s") % {"type": task_type.name,
                                                                           "names": ", ".join(unknown)},
                           code="unknown_slots", details={"unknown": unknown, "allowed": task_type.slot_names})
    for name, value in slots.items():
        size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
        if size > TaskState.SLOT_VALUE_MAX_BYTES:
            raise TooLarge(_("slot %(name)s is larger than %(max)d bytes") % {"name": name,
                                                                                "max": TaskState.SLOT_VALUE_MAX_BYTES},
                           code="slot_value_too_large",
                           details={"slot": name, "max_bytes": TaskState.SLOT_VALUE_MAX_BYTES, "bytes": size})
    # Slots are stored, served in the context and become a turn when the task is done: no secrets.
    refuse_secrets(slots, field="slots")
    return slots


def _apply_slots(task: TaskState, changes: dict) -> None:
    slots = dict(task.slots)
    for name, value in changes.items():
        if value is None:
            slots.pop(name, None)
        else:
            slots[name] = value
    task.slots = slots


def _settle(status: str, task: TaskState) -> str:
    """collecting ⇄ ready follows the slots: the last required slot moves a task to ready, clearing
    one moves it back. Other statuses are left alone."""
    missing = task.missing_slots
    if status == TaskStatus.COLLECTING and not missing:
        return TaskStatus.READY
    if status == TaskStatus.READY and missing:
        return TaskStatus.COLLECTING
    return status


def _check_transition(current: str, target: str) -> None:
    if target not in TASK_TRANSITIONS[current]:
        raise Conflict(
            _("a %(status)s task cannot become %(target)s") % {"status": current, "target": target},
            code="illegal_transition",
            details={"status": current, "requested": target,
                     "allowed": sorted(TASK_TRANSITIONS[current] & CLIENT_SETTABLE_STATUSES)},
        )


def _lock_live(pk: int, *, now: datetime) -> TaskState:
    task = TaskState.objects.select_for_update().select_related("task_type").filter(pk=pk).first()
    if task is None:
        raise NotFound(_("no such task"), code="task_not_found")
    if task.expires_at <= now:
        raise task_expired_error()
    return task


def _live_child(task: TaskState) -> TaskState | None:
    return TaskState.objects.select_for_update().filter(parent=task, status__in=LIVE_STATUSES).first()


def resume_suspended(parent: TaskState, *, now: datetime) -> TaskState:
    parent.status = _settle(parent.resume_status or TaskStatus.COLLECTING, parent)
    parent.resume_status = ""
    parent.expires_at = max(parent.expires_at, _expiry(parent.task_type, now))
    parent.save(update_fields=["status", "resume_status", "expires_at", "updated_at"])
    return parent


def _reap_expired_child(task: TaskState, *, now: datetime) -> None:
    """A suspended task whose sub-task expired unswept resumes now, as the sweep would do."""
    if task.status != TaskStatus.SUSPENDED:
        return
    child = _live_child(task)
    if child is None or child.expires_at <= now:
        if child is not None:
            child.delete()
        resume_suspended(task, now=now)


def _touch_ancestors(task: TaskState, *, now: datetime) -> None:
    """Work on a sub-task keeps the tasks waiting under it alive."""
    parent_id = task.parent_id
    while parent_id is not None:
        parent = TaskState.objects.select_for_update().select_related("task_type").filter(pk=parent_id).first()
        if parent is None or parent.status not in LIVE_STATUSES:
            return
        renewed = _expiry(parent.task_type, now)
        if renewed > parent.expires_at:
            parent.expires_at = renewed
            parent.save(update_fields=["expires_at"])
        parent_id = parent.parent_id


def _cancel_descendants(task: TaskState, *, now: datetime) -> None:
    child = _live_child(task)
    while child is not None:
        child.status, child.resume_status = TaskStatus.CANCELLED, ""
        child.expires_at = _expiry(child.task_type, now)
        child.save(update_fields=["status", "resume_status", "expires_at", "updated_at"])
        child = _live_child(child)


@deadlock_retry
@transaction.atomic
def task_start(*, session: Session, task_type_name: str, parent_id: int | None = None, slots: dict | None = None,
               actor: Actor) -> TaskChange:
    """Start a task in an active session, optionally as a sub-task of `parent_id` (the parent is
    suspended until the sub-task finishes). Starts in `ready` when its required slots are given."""
    now = timezone.now()
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status != SessionStatus.ACTIVE:
        raise Conflict(_("the session is %(status)s") % {"status": session.status}, code=f"session_{session.status}")
    if session_is_idle(session, now=now):
        # Idle past its timeout: like a turn, a new task is refused (the sweep marks it expired).
        raise session_expired_error()
    task_type = TaskType.objects.filter(tenant_id=session.tenant_id, name=task_type_name).first()
    if task_type is None:
        raise InvalidInput(_("no task type named %(name)s") % {"name": task_type_name}, code="unknown_task_type",
                           details={"fields": {"task_type": ["unknown"]}})
    slots = _clean_slots(task_type, slots)

    parent, depth = None, 0
    if parent_id is not None:
        parent = TaskState.objects.filter(pk=parent_id, session=session).first()
        if parent is None:
            raise NotFound(_("no such parent task in this session"), code="task_not_found")
        parent = _lock_live(parent.pk, now=now)
        _reap_expired_child(parent, now=now)
        if parent.status == TaskStatus.SUSPENDED:
            raise Conflict(_("the parent task already has a running sub-task"), code="parent_busy")
        if parent.status in FINISHED_STATUSES:
            raise Conflict(_("the parent task is %(status)s") % {"status": parent.status}, code="task_finished")
        depth = parent.depth + 1
        if depth > TaskState.MAX_DEPTH:
            raise Conflict(_("sub-tasks nest at most %(max)d deep") % {"max": TaskState.MAX_DEPTH},
                           code="stack_too_deep")
        _check_transition(parent.status, TaskStatus.SUSPENDED)
        parent.resume_status, parent.status = parent.status, TaskStatus.SUSPENDED
        parent.expires_at = max(parent.expires_at, _expiry(parent.task_type, now))
        parent.save(update_fields=["status", "resume_status", "expires_at", "updated_at"])

    task = TaskState(tenant_id=session.tenant_id, session=session, task_type=task_type, parent=parent, depth=depth,
                     changed_by=actor.label[:TaskState.ACTOR_MAX_LENGTH],
                     expires_at=_expiry(task_type, now))
    _apply_slots(task, slots)
    task.status = _settle(TaskStatus.COLLECTING, task)
    task.save()
    _touch_ancestors(task, now=now)
    session_touch(session, now=now)
    return TaskChange(task=task)


@deadlock_retry
@transaction.atomic
def task_update(*, task: TaskState, slots: dict | None = None, status: str | None = None,
                actor: Actor) -> TaskChange:
    """Fill or clear slots (None clears) and/or change status along the transition table.

    Filling the last required slot moves `collecting → ready`; asking for `ready` with slots missing
    is a 409 `slots_missing`. Finishing a sub-task (`done` / `cancelled`) resumes its parent in the
    state it left; cancelling a task cancels its running sub-tasks. A suspended task takes slot
    changes (its resume state follows them) but no status except `cancelled`. Every update renews
    `expires_at`.
    """
    now = timezone.now()
    # Lock order everywhere: session, then tasks outward from the one changed.
    session = Session.objects.select_for_update().get(pk=task.session_id)
    task = _lock_live(task.pk, now=now)
    if status is not None and status not in TaskStatus.values:
        raise InvalidInput(_("unknown status %(status)s") % {"status": status}, code="invalid_status",
                           details={"allowed": sorted(CLIENT_SETTABLE_STATUSES)})
    if task.status in FINISHED_STATUSES:
        raise Conflict(_("the task is %(status)s") % {"status": task.status}, code="task_finished",
                       details={"status": task.status})
    changes = _clean_slots(task.task_type, slots)
    _reap_expired_child(task, now=now)
    _apply_slots(task, changes)

    resumed = None
    if task.status == TaskStatus.SUSPENDED:
        task.resume_status = _settle(task.resume_status, task)
        if status is not None and status != TaskStatus.SUSPENDED:
            if status != TaskStatus.CANCELLED:
                raise Conflict(_("the task waits for its sub-task; finish or cancel that first"),
                               code="task_suspended", details={"status": task.status, "requested": status})
            _cancel_descendants(task, now=now)
            task.status, task.resume_status = TaskStatus.CANCELLED, ""
    else:
        # Judge the requested status from where the slot change already moved the task, so one
        # PATCH can fill the last slot and start executing.
        current = _settle(task.status, task)
        if status is not None and status != current:
            if status not in CLIENT_SETTABLE_STATUSES:
                raise Conflict(_("%(status)s is set by starting a sub-task") % {"status": status},
                               code="illegal_transition", details={"status": current, "requested": status})
            if status == TaskStatus.READY and task.missing_slots:
                raise Conflict(_("required slots are missing"), code="slots_missing",
                               details={"missing_slots": task.missing_slots})
            _check_transition(current, status)
            if status in FINISHED_STATUSES:
                _cancel_descendants(task, now=now)
            current = status
        task.status = current

    task.expires_at = _expiry(task.task_type, now)
    task.changed_by = actor.label[:TaskState.ACTOR_MAX_LENGTH]
    task.save(update_fields=["slots", "status", "resume_status", "expires_at", "updated_at", "changed_by"])
    if task.status in FINISHED_STATUSES and task.parent_id is not None:
        parent = TaskState.objects.select_for_update().select_related("task_type").filter(pk=task.parent_id).first()
        if parent is not None and parent.status == TaskStatus.SUSPENDED and parent.expires_at > now:
            resumed = resume_suspended(parent, now=now)
    _touch_ancestors(task, now=now)
    session_touch(session, now=now)
    if task.status == TaskStatus.DONE:
        _record_in_session(task, session, actor=actor)
    return TaskChange(task=task, resumed_parent=resumed)


def _record_in_session(task: TaskState, session: Session, *, actor: Actor) -> None:
    """A finished task becomes a turn of its session (transient → short-term), once per task.

    Its slots are the data; the turn goes through `turns_append`, so secrets in slot values are
    redacted like any turn. A closed session keeps no record, which must not block finishing the task.
    """
    if session.status != SessionStatus.ACTIVE:
        return
    content = json.dumps({"task": task.task_type.name, "status": task.status, "slots": task.slots},
                         ensure_ascii=False, sort_keys=True)
    try:
        turns_append(session=session, turns=[{
            "role": "tool", "content": content[:Turn.CONTENT_MAX_CHARS],
            "tool_name": f"task:{task.task_type.name}"[:Turn.TOOL_NAME_MAX_LENGTH],
            "client_id": f"task-{task.pk}-{task.status}",
        }], actor=actor)
    except Conflict as exc:
        logger.info("task %s finished in a session that no longer takes turns: %s", task.pk, exc.code)
