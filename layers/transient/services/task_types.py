"""Task types: which slots a task needs. Staff edit them (admin or an admin-scoped key); audited."""
from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from layers.transient.events import (
    TASK_TYPE_CREATED,
    TASK_TYPE_DELETED,
    TASK_TYPE_UPDATED,
)
from layers.transient.models import TaskState, TaskType
from layers.transient.policy import transient_policy
from memoryhub.core.actors import Actor
from memoryhub.core.errors import Conflict, InvalidInput
from memoryhub.tenancy.models import Tenant

_NAME_RE = re.compile(r"^[\w.:-]+$")


def _fail(field: str, message: str) -> InvalidInput:
    return InvalidInput(message, code="invalid_task_type", details={"fields": {field: [message]}})


def _clean_slot_list(value, *, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise _fail(field, _("a list of slot names"))
    cleaned = []
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise _fail(field, _("slot names are non-empty text"))
        name = name.strip()
        if len(name) > TaskType.SLOT_NAME_MAX_LENGTH or any(ord(ch) < 32 for ch in name):
            raise _fail(field, _("slot names have at most %(max)d printable characters")
                        % {"max": TaskType.SLOT_NAME_MAX_LENGTH})
        cleaned.append(name)
    return cleaned


def validate_task_type_fields(*, name, required_slots, optional_slots, default_ttl_seconds) -> dict:
    """The cleaned fields of a task type, or InvalidInput naming the field at fault."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > TaskType.NAME_MAX_LENGTH \
            or not _NAME_RE.match(name.strip()):
        raise _fail("name", _("a name of at most %(max)d letters, digits and . _ : -")
                    % {"max": TaskType.NAME_MAX_LENGTH})
    required = _clean_slot_list(required_slots, field="required_slots")
    optional = _clean_slot_list(optional_slots, field="optional_slots")
    every = [*required, *optional]
    if len(set(every)) != len(every):
        raise _fail("optional_slots", _("each slot name appears once across required and optional slots"))
    if len(every) > TaskType.MAX_SLOTS:
        raise _fail("required_slots", _("a task type has at most %(max)d slots") % {"max": TaskType.MAX_SLOTS})
    if isinstance(default_ttl_seconds, bool) or not isinstance(default_ttl_seconds, int) \
            or not TaskType.MIN_TTL_SECONDS <= default_ttl_seconds <= TaskType.MAX_TTL_SECONDS:
        raise _fail("default_ttl_seconds", _("between %(low)d and %(high)d seconds")
                    % {"low": TaskType.MIN_TTL_SECONDS, "high": TaskType.MAX_TTL_SECONDS})
    return {"name": name.strip(), "required_slots": required, "optional_slots": optional,
            "default_ttl_seconds": default_ttl_seconds}


def _snapshot(task_type: TaskType) -> dict:
    return {"name": task_type.name, "required_slots": list(task_type.required_slots),
            "optional_slots": list(task_type.optional_slots), "default_ttl_seconds": task_type.default_ttl_seconds,
            "description": task_type.description}


@transaction.atomic
def task_type_create(*, tenant: Tenant, name: str, required_slots: list[str], optional_slots: list[str] | None = None,
                     default_ttl_seconds: int | None = None, description: str = "",
                     actor: Actor) -> TaskType:
    if default_ttl_seconds is None:
        default_ttl_seconds = transient_policy(tenant.id).default_task_ttl_seconds
    fields = validate_task_type_fields(name=name, required_slots=required_slots, optional_slots=optional_slots,
                                       default_ttl_seconds=default_ttl_seconds)
    if TaskType.objects.filter(tenant=tenant, name=fields["name"]).exists():
        raise Conflict(_("a task type with this name exists"), code="task_type_exists")
    task_type = TaskType.objects.create(tenant=tenant, description=description or "", **fields)
    audit_record(tenant_id=tenant.id, actor=actor, event=TASK_TYPE_CREATED,
                 object_id=task_type.pk, after=_snapshot(task_type))
    return task_type


@transaction.atomic
def task_type_update(*, task_type: TaskType, actor: Actor, **changes) -> TaskType:
    """Change a task type's slots, TTL, name or description. Live tasks keep their slots; their
    missing slots are judged by the new definition from their next update on."""
    unknown = set(changes) - {"name", "required_slots", "optional_slots", "default_ttl_seconds", "description"}
    if unknown:
        raise InvalidInput(_("unknown fields: %(names)s") % {"names": ", ".join(sorted(unknown))})
    task_type = TaskType.objects.select_for_update().get(pk=task_type.pk)
    before = _snapshot(task_type)
    merged = {**before, **{key: value for key, value in changes.items() if value is not None}}
    fields = validate_task_type_fields(name=merged["name"], required_slots=merged["required_slots"],
                                       optional_slots=merged["optional_slots"],
                                       default_ttl_seconds=merged["default_ttl_seconds"])
    if fields["name"] != task_type.name and \
            TaskType.objects.filter(tenant_id=task_type.tenant_id, name=fields["name"]).exists():
        raise Conflict(_("a task type with this name exists"), code="task_type_exists")
    for key, value in fields.items():
        setattr(task_type, key, value)
    task_type.description = merged["description"] or ""
    after = _snapshot(task_type)
    if after == before:
        return task_type
    task_type.save()
    audit_record(tenant_id=task_type.tenant_id, actor=actor, event=TASK_TYPE_UPDATED,
                 object_id=task_type.pk, before=before, after=after)
    return task_type


@transaction.atomic
def task_type_delete(*, task_type: TaskType, actor: Actor) -> None:
    """Delete a task type no task state uses any more (they are swept within their TTL)."""
    task_type = TaskType.objects.select_for_update().get(pk=task_type.pk)
    if TaskState.objects.filter(task_type=task_type).exists():
        raise Conflict(_("tasks of this type still exist; retry after they expire"), code="task_type_in_use")
    before = _snapshot(task_type)
    pk = task_type.pk
    task_type.delete()
    audit_record(tenant_id=task_type.tenant_id, actor=actor, event=TASK_TYPE_DELETED,
                 object_id=pk, before=before)
