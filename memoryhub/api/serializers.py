"""Serializer plumbing shared by the API apps."""
from __future__ import annotations

import threading
from collections.abc import Mapping

from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from memoryhub.api.identifiers import user_id_error

_fields_by_thread = threading.local()


class InputSerializer(serializers.Serializer):
    """The base of every request-body serializer: a field it does not declare is refused (400 naming
    it), never silently dropped. A misspelt filter (`kind` for `kinds`) or a field a client believes is
    stored must not vanish without a word. Nested input serializers inherit the rule item by item."""

    default_error_messages = {"unknown_field": _("unknown field")}

    def to_internal_value(self, data):
        unknown: dict = {}
        if isinstance(data, Mapping):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            unknown = {str(name): [self.error_messages["unknown_field"]] for name in data if name not in writable}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # One answer names everything: the unknown fields and what the declared ones lack.
            if unknown and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**exc.detail, **unknown}) from None
            raise
        if unknown:
            raise serializers.ValidationError(unknown, code="unknown_field")
        return value


class UserIdField(serializers.CharField):
    """An end user's id as every layer takes it: kept exactly as sent (no trimming) and refused when it
    has surrounding spaces or control characters (`memoryhub.api.identifiers.user_id_error`)."""

    def __init__(self, **kwargs):
        kwargs["trim_whitespace"] = False
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value == "" and self.allow_blank:
            return value  # "no user" where a field allows it (permanent entries: the global scope)
        problem = user_id_error(value, max_length=self.max_length)
        if problem:
            raise serializers.ValidationError(problem, code="invalid")
        return value


class FieldsReusedPerThread:
    """A serializer whose fields are built once per thread instead of once per instance.

    DRF builds every field for each serializer instance: it deep-copies the declared fields (a copy re-runs
    the field's constructor: validators, choice maps), and a ModelSerializer builds its fields from the model
    again. For the search input's seventeen fields that cost more than parsing the body; for a turn append's
    output (a session and a turn) about a millisecond of CPU per response. Reusing them is sound for flat
    serializers of plain fields (no nested serializers, no validators that read the serializer's instance):
    such fields keep no state between uses, and a thread serves one request at a time. The reused fields are
    pointed at the serializer in use, so `root`, `context` and a SerializerMethodField's method stay right.
    """

    @cached_property
    def fields(self):
        by_class = _fields_by_thread.__dict__.setdefault("by_class", {})
        fields = by_class.get(type(self))
        if fields is None:
            fields = by_class[type(self)] = serializers.Serializer.fields.func(self)
            return fields
        fields.serializer = self
        for field in fields.values():
            field.parent = self
        return fields


class HotPathInputSerializer(FieldsReusedPerThread, InputSerializer):
    """An input serializer whose fields are built once per thread instead of once per request
    (FieldsReusedPerThread)."""
