"""Long-term memories: preferences, facts, events and episodes of one end user, with an embedding,
keyword terms, provenance, validity and access statistics."""
from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import HashIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Func, Q
from django.utils.translation import gettext_lazy as _
from pgvector.django import HalfVectorField
from simple_history.models import HistoricalRecords

from memoryhub.core.errors import Conflict
from memoryhub.core.limits import USER_ID_MAX_LENGTH
from memoryhub.core.request_context import current_request_id
from memoryhub.providers.embeddings import EMBEDDING_DIMENSIONS


class MemoryKind(models.TextChoices):
    PREFERENCE = "preference", _("preference")
    FACT = "fact", _("fact")
    EVENT = "event", _("event")
    EPISODE = "episode", _("episode")
    # What keeps happening: a request repeated at similar times across days (layers/formation/habits/).
    HABIT = "habit", _("habit")


class MemorySource(models.TextChoices):
    STATED = "stated", _("stated by the user")
    INFERRED = "inferred", _("inferred")
    IMPORTED = "imported", _("imported")


class MemoryStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    QUARANTINED = "quarantined", _("quarantined")
    ARCHIVED = "archived", _("archived")
    DELETED = "deleted", _("deleted")
    SUPERSEDED = "superseded", _("superseded")


# Which status may follow which. Restore and revert come back to active; a superseded row only
# leaves that state by deletion (its successor carries the current value).
MEMORY_TRANSITIONS: dict[str, set[str]] = {
    MemoryStatus.ACTIVE: {MemoryStatus.ARCHIVED, MemoryStatus.DELETED, MemoryStatus.SUPERSEDED,
                          MemoryStatus.QUARANTINED},
    MemoryStatus.QUARANTINED: {MemoryStatus.ACTIVE, MemoryStatus.DELETED},
    MemoryStatus.ARCHIVED: {MemoryStatus.ACTIVE, MemoryStatus.DELETED},
    MemoryStatus.DELETED: {MemoryStatus.ACTIVE, MemoryStatus.QUARANTINED, MemoryStatus.ARCHIVED,
                           MemoryStatus.SUPERSEDED},
    MemoryStatus.SUPERSEDED: {MemoryStatus.DELETED},
}


class ArrayToTsvector(Func):
    """`array_to_tsvector(text[])`: our own tokens become lexemes as they are, with no parser in between.
    Only migration 0001 names it now (the generated `search_vector` it made is dropped by 0008)."""
    function = "array_to_tsvector"
    output_field = SearchVectorField()


class Memory(models.Model):
    USER_ID_MAX_LENGTH = USER_ID_MAX_LENGTH  # what is accepted (memoryhub/core/limits.py)
    USER_ID_COLUMN_LENGTH = 200  # the column, wider: never narrowed by a migration
    CONTENT_MAX_LENGTH = 8000
    MEMORY_KEY_MAX_LENGTH = 200
    ENTITY_MAX_LENGTH = 200
    MAX_ENTITIES = 50
    CLIENT_ID_MAX_LENGTH = 200

    # No index of its own: every query filters by tenant and user, which the owner index starts with.
    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.PROTECT, related_name="+", db_index=False)
    user_id = models.CharField(_("user id"), max_length=USER_ID_COLUMN_LENGTH)
    agent_id = models.CharField(_("agent id"), max_length=200, blank=True, default="")
    kind = models.CharField(_("kind"), max_length=16, choices=MemoryKind.choices, default=MemoryKind.FACT)
    content = models.TextField(_("content"))
    # sha256 of the normalised content: exact duplicates of one user and kind merge instead of adding a row.
    content_hash = models.CharField(_("content hash"), max_length=64)
    memory_key = models.CharField(_("memory key"), max_length=MEMORY_KEY_MAX_LENGTH, blank=True, default="")
    entities = ArrayField(models.CharField(max_length=ENTITY_MAX_LENGTH), default=list, blank=True,
                          verbose_name=_("entities"))
    attributes = models.JSONField(_("attributes"), default=dict, blank=True)

    # Half precision: the search's top 10 is the same as with float32 (migration 0009, docs/embedders.md).
    embedding = HalfVectorField(_("embedding"), dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(_("embedding model"), max_length=200, blank=True, default="")
    # Keyword path: the app's tokens (see memoryhub.providers.keywords) with their counts, which BM25 reads
    # (selectors/search.py), and the length in tokens. No token array or tsvector beside them: no query
    # read those, and they made a row too big for three to a page (migration 0008).
    term_freqs = models.JSONField(_("term frequencies"), default=dict, blank=True)
    doc_length = models.PositiveIntegerField(_("length in tokens"), default=0)

    confidence = models.FloatField(_("confidence"), default=1.0)
    importance = models.FloatField(_("importance"), default=0.5)
    source = models.CharField(_("source"), max_length=16, choices=MemorySource.choices, default=MemorySource.STATED)
    source_session_id = models.CharField(_("source session"), max_length=200, blank=True, default="")
    source_turn_from = models.PositiveIntegerField(_("first source turn"), null=True, blank=True)
    source_turn_to = models.PositiveIntegerField(_("last source turn"), null=True, blank=True)
    extractor = models.CharField(_("extractor"), max_length=100, blank=True, default="")
    client_id = models.CharField(_("client id"), max_length=CLIENT_ID_MAX_LENGTH, null=True, blank=True)

    valid_from = models.DateTimeField(_("valid from"))
    valid_to = models.DateTimeField(_("valid to"), null=True, blank=True)
    superseded_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                      verbose_name=_("superseded by"))
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    # Recency counts from here: creation, or the last time the user said the same thing again.
    last_confirmed_at = models.DateTimeField(_("last confirmed at"))
    mention_count = models.PositiveIntegerField(_("times stated"), default=1)

    # Access statistics: written in batches by `memory_access_flush`, not tracked by history (the one
    # allowed exception: a search must not add a version to every memory it returns).
    last_accessed_at = models.DateTimeField(_("last accessed at"), null=True, blank=True)
    access_count = models.PositiveIntegerField(_("access count"), default=0)

    feedback_positive = models.PositiveIntegerField(_("useful feedback"), default=0)
    feedback_negative = models.PositiveIntegerField(_("not useful feedback"), default=0)
    # Multiplies the score; halved by repeated negative feedback.
    feedback_weight = models.FloatField(_("feedback weight"), default=1.0)

    status = models.CharField(_("status"), max_length=16, choices=MemoryStatus.choices, default=MemoryStatus.ACTIVE)
    # The status a soft-deleted memory returns to on restore.
    status_before_delete = models.CharField(max_length=16, choices=MemoryStatus.choices, blank=True, default="")
    quarantine_reasons = ArrayField(models.CharField(max_length=64), default=list, blank=True,
                                    verbose_name=_("quarantine reasons"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    # The trace id: the X-Request-ID of the request whose write made this version (a formation job carries
    # the id of the request that enqueued it, memoryhub/celery.py); empty when no request caused it. History
    # keeps one per version. A column, not an attribute: attributes are the user's data.
    request_id = models.CharField(_("request id"), max_length=64, blank=True, default="")

    # Derived columns (vector, tokens) are rebuilt from the content on revert; history keeps what people
    # can read and change.
    history = HistoricalRecords(excluded_fields=[
        "embedding", "term_freqs", "doc_length", "last_accessed_at", "access_count",
    ])

    class Meta:
        verbose_name = _("memory")
        verbose_name_plural = _("memories")
        indexes = [
            # Every read filters by owner and status first; per-user sets are small, so this B-tree plus an
            # exact sort beats a filtered HNSW scan (see selectors.search).
            models.Index(fields=["tenant", "user_id", "status"], name="ltm_owner_status"),
            models.Index(fields=["tenant", "user_id", "memory_key"], name="ltm_owner_key",
                         condition=Q(status="active") & ~Q(memory_key="")),
            models.Index(fields=["status", "expires_at"], name="ltm_expiry",
                         condition=Q(expires_at__isnull=False)),
            # No HNSW index on `embedding` and no GIN keyword index: no query read either (the
            # per-user search scores the owner's rows exactly, keyword hits included; selectors/search.py),
            # and every insert paid for both (issue 16 item 3; docs/benchmarks.md, "Bulk import and storage").
            # A path for owners too large for the exact scan brings a partial HNSW index with its query.
            # Every write looks for a stored duplicate by content hash (services/create.py); through the
            # owner's B-tree that read all of the owner's rows: 160 ms a batch for a 50k-memory owner, 1 ms
            # through this hash index, which costs about 37 bytes a memory (a B-tree on 64 hex characters
            # would cost three times that).
            HashIndex(fields=["content_hash"], name="ltm_content_hash"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "user_id", "client_id"], name="ltm_unique_client_id",
                                    condition=Q(client_id__isnull=False)),
            models.CheckConstraint(condition=Q(confidence__gte=0) & Q(confidence__lte=1), name="ltm_confidence_range"),
            models.CheckConstraint(condition=Q(importance__gte=0) & Q(importance__lte=1), name="ltm_importance_range"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    def save(self, *args, **kwargs):
        # A whole-row save is a write of the memory; a save of named columns only (re-embedding) keeps the trace.
        if kwargs.get("update_fields") is None:
            self.request_id = current_request_id.get()[:64]
        super().save(*args, **kwargs)

    def transition_to(self, status: str) -> None:
        """Move to `status` or raise Conflict (409) when the transition table does not allow it."""
        if status == self.status:
            return
        if status not in MEMORY_TRANSITIONS.get(self.status, set()):
            raise Conflict(
                _("a %(current)s memory cannot become %(target)s") % {"current": self.status, "target": status},
                code="invalid_transition", details={"from": self.status, "to": status})
        self.status = status


# A conditional preference's corrections live beside the condition model; imported so the app registers them.
from layers.long_term.conditions.models import PreferenceCorrection  # noqa: E402,F401
