"""Reminder numbers, read through memoryhub/core/policy.py: code defaults, overridden per tenant by
approved global permanent entries `policy.reminders.<field>`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from memoryhub.core.policy import policy_read, setting


@dataclass(frozen=True)
class ReminderPolicy:
    SECTION: ClassVar[str] = "reminders"

    # "等会儿提醒我", "remind me later": no time named, so this many minutes from the turn.
    vague_delay_minutes: int = setting(30, low=1, high=24 * 60)
    # A day named without a time ("明天提醒我", "every Monday"): this hour of the user's day.
    default_hour: int = setting(9, low=0, high=23)
    # Webhook attempts before a due reminder is marked failed (it stays due, visibly, for an agent to poll).
    max_delivery_attempts: int = setting(6, low=1, high=50)
    # Back-off between attempts: base × 2^(attempt-1), at most the maximum.
    retry_base_seconds: int = setting(30, low=1, high=3600)
    retry_max_seconds: int = setting(3600, low=1, high=24 * 3600)
    # An attempt in flight holds the reminder this long; a worker killed mid-delivery frees it by expiry.
    delivery_lease_seconds: int = setting(60, low=1, high=3600)
    webhook_timeout_seconds: int = setting(10, low=1, high=60)
    # A reminder nobody could be told about this long after its time (the service was down, no webhook and
    # no agent acknowledged it) expires instead of arriving late.
    expire_after_hours: int = setting(24, low=1, high=24 * 30)
    # How many pending reminders of the user a later turn is checked against (conflicts).
    conflict_candidates: int = setting(20, low=1, high=200)


def reminder_policy(tenant_id: int) -> ReminderPolicy:
    return policy_read(ReminderPolicy, tenant_id)
