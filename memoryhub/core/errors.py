"""The one domain error type. Services raise it; the API maps it to a 4xx in the error format."""
from __future__ import annotations

from typing import Any


class DomainError(Exception):
    status_code = 400
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, details: dict[str, Any] | None = None,
                 status_code: int | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status_code is not None:
            self.status_code = status_code
        self.details = details or {}


class InvalidInput(DomainError):
    status_code = 400
    code = "invalid"


class NotFound(DomainError):
    status_code = 404
    code = "not_found"


class Conflict(DomainError):
    status_code = 409
    code = "conflict"


class Forbidden(DomainError):
    status_code = 403
    code = "forbidden"


class Gone(DomainError):
    status_code = 404
    code = "gone"


class TooLarge(DomainError):
    status_code = 413
    code = "too_large"


class Unprocessable(DomainError):
    status_code = 422
    code = "unprocessable"
