"""Propose and approve permanent changes in tests."""
from permanent.services import change_request_approve, change_request_propose


def propose(tenant, user, key="safety.max_refunds", value=None, action="create", **kw):
    return change_request_propose(tenant=tenant, key=key, action=action, proposer_user=user,
                                  value={"limit": 3} if value is None and action in ("create", "update") else value,
                                  **kw)


def approve(change_request, reviewer, **kw):
    return change_request_approve(change_request=change_request, reviewer=reviewer,
                                  payload_hash=change_request.payload_hash, **kw)
