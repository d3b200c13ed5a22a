"""simple-history's admin saves a historical version back over the row when its version page is
posted; in this console only the services change anything, so that page is read-only here."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied


class ReadOnlyHistoryMixin:
    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method != "GET":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)

    def save_model(self, request, obj, form, change):
        raise PermissionDenied

    def delete_model(self, request, obj):
        raise PermissionDenied
