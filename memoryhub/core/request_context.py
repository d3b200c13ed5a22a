"""The id of the request being served, for audit rows and logs written deep inside services."""
from contextvars import ContextVar

current_request_id: ContextVar[str] = ContextVar("current_request_id", default="")
