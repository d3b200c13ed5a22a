"""Serializer plumbing shared by the API apps."""
from __future__ import annotations

import threading

from django.utils.functional import cached_property
from rest_framework import serializers

_fields_by_thread = threading.local()


class HotPathInputSerializer(serializers.Serializer):
    """An input serializer whose fields are built once per thread instead of once per request.

    DRF deep-copies every declared field for each serializer instance, and a copy re-runs the field's
    constructor (validators, choice maps): for the search input's seventeen fields that cost more than
    parsing the body. Reusing them is sound for flat serializers of plain fields (no nested serializers,
    no validators that read the serializer's instance): such fields keep no state between validations,
    and a thread validates one request at a time. The reused fields are pointed at the serializer in use,
    so `root` and `context` stay right.
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
