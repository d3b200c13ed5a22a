"""Exceptions of the client: one class per HTTP status family, and one per error code an agent is likely
to handle on its own. Every 4xx/5xx of memoryhub is `{"error": {"code", "message", "details"}}`
(memoryhub/api/errors.py); the code picks the class, the status the fallback for a code not listed."""
from __future__ import annotations

from typing import Any


class MemoryhubError(Exception):
    """Anything the client raises on purpose."""


class TransportError(MemoryhubError):
    """The server could not be reached or did not answer in time, after every retry."""


class APIError(MemoryhubError):
    status_code: int = 0

    def __init__(self, *, status_code: int, code: str, message: str, details: dict[str, Any] | None = None,
                 request_id: str | None = None, retry_after: float | None = None):
        super().__init__(f"{status_code} {code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.details = details or {}
        self.request_id = request_id
        self.retry_after = retry_after


class BadRequestError(APIError):
    status_code = 400


class AuthenticationError(APIError):
    status_code = 401


class PermissionDeniedError(APIError):
    status_code = 403


class NotFoundError(APIError):
    status_code = 404


class ConflictError(APIError):
    status_code = 409


class PayloadTooLargeError(APIError):
    status_code = 413


class UnprocessableError(APIError):
    status_code = 422


class RateLimitedError(APIError):
    status_code = 429


class ServerError(APIError):
    status_code = 500


# Per error code. Names follow the code; bases follow the status the server answers it with.
class ValidationFailedError(BadRequestError):
    """`invalid`: a field did not validate; `details["fields"]` names each."""


class MalformedRequestError(BadRequestError):
    """`malformed_request`: the body is not JSON."""


class SecretDetectedError(BadRequestError):
    """`secret_detected`: a memory carried a password, key or card number; the batch was refused whole."""


class InvalidCursorError(BadRequestError):
    pass


class ClientIdReusedError(ConflictError):
    """`client_id_reused`: the client id names an earlier write with a different payload."""


class IllegalTransitionError(ConflictError):
    """`illegal_transition` / `invalid_transition`: the record's state does not allow this change."""


class PendingRequestExistsError(ConflictError):
    pass


class BaseVersionMovedError(ConflictError):
    pass


class SessionExpiredError(ConflictError):
    pass


class SessionNotFoundError(NotFoundError):
    pass


class TaskNotFoundError(NotFoundError):
    pass


class TaskExpiredError(NotFoundError):
    pass


class EntryNotFoundError(NotFoundError):
    pass


class ChangeRequestNotFoundError(NotFoundError):
    pass


class ReminderNotFoundError(NotFoundError):
    pass


class BudgetTooSmallError(UnprocessableError):
    pass


class ContendedError(ServerError):
    """`contended` (503): lost to concurrent writes, nothing was applied; safe to send again."""
    status_code = 503


ERRORS_BY_CODE: dict[str, type[APIError]] = {
    "unauthenticated": AuthenticationError,
    "forbidden": PermissionDeniedError,
    "not_found": NotFoundError,
    "invalid": ValidationFailedError,
    "malformed_request": MalformedRequestError,
    "secret_detected": SecretDetectedError,
    "invalid_cursor": InvalidCursorError,
    "rate_limited": RateLimitedError,
    "body_too_large": PayloadTooLargeError,
    "client_id_reused": ClientIdReusedError,
    "illegal_transition": IllegalTransitionError,
    "invalid_transition": IllegalTransitionError,
    "pending_request_exists": PendingRequestExistsError,
    "base_version_moved": BaseVersionMovedError,
    "session_expired": SessionExpiredError,
    "session_not_found": SessionNotFoundError,
    "task_not_found": TaskNotFoundError,
    "task_expired": TaskExpiredError,
    "entry_not_found": EntryNotFoundError,
    "change_request_not_found": ChangeRequestNotFoundError,
    "reminder_not_found": ReminderNotFoundError,
    "budget_too_small": BudgetTooSmallError,
    "contended": ContendedError,
}

# each status family's class, keyed by the status it declares
_ERRORS_BY_STATUS: dict[int, type[APIError]] = {cls.status_code: cls for cls in (
    BadRequestError, AuthenticationError, PermissionDeniedError, NotFoundError, ConflictError,
    PayloadTooLargeError, UnprocessableError, RateLimitedError)}


def error_class(status_code: int, code: str) -> type[APIError]:
    """The class for an answer: its code's own (when the status agrees), else its status family's."""
    by_code = ERRORS_BY_CODE.get(code)
    if by_code is not None and by_code.status_code == status_code:
        return by_code
    if status_code >= 500:
        return ServerError
    return _ERRORS_BY_STATUS.get(status_code, APIError)
