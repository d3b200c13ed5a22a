"""The staff console's site and the admin building blocks every app's `admin.py` uses."""
from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

admin.site.site_header = _("memoryhub console")
admin.site.site_title = _("memoryhub console")
admin.site.index_title = _("Memory layers, approvals and audit")
admin.site.site_url = None  # there is no public site besides the API


class ReadOnlyAdminMixin:
    """Staff inspect these rows; every change goes through a service (an action or a custom view),
    never through the admin's own add / change / delete forms. Works for model admins and inlines."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# The staff setup page (registered here, where the admin's autodiscovery imports the console).
from memoryhub.console import staff as _staff  # noqa: E402,F401
