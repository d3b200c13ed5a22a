"""A JSON parser that turns every malformed body into a 400 instead of a 500 further down."""
from __future__ import annotations

import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from memoryhub.api.strings import find_bad_string
from memoryhub.core.errors import TooLarge


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.MAX_REQUEST_BODY_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise TooLarge(f"request body is larger than {limit} bytes", code="body_too_large",
                           details={"limit_bytes": limit})
        if not raw:
            raise ParseError("request body is empty; send a JSON object")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError("request body is not valid UTF-8")
        try:
            parsed = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError("JSON is nested too deeply")
        except ValueError as exc:
            raise ParseError(f"malformed JSON: {exc}")
        found = find_bad_string(parsed)
        if found:
            raise ParseError(f"string at {found[0]} {found[1]}")
        return parsed
