"""Reading and verifying the audit trail."""
from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import QuerySet

from audit.models import AuditEvent, AuditHead
from audit.services import GENESIS_HASH, event_hash, head_seal_valid


@dataclass(frozen=True)
class ChainBreak:
    """The first link that does not hold: an event (`event_id` > 0), or the tenant's head record
    (`event_id` 0; `seq` is the last event the table holds)."""

    tenant_id: int
    seq: int
    event_id: int
    reason: str

    def __str__(self) -> str:
        if not self.event_id:
            return f"tenant {self.tenant_id}: {self.reason}"
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
    """Recompute every hash in order, then check each tenant's chain ends where its sealed head says;
    report the first link that does not hold.

    The head (audit/models.py AuditHead) is what finds a deleted tail, which leaves a shorter chain
    that links: its seal must verify under `AUDIT_HEAD_KEY`, and its count and hash must be the last
    event's. A head without events, or events without a head, is a break too.

    Heads and events are read in two statements while appends go on (the console, the hourly beat
    task). At READ COMMITTED an append committed between the two would look like events added past
    the head, a false alarm; so both are read from one REPEATABLE READ snapshot. Inside a caller's
    transaction the isolation level is the caller's and cannot change any more.
    """
    if connection.in_atomic_block:
        return _chain_verify(tenant_id)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return _chain_verify(tenant_id)


def _chain_verify(tenant_id: int | None) -> ChainReport:
    events = AuditEvent.objects.order_by("tenant_id", "seq")
    heads = AuditHead.objects.all()
    if tenant_id is not None:
        events, heads = events.filter(tenant_id=tenant_id), heads.filter(tenant_id=tenant_id)
    heads_by_tenant = {head.tenant_id: head for head in heads}
    checked = 0
    tenants: set[int] = set()
    current_tenant = None
    last: AuditEvent | None = None
    prev_hash = GENESIS_HASH
    expected_seq = 1
    for event in events.iterator(chunk_size=2000):
        if event.tenant_id != current_tenant:
            if current_tenant is not None:
                head_break = _head_break(current_tenant, last, heads_by_tenant.pop(current_tenant, None))
                if head_break:
                    return ChainReport(checked, len(tenants), head_break)
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
        last = event
    if current_tenant is not None:
        head_break = _head_break(current_tenant, last, heads_by_tenant.pop(current_tenant, None))
        if head_break:
            return ChainReport(checked, len(tenants), head_break)
    for orphan in sorted(heads_by_tenant.values(), key=lambda head: head.tenant_id):
        tenants.add(orphan.tenant_id)
        head_break = _head_break(orphan.tenant_id, None, orphan)
        if head_break:
            return ChainReport(checked, len(tenants), head_break)
    return ChainReport(checked, len(tenants), None)


def _head_break(tenant_id: int, last: AuditEvent | None, head: AuditHead | None) -> ChainBreak | None:
    """Whether the tenant's chain, ending at `last`, ends where its head says."""
    last_seq, last_id = (last.seq, last.id) if last else (0, 0)
    if head is None:
        if last is None:
            return None
        return ChainBreak(tenant_id, last_seq, 0, f"has {last_seq} events but no head record: the head was deleted")
    if not head_seal_valid(head):
        return ChainBreak(tenant_id, last_seq, 0, "head record does not verify under AUDIT_HEAD_KEY: it was forged "
                                                  "or altered (or the key changed)")
    if head.event_count > last_seq:
        return ChainBreak(tenant_id, last_seq, 0, f"the chain ends at event #{last_seq} but its head records "
                                                  f"{head.event_count} events: the newest events were deleted")
    if head.event_count < last_seq:
        return ChainBreak(tenant_id, last_seq, last_id, f"is past the head, which records {head.event_count} "
                                                        "events: events were added outside audit_record")
    if head.last_hash != last.hash:
        return ChainBreak(tenant_id, last_seq, last_id, "is not the event the head records: the newest event "
                                                        "was replaced")
    return None


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
    tenant_ids = sorted({*AuditEvent.objects.order_by().values_list("tenant_id", flat=True).distinct(),
                         *AuditHead.objects.values_list("tenant_id", flat=True)})
    for one in tenant_ids:
        report = _tenant_chain_status(one)
        checked, tenants = checked + report.events_checked, tenants + 1
        if not report.ok:
            return ChainReport(checked, tenants, report.first_break)
    return ChainReport(checked, tenants, None)


def _tenant_chain_status(tenant_id: int) -> ChainReport:
    from memoryhub.core.redis import cache

    # Keyed on both ends of the chain as they are now: the newest event, and the sealed head record (a
    # deleted or forged head changes the key as surely as an appended event).
    last = AuditEvent.objects.filter(tenant_id=tenant_id).order_by("-id").values_list("id", "hash").first()
    head = AuditHead.objects.filter(tenant_id=tenant_id).values_list("event_count", "last_hash", "mac").first()
    key = (f"audit:chain-status:{tenant_id}:{last[0] if last else 0}:{last[1] if last else ''}"
           f":{':'.join(map(str, head)) if head else '-'}")
    cached = cache.get(key)
    if cached is not None:
        first_break = ChainBreak(**cached["first_break"]) if cached["first_break"] else None
        return ChainReport(cached["events_checked"], cached["tenants_checked"], first_break)
    report = audit_chain_verify(tenant_id=tenant_id)
    cache.set(key, {"events_checked": report.events_checked, "tenants_checked": report.tenants_checked,
                    "first_break": report.first_break.__dict__ if report.first_break else None},
              CHAIN_STATUS_CACHE_SECONDS)
    return report
