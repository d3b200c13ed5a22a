"""Reading and verifying the audit trail."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from audit.models import AuditEvent
from audit.services import GENESIS_HASH, event_hash


@dataclass(frozen=True)
class ChainBreak:
    tenant_id: int
    seq: int
    event_id: int
    reason: str

    def __str__(self) -> str:
        return f"tenant {self.tenant_id}: event #{self.seq} (id {self.event_id}) {self.reason}"


@dataclass(frozen=True)
class ChainReport:
    events_checked: int
    tenants_checked: int
    first_break: ChainBreak | None

    @property
    def ok(self) -> bool:
        return self.first_break is None


def audit_events_for_object(*, tenant_id: int, object_type: str, object_id) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(tenant_id=tenant_id, object_type=object_type, object_id=str(object_id))


def audit_chain_verify(*, tenant_id: int | None = None) -> ChainReport:
    """Recompute every hash in order; report the first link that does not hold."""
    events = AuditEvent.objects.order_by("tenant_id", "seq")
    if tenant_id is not None:
        events = events.filter(tenant_id=tenant_id)
    checked = 0
    tenants: set[int] = set()
    current_tenant = None
    prev_hash = GENESIS_HASH
    expected_seq = 1
    for event in events.iterator(chunk_size=2000):
        if event.tenant_id != current_tenant:
            current_tenant, prev_hash, expected_seq = event.tenant_id, GENESIS_HASH, 1
            tenants.add(event.tenant_id)
        checked += 1
        if event.seq != expected_seq:
            return ChainReport(checked, len(tenants), ChainBreak(event.tenant_id, event.seq, event.id,
                                                                 f"expected sequence {expected_seq}"))
        if event.prev_hash != prev_hash:
            return ChainReport(checked, len(tenants), ChainBreak(event.tenant_id, event.seq, event.id,
                                                                 "does not link to the previous event"))
        if event_hash(prev_hash, event) != event.hash:
            return ChainReport(checked, len(tenants), ChainBreak(event.tenant_id, event.seq, event.id,
                                                                 "was altered: its hash does not match its content"))
        prev_hash = event.hash
        expected_seq += 1
    return ChainReport(checked, len(tenants), None)
