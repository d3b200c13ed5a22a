"""Every change to the permanent layer goes through these services; each is audited in the same
transaction as the change."""
from permanent.services.applying import change_request_apply, change_requests_apply_due
from permanent.services.proposals import (
    change_request_propose,
    change_request_propose_retire,
    change_request_propose_rollback,
    change_request_schedule,
    change_request_withdraw,
)
from permanent.services.reviews import change_request_approve, change_request_reject

__all__ = [
    "change_request_apply", "change_requests_apply_due", "change_request_propose",
    "change_request_propose_retire", "change_request_propose_rollback", "change_request_schedule",
    "change_request_withdraw", "change_request_approve", "change_request_reject",
]
