"""Keyset (cursor) pagination over a unique, ordered column."""
from __future__ import annotations

import base64
import binascii
import json

from django.utils.translation import gettext as _

from memoryhub.core.errors import InvalidInput

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


def _encode(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def _decode(cursor: str):
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        return json.loads(base64.urlsafe_b64decode(padded.encode()).decode())
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise _invalid_cursor() from None


def _invalid_cursor() -> InvalidInput:
    return InvalidInput(_("The cursor is not one this API issued."), code="invalid_cursor")


def parse_limit(raw: str | None, default: int = DEFAULT_LIMIT) -> int:
    if raw in (None, ""):
        return default
    try:
        limit = int(raw)
    except ValueError:
        raise InvalidInput("limit must be an integer", code="invalid_limit")
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}", code="invalid_limit")
    return limit


def paginate_keyset(queryset, *, params, field: str = "id", descending: bool = False, default_limit: int = DEFAULT_LIMIT):
    """Return (rows, next_cursor) from `params` (`cursor`, `limit`) over a unique integer field."""
    limit = parse_limit(params.get("limit"), default_limit)
    cursor = params.get("cursor")
    if cursor:
        after = _decode(cursor)
        if not isinstance(after, int) or isinstance(after, bool):
            raise _invalid_cursor()
        queryset = queryset.filter(**{f"{field}__lt" if descending else f"{field}__gt": after})
    queryset = queryset.order_by(f"-{field}" if descending else field)
    rows = list(queryset[: limit + 1])
    next_cursor = _encode(getattr(rows[limit - 1], field)) if len(rows) > limit else None
    return rows[:limit], next_cursor


def paginate_sorted(items: list[dict], *, params, key: str, default_limit: int = DEFAULT_LIMIT):
    """`paginate_keyset` for an in-memory list already sorted by a unique string `key`."""
    limit = parse_limit(params.get("limit"), default_limit)
    cursor = params.get("cursor")
    if cursor:
        after = _decode(cursor)
        if not isinstance(after, str):
            raise _invalid_cursor()
        items = [item for item in items if item[key] > after]
    next_cursor = _encode(items[limit - 1][key]) if len(items) > limit else None
    return items[:limit], next_cursor
