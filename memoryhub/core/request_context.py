"""The request being served: its id, for audit rows and logs written deep inside services, and the API
caller it came from, for the database router's read-your-writes (memoryhub/core/db_router.py)."""
from contextvars import ContextVar
from dataclasses import dataclass

current_request_id: ContextVar[str] = ContextVar("current_request_id", default="")


@dataclass
class Caller:
    tenant_id: int
    api_key_id: int
    # Set by the router at the caller's first long-term write in this request.
    wrote: bool = False


# Set when the request's API key is authenticated; reset with the request id (memoryhub/api/middleware.py).
current_caller: ContextVar[Caller | None] = ContextVar("current_caller", default=None)
