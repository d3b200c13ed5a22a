"""Edges of one end user's relation graph: (subject, predicate, object) from one memory."""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# The end user themself, as the subject of what they say about themselves ("user —works_at→ 网易").
USER_ENTITY = "user"


def entity_key(name: str) -> str:
    """How entity names are matched: case and surrounding/inner runs of spaces do not matter."""
    return " ".join(str(name).split()).casefold()


class Edge(models.Model):
    ENTITY_MAX_LENGTH = 200
    PREDICATE_MAX_LENGTH = 64

    # No index of its own: every read filters by tenant and user, which the owner indexes start with.
    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.PROTECT, related_name="+", db_index=False)
    user_id = models.CharField(_("user id"), max_length=200)
    subject = models.CharField(_("subject"), max_length=ENTITY_MAX_LENGTH)
    subject_key = models.CharField(max_length=ENTITY_MAX_LENGTH)
    predicate = models.CharField(_("predicate"), max_length=PREDICATE_MAX_LENGTH)
    object = models.CharField(_("object"), max_length=ENTITY_MAX_LENGTH)
    object_key = models.CharField(max_length=ENTITY_MAX_LENGTH)
    # Provenance: the memory the edge was read from (its session and turns are copied so a reader of
    # the graph needs no second lookup). Removing the memory for good removes its edges.
    memory = models.ForeignKey("long_term.Memory", on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("memory"))
    source_session_id = models.CharField(_("source session"), max_length=200, blank=True, default="")
    source_turn_from = models.PositiveIntegerField(_("first source turn"), null=True, blank=True)
    source_turn_to = models.PositiveIntegerField(_("last source turn"), null=True, blank=True)
    # Validity: from the memory's valid_from; closed when the memory is superseded (its valid_to) or
    # corrected so that it no longer says this. A closed edge stays: it is the graph's history.
    valid_from = models.DateTimeField(_("valid from"))
    valid_to = models.DateTimeField(_("valid to"), null=True, blank=True)
    # Hot and cold: rank = (access_count + 1) × the predicate's business weight (policy.graph).
    access_count = models.PositiveIntegerField(_("access count"), default=0)
    last_accessed_at = models.DateTimeField(_("last accessed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("edge")
        verbose_name_plural = _("edges")
        indexes = [
            models.Index(fields=["tenant", "user_id", "subject_key"], name="graph_owner_subject"),
            models.Index(fields=["tenant", "user_id", "object_key"], name="graph_owner_object"),
        ]
        constraints = [
            # Deriving twice writes nothing twice.
            models.UniqueConstraint(fields=["memory", "subject_key", "predicate", "object_key"],
                                    name="graph_edge_unique_per_memory"),
            models.CheckConstraint(condition=Q(valid_to__isnull=True) | Q(valid_to__gte=models.F("valid_from")),
                                   name="graph_edge_validity_order"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} —{self.predicate}→ {self.object}"

