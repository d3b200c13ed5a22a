"""The history pages of django-simple-history in the console: each version titled by its number, when,
who and why ("v3 · 1 Dec 2026, 12:00 · by alice · change request #5"), not by the row's timestamp or
its `__str__`, which is the same for every version."""
from __future__ import annotations

from django.contrib.admin.utils import unquote
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.template.response import TemplateResponse
from django.utils import formats
from django.utils.translation import gettext as _


def history_version_title(*, number: int, when, user=None, change_request_id: int | None = None) -> str:
    title = _("v%(number)d · %(when)s") % {"number": number,
                                           "when": formats.date_format(when, "DATETIME_FORMAT")}
    if user is not None:
        title += " · " + _("by %(user)s") % {"user": user.get_username()}
    if change_request_id:
        title += " · " + _("change request #%(id)d") % {"id": change_request_id}
    return title


class VersionTitledHistoryMixin:
    """For a `SimpleHistoryAdmin`: numbers the versions from the oldest (1) and titles each one.

    A model admin names a version's change request, where it has one, by `history_change_request_ids`.
    """

    object_history_list_template = "admin/console/object_history_list.html"

    def get_history_queryset(self, request, history_manager, pk_name, object_id):
        records = super().get_history_queryset(request, history_manager, pk_name, object_id)
        return records.annotate(version_number=Window(
            RowNumber(), order_by=[F("history_date").asc(), F("history_id").asc()]))

    def history_change_request_ids(self, records) -> dict[int, int]:
        """history_id → the change request that made that version; none by default."""
        return {}

    def history_view(self, request, object_id, extra_context=None):
        response = super().history_view(request, object_id, extra_context)
        page_obj = (getattr(response, "context_data", None) or {}).get("page_obj")
        if page_obj is None:
            return response
        # The same record objects the template iterates (simple-history set its diffs on them).
        page_obj.object_list = records = list(page_obj.object_list)
        change_requests = self.history_change_request_ids(records)
        for record in records:
            record.version_title = history_version_title(
                number=record.version_number, when=record.history_date,
                user=getattr(record, "history_user", None),
                change_request_id=change_requests.get(record.history_id))
        return response

    def render_history_view(self, request, template, context, **kwargs):
        # A TemplateResponse, not simple-history's rendered page, so history_view can title the
        # records of the page it is about to show.
        return TemplateResponse(request, template, context, **kwargs)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        """One version's page, titled like its row in the list."""
        history = getattr(self.model, self.model._meta.simple_history_manager_attribute)
        records = self.get_history_queryset(request, history, self.model._meta.pk.attname, unquote(object_id))
        record = next((r for r in records if str(r.pk) == str(version_id)), None)
        if record is not None:
            title = history_version_title(
                number=record.version_number, when=record.history_date,
                user=getattr(record, "history_user", None),
                change_request_id=self.history_change_request_ids([record]).get(record.history_id))
            extra_context = {"title": f"{record.instance} · {title}", **(extra_context or {})}
        return super().history_form_view(request, object_id, version_id, extra_context)
