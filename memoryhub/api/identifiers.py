"""The one rule for an end user's id, shared by every layer's validation and every input serializer.

A user id is stored and compared exactly as sent, so " alice" and "alice" would be two users on write
while a trimming reader (DRF's CharField trims by default) would find the other one. Rather than guess
which one the client meant, an id with surrounding whitespace (any Unicode space, as `str.strip`
sees it) or control characters is refused, on every write and every read.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from memoryhub.core.errors import InvalidInput


def user_id_error(value: Any, *, max_length: int | None = None) -> str | None:
    """Why `value` is not a usable user id (a translated sentence), or None when it is."""
    if not isinstance(value, str) or not value:
        return _("user_id must be a non-empty string")
    if max_length is not None and len(value) > max_length:
        return _("user_id is longer than %(max)d characters") % {"max": max_length}
    if value != value.strip():
        return _("user_id must not start or end with spaces")
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in value):
        return _("user_id must not contain control characters")
    return None


def validate_user_id(value: Any, *, max_length: int | None = None, field: str = "user_id") -> str:
    """The user id, or a 400 `invalid_user_id` naming the field."""
    problem = user_id_error(value, max_length=max_length)
    if problem:
        raise InvalidInput(problem, code="invalid_user_id", details={"fields": {field: [problem]}})
    return value
