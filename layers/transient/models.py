"""Transient memory: the task an agent is working on, its slots, and the sub-task stack.

Task types (which slots a task needs) are defined by staff; task states live for minutes and are
forgotten by TTL. Limits are model constants reused by validation.
"""
from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from layers.short_term.models import Session
from memoryhub.tenancy.models import Tenant


class TaskType(models.Model):
    NAME_MAX_LENGTH = 64
    SLOT_NAME_MAX_LENGTH = 64
    MAX_SLOTS = 32
    DEFAULT_TTL_SECONDS = 30 * 60
    MIN_TTL_SECONDS = 60
    MAX_TTL_SECONDS = 24 * 60 * 60

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="task_types")
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    description = models.TextField(_("description"), blank=True, default="")
    required_slots = ArrayField(models.CharField(max_length=SLOT_NAME_MAX_LENGTH), default=list, blank=True,
                                verbose_name=_("required slots"))
    optional_slots = ArrayField(models.CharField(max_length=SLOT_NAME_MAX_LENGTH), default=list, blank=True,
                                verbose_name=_("optional slots"))
    default_ttl_seconds = models.PositiveIntegerField(_("default TTL (seconds)"), default=DEFAULT_TTL_SECONDS)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("task type")
        verbose_name_plural = _("task types")
        ordering = ["tenant", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="transient_task_type_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def slot_names(self) -> list[str]:
        return [*self.required_slots, *self.optional_slots]


class TaskStatus(models.TextChoices):
    COLLECTING = "collecting", _("collecting slots")
    READY = "ready", _("ready")
    EXECUTING = "executing", _("executing")
    SUSPENDED = "suspended", _("suspended (a sub-task runs)")
    DONE = "done", _("done")
    CANCELLED = "cancelled", _("cancelled")


LIVE_STATUSES = (TaskStatus.COLLECTING, TaskStatus.READY, TaskStatus.EXECUTING, TaskStatus.SUSPENDED)
FINISHED_STATUSES = (TaskStatus.DONE, TaskStatus.CANCELLED)

# Every allowed status change. `suspended` is entered only by starting a sub-task and left only by
# the sub-task finishing (back to the state it left) or by cancelling; clients cannot set it.
TASK_TRANSITIONS: dict[str, frozenset[str]] = {
    TaskStatus.COLLECTING: frozenset({TaskStatus.READY, TaskStatus.CANCELLED, TaskStatus.SUSPENDED}),
    TaskStatus.READY: frozenset({TaskStatus.COLLECTING, TaskStatus.EXECUTING, TaskStatus.CANCELLED,
                                 TaskStatus.SUSPENDED}),
    TaskStatus.EXECUTING: frozenset({TaskStatus.DONE, TaskStatus.CANCELLED, TaskStatus.SUSPENDED}),
    TaskStatus.SUSPENDED: frozenset({TaskStatus.COLLECTING, TaskStatus.READY, TaskStatus.EXECUTING,
                                     TaskStatus.CANCELLED}),
    TaskStatus.DONE: frozenset(),
    TaskStatus.CANCELLED: frozenset(),
}
CLIENT_SETTABLE_STATUSES = frozenset({TaskStatus.COLLECTING, TaskStatus.READY, TaskStatus.EXECUTING,
                                      TaskStatus.DONE, TaskStatus.CANCELLED})


class TaskState(models.Model):
    SLOT_VALUE_MAX_BYTES = 4 * 1024
    MAX_DEPTH = 8
    ACTOR_MAX_LENGTH = 200

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="task_states")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tasks")
    task_type = models.ForeignKey(TaskType, on_delete=models.PROTECT, related_name="states")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="children")
    depth = models.PositiveSmallIntegerField(_("depth"), default=0)
    slots = models.JSONField(_("slots"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=TaskStatus.choices, default=TaskStatus.COLLECTING)
    # The status a suspended task returns to when its sub-task finishes.
    resume_status = models.CharField(_("resumes to"), max_length=16, choices=TaskStatus.choices, blank=True,
                                     default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    expires_at = models.DateTimeField(_("expires at"))
    # Who started or last changed it: the label of the acting API key, staff user or job.
    changed_by = models.CharField(_("changed by"), max_length=ACTOR_MAX_LENGTH, blank=True, default="")

    class Meta:
        verbose_name = _("task state")
        verbose_name_plural = _("task states")
        ordering = ["-updated_at"]
        constraints = [
            # A task has at most one running sub-task: the stack is a chain, not a tree.
            models.UniqueConstraint(fields=["parent"], condition=Q(status__in=LIVE_STATUSES),
                                    name="transient_task_one_live_child"),
            models.CheckConstraint(
                condition=Q(status=TaskStatus.SUSPENDED, resume_status__in=[
                    TaskStatus.COLLECTING, TaskStatus.READY, TaskStatus.EXECUTING]) | ~Q(status=TaskStatus.SUSPENDED),
                name="transient_task_suspended_knows_where_to_resume",
            ),
        ]
        indexes = [
            models.Index(fields=["session", "status"], name="transient_task_session_status"),
            models.Index(fields=["expires_at"], name="transient_task_expires"),
        ]

    def __str__(self) -> str:
        return f"{self.task_type.name}#{self.pk} ({self.status})"

    @property
    def missing_slots(self) -> list[str]:
        return [name for name in self.task_type.required_slots if _empty(self.slots.get(name))]


def _empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


class EntityType(models.TextChoices):
    DEVICE = "device", _("device")
    PLACE = "place", _("place")
    PERSON = "person", _("person")
    PRODUCT = "product", _("product")
    DOCUMENT = "document", _("document")
    ORDER = "order", _("order")
    RESTAURANT = "restaurant", _("restaurant")
    MEDIA = "media", _("media")
    VEHICLE = "vehicle", _("vehicle")
    EVENT = "event", _("event")
    OTHER = "other", _("other")


class SessionEntity(models.Model):
    """Working memory: one entity the session mentioned recently ("客厅的灯", "Blue Bottle", "她").

    A session keeps at most `policy.transient.entity_registry_size` of them (a ring buffer: the least
    recently mentioned goes first); written by layers/transient/services/entities.py as turns are appended.
    """
    NAME_MAX_LENGTH = 200

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="session_entities")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="entities")
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    entity_type = models.CharField(_("type"), max_length=16, choices=EntityType.choices)
    # "f" / "m" when the words fix it ("我妈", "grandpa"); used for 她 / he agreement.
    gender = models.CharField(_("gender"), max_length=1, blank=True, default="")
    plural = models.BooleanField(_("a group"), default=False)
    # Typed by a guess (an unknown capitalised name): resolutions to it are less confident.
    guessed_type = models.BooleanField(_("type guessed"), default=False)
    aliases = models.JSONField(_("other names"), default=list, blank=True)
    # {"said": [...the words stated with it...], "clauses": [...], "numbers": [...]}
    attributes = models.JSONField(_("attributes"), default=dict, blank=True)
    first_turn = models.PositiveIntegerField(_("first turn"))
    last_turn = models.PositiveIntegerField(_("last turn"))
    # Where in its last turn it was named (the assistant's action on it counts as the turn's end).
    last_position = models.PositiveIntegerField(default=0)
    turn_group = models.PositiveIntegerField(default=0)
    mentions = models.PositiveIntegerField(_("mentions"), default=1)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("session entity")
        verbose_name_plural = _("session entities")
        ordering = ["-last_turn", "-last_position", "-pk"]
        indexes = [models.Index(fields=["session", "last_turn"], name="transient_entity_recency")]

    def __str__(self) -> str:
        return f"{self.name} ({self.entity_type})"


class EntityResolution(models.Model):
    """What a referring expression of a user turn was taken to mean ("它" in turn 5 = 客厅的灯)."""
    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="entity_resolutions")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="entity_resolutions")
    turn = models.ForeignKey("short_term.Turn", on_delete=models.CASCADE, related_name="entity_resolutions")
    mention = models.CharField(_("mention"), max_length=100)
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    # [{"id", "name", "type"}]: names are kept, since the registry may evict the entity later.
    entities = models.JSONField(_("entities"), default=list, blank=True)
    confidence = models.FloatField(_("confidence"))
    resolved = models.BooleanField(_("resolved"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entity resolution")
        verbose_name_plural = _("entity resolutions")
        ordering = ["turn_id", "start"]
        indexes = [models.Index(fields=["session", "turn"], name="transient_resolution_turn")]
