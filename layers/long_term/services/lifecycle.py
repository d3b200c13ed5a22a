"""Forgetting by time: memories past their importance-based TTL are archived (never destroyed here)."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from audit.actors import Actor
from audit.services import audit_record
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.services.create import memory_audit_state

ARCHIVE_BATCH = 500


def memories_archive_expired(*, now=None, dry_run: bool = False, limit: int = ARCHIVE_BATCH) -> dict:
    """Archive up to `limit` active memories whose `expires_at` has passed; with dry_run, only count them."""
    now = now or timezone.now()
    due = Memory.objects.filter(status=MemoryStatus.ACTIVE, expires_at__lte=now)
    if dry_run:
        return {"due": due.count(), "archived": 0}
    archived = 0
    actor = Actor.system("long_term.archive_expired")
    with transaction.atomic():
        for memory in due.select_for_update(skip_locked=True).order_by("id")[:limit]:
            before = memory_audit_state(memory)
            memory.transition_to(MemoryStatus.ARCHIVED)
            memory._change_reason = "expired"
            memory.save()
            audit_record(tenant_id=memory.tenant_id, actor=actor, action="memory.archived",
                         object_type="long_term.memory", object_id=memory.pk, before=before,
                         after=memory_audit_state(memory), subject_user_id=memory.user_id)
            archived += 1
    return {"due": archived, "archived": archived}
