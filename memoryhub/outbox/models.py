"""Work to enqueue, recorded in PostgreSQL in the same transaction as the change that needs it.

After commit the task is sent to the broker and the row marked sent. If Redis is down the row stays
pending and the sweeper (`outbox_flush`) sends it once the broker is back, so no work is lost.
"""
from django.db import models
from django.db.models import Q


class OutboxTask(models.Model):
    task_name = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    # Collapses repeated requests for the same work (e.g. "extract session 42") while one is pending.
    dedupe_key = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["created_at"], condition=Q(sent_at__isnull=True), name="outbox_pending")]
        constraints = [
            models.UniqueConstraint(fields=["dedupe_key"], condition=Q(sent_at__isnull=True) & ~Q(dedupe_key=""),
                                    name="outbox_one_pending_per_key"),
        ]
        default_permissions = ("view",)

    def __str__(self) -> str:
        return f"{self.task_name} {self.args} ({'sent' if self.sent_at else 'pending'})"
