"""The auditors' console views beyond the admin list: CSV export of the filtered trail."""
from __future__ import annotations

import csv
import json

from django.http import StreamingHttpResponse
from django.utils import timezone

CSV_COLUMNS = ("tenant_id", "seq", "occurred_at", "actor_kind", "actor_id", "actor_label", "action", "object_type",
               "object_id", "subject", "before", "after", "request_id", "prev_hash", "hash")


class _Echo:
    def write(self, value):
        return value


def _csv_safe(value: str) -> str:
    # Spreadsheets run cells starting with these as formulas; an apostrophe keeps them text.
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def audit_events_csv_response(queryset) -> StreamingHttpResponse:
    """Stream the events as CSV, oldest first, so large trails do not sit in memory."""
    writer = csv.writer(_Echo())

    def rows():
        yield writer.writerow(CSV_COLUMNS)
        for event in queryset.order_by("tenant_id", "seq").iterator(chunk_size=2000):
            values = []
            for column in CSV_COLUMNS:
                value = getattr(event, column)
                if column in ("before", "after"):
                    value = "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
                elif column == "occurred_at":
                    value = value.isoformat()
                values.append(_csv_safe(str(value)))
            yield writer.writerow(values)

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    response["Content-Disposition"] = f'attachment; filename="audit-{stamp}.csv"'
    return response
