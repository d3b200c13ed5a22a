"""Formation bookkeeping: how far each session has been extracted and summarised, and a record of
every run that turned turns into memories.

The cursor (`FormationState.last_extracted_seq`) moves in the same transaction as the memories the
run wrote, under a per-session advisory lock, so a run repeated (a redelivered task, a second
worker, the catch-up beat) starts after what is already stored and writes nothing twice.
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from layers.short_term.models import Session
from memoryhub.tenancy.models import Tenant


class FormationState(models.Model):
    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="formation_state",
                                   verbose_name=_("session"))
    # Highest turn seq whose content has been through extraction (0: none yet).
    last_extracted_seq = models.PositiveIntegerField(_("extracted up to turn"), default=0)
    # Highest turn seq covered by a summary this layer wrote, and turned into an episode memory.
    last_summarised_seq = models.PositiveIntegerField(_("summarised up to turn"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("formation state")
        verbose_name_plural = _("formation states")

    def __str__(self) -> str:
        return f"{self.session_id}: extracted ≤ #{self.last_extracted_seq}, summarised ≤ #{self.last_summarised_seq}"


class RunJob(models.TextChoices):
    EXTRACT = "extract", _("extraction")
    SUMMARISE = "summarise", _("summarisation")


class RunOutcome(models.TextChoices):
    COMPLETED = "completed", _("completed")
    # The model's reply did not fit the schema: nothing from it was stored; the offline rules ran instead.
    FELL_BACK = "fell_back", _("completed with the offline fallback")


class FormationRun(models.Model):
    """One committed extraction or summarisation run (written in the run's own transaction, so a
    run that died left no record and no memories)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="+", verbose_name=_("tenant"))
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="formation_runs",
                                verbose_name=_("session"))
    job = models.CharField(_("job"), max_length=16, choices=RunJob.choices)
    outcome = models.CharField(_("outcome"), max_length=16, choices=RunOutcome.choices,
                               default=RunOutcome.COMPLETED)
    extractor = models.CharField(_("extractor or summariser"), max_length=200)
    turn_from = models.PositiveIntegerField(_("first turn"))
    turn_to = models.PositiveIntegerField(_("last turn"))
    written = models.PositiveIntegerField(_("memories created"), default=0)
    merged = models.PositiveIntegerField(_("merged into existing"), default=0)
    superseded = models.PositiveIntegerField(_("superseding an old value"), default=0)
    quarantined = models.PositiveIntegerField(_("quarantined"), default=0)
    secrets_dropped = models.PositiveIntegerField(_("secrets dropped"), default=0)
    rejected = models.PositiveIntegerField(_("items rejected"), default=0)
    # Episode memories over the user's own statements (layers/formation/spans.py), beside `written`.
    spans = models.PositiveIntegerField(_("statement spans kept"), default=0)
    # Drop reasons and their counts as the extractor reported them (never content).
    dropped = models.JSONField(_("dropped by reason"), default=dict, blank=True)
    summary_version = models.PositiveIntegerField(_("summary version"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("formation run")
        verbose_name_plural = _("formation runs")
        ordering = ["-id"]
        indexes = [models.Index(fields=["session", "job"], name="formation_run_session_job")]
        constraints = [
            # A span of turns goes through each job once: the cursor guarantees it, the database checks it.
            models.UniqueConstraint(fields=["session", "job", "turn_from"], name="formation_run_unique_span"),
            models.CheckConstraint(condition=Q(turn_from__lte=models.F("turn_to")), name="formation_run_span_order"),
        ]

    def __str__(self) -> str:
        return f"{self.job} {self.session_id} #{self.turn_from}-{self.turn_to} ({self.extractor})"
