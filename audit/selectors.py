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


# The console shows the chain status on every list page; a full verification reads every event, so a
# result is reused while the chain's head is unchanged (for at most this long; the hourly beat task
# always verifies in full).
CHAIN_STATUS_CACHE_SECONDS = 300


def audit_chain_status(*, tenant_id: int | None = None) -> ChainReport:
    """`audit_chain_verify`, reused from the cache while no event has been appended since. Without a
    tenant, every tenant's chain in turn, each cached on its own head: an event appended in one tenant
    re-verifies that tenant's chain only, not the whole table."""
    if tenant_id is not None:
        return _tenant_chain_status(tenant_id)
    checked = tenants = 0
    tenant_ids = AuditEvent.objects.order_by("tenant_id").values_list("tenant_id", flat=True).distinct()
    for one in tenant_ids:
        report = _tenant_chain_status(one)
        checked, tenants = checked + report.events_checked, tenants + 1
        if not report.ok:
            return ChainReport(checked, tenants, report.first_break)
    return ChainReport(checked, tenants, None)


def _tenant_chain_status(tenant_id: int) -> ChainReport:
    from memoryhub.core.redis import cache

    head = AuditEvent.objects.filter(tenant_id=tenant_id).order_by("-id").values_list("id", "hash").first()
    key = f"audit:chain-status:{tenant_id}:{head[0] if head else 0}:{head[1] if head else ''}"
    cached = cache.get(key)
    if cached is not None:
        first_break = ChainBreak(**cached["first_break"]) if cached["first_break"] else None
        return ChainReport(cached["events_checked"], cached["tenants_checked"], first_break)
    report = audit_chain_verify(tenant_id=tenant_id)
    cache.set(key, {"events_checked": report.events_checked, "tenants_checked": report.tenants_checked,
                    "first_break": report.first_break.__dict__ if report.first_break else None},
              CHAIN_STATUS_CACHE_SECONDS)
    return report
