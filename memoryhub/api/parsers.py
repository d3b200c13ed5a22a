"""A JSON parser that turns every malformed body into a 400 instead of a 500 further down.

Numbers are held to what every store and client can take: a float that overflows to infinity (`1e999`)
cannot be written to a JSON column (PostgreSQL refuses it) and an integer beyond 64 bits overflows
every integer column and loses digits in JavaScript clients, so both are refused at parse time for
every endpoint, wherever in the body they stand.
"""
from __future__ import annotations

import json
import math

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from memoryhub.api.strings import find_bad_string
from memoryhub.core.errors import TooLarge


INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range (it is not a finite 64-bit float)")
    return value


def _int64(text: str) -> int:
    value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise ValueError(f"the integer {text[:40]}{'…' if len(text) > 40 else ''} is out of range "
                         f"(integers must fit in 64 bits)")
    return value


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
            parsed = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_int64)
        except RecursionError:
            raise ParseError("JSON is nested too deeply")
        except ValueError as exc:
            raise ParseError(f"malformed JSON: {exc}")
        found = find_bad_string(parsed)
        if found:
            raise ParseError(f"string at {found[0]} {found[1]}")
        return parsed
