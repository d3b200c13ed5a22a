"""Finding every row that belongs to one end user, in every layer and every history table.

Rather than a hand-kept list that goes stale whenever a layer adds a model, the rows are found by
structure: a model with both a tenant and a `user_id` holds the user's rows directly; a model with a
foreign key (or, in a history table, the id column of one) to rows already found holds them
indirectly (turns of their sessions, versions of their entries, approvals of their requests, ...).
"""
from __future__ import annotations

import datetime
import decimal
import uuid
from dataclasses import dataclass, field

from django.apps import apps
from django.db import models

# Apps that store end-user data. Audit is never touched (its rows are pseudonymous and append-only);
# tenancy holds staff and keys, not end users.
USER_DATA_APPS = ("short_term", "transient", "long_term", "long_term_graph", "formation", "permanent", "reminders")
# Derived columns that only repeat the content in another form and are not useful in an export.
EXPORT_SKIPPED_FIELDS = {"embedding", "search_vector", "keywords", "term_freqs"}


@dataclass
class UserRows:
    """Primary keys of the user's rows per model (`app_label.modelname`), ordered parents first."""
    ids: dict[str, list] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def add(self, label: str, pks: list) -> bool:
        known = self.ids.setdefault(label, [])
        seen = set(known)
        new = [pk for pk in pks if pk not in seen]
        if label not in self.order:
            self.order.append(label)
        known.extend(new)
        return bool(new)


def _label(model) -> str:
    return model._meta.label_lower


def _is_history(model) -> bool:
    return hasattr(model, "instance_type") or model.__name__.startswith("Historical")


def _tracked_model(history_model):
    """The model a simple-history table records versions of."""
    return getattr(history_model, "instance_type", None)


def user_data_models() -> list:
    found = []
    for label in USER_DATA_APPS:
        try:
            app_config = apps.get_app_config(label)
        except LookupError:
            continue
        found.extend(app_config.get_models())
    return found


def _field_names(model) -> set[str]:
    return {f.name for f in model._meta.concrete_fields}


def _pk_name(model) -> str:
    return "history_id" if _is_history(model) else model._meta.pk.attname


def _references(model) -> list[tuple[str, str]]:
    """(column, target label) for each link to another model, history tables included (they keep
    links as plain id columns)."""
    links = []
    for f in model._meta.concrete_fields:
        if isinstance(f, models.ForeignKey):
            links.append((f.attname, _label(f.related_model)))
    return links


def user_rows_find(*, tenant_id: int, user_id: str) -> UserRows:
    """All primary keys, per model, of rows that hold or point to the user's data."""
    rows = UserRows()
    models_ = user_data_models()
    live = [m for m in models_ if not _is_history(m)]
    for model in live:
        names = _field_names(model)
        if "user_id" in names and "tenant" in names:
            rows.add(_label(model), list(model.objects.filter(tenant_id=tenant_id, user_id=user_id)
                                         .values_list("pk", flat=True)))
    # Follow links to rows already found until nothing new turns up.
    changed = True
    while changed:
        changed = False
        for model in live:
            for column, target in _references(model):
                target_ids = rows.ids.get(target)
                if target_ids and target != _label(model):
                    pks = list(model.objects.filter(**{f"{column}__in": target_ids}).values_list("pk", flat=True))
                    changed |= rows.add(_label(model), pks)
    return rows


def history_rows_find(*, rows: UserRows, tenant_id: int, user_id: str) -> UserRows:
    """History rows of the user's records: by the tracked row's id, and by user_id for rows whose
    live record is already gone."""
    found = UserRows()
    for model in user_data_models():
        tracked = _tracked_model(model)
        if tracked is None:
            continue
        tracked_ids = rows.ids.get(_label(tracked), [])
        pk_column = tracked._meta.pk.attname
        queryset = model.objects.none()
        if tracked_ids:
            queryset = model.objects.filter(**{f"{pk_column}__in": tracked_ids})
        names = _field_names(model)
        if "user_id" in names and "tenant" in names:
            queryset = queryset | model.objects.filter(tenant_id=tenant_id, user_id=user_id)
        for column, target in _references(model):
            target_ids = rows.ids.get(target)
            if target_ids:
                queryset = queryset | model.objects.filter(**{f"{column}__in": target_ids})
        pks = list(queryset.values_list("history_id", flat=True).distinct())
        if pks:
            found.add(_label(model), pks)
    return found


def _json_safe(value):
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, (bytes, memoryview)):
        return None
    return value


def _serialise(model, pks: list) -> list[dict]:
    columns = [f.attname for f in model._meta.concrete_fields
               if f.name not in EXPORT_SKIPPED_FIELDS and not isinstance(f, models.GeneratedField)]
    values = model.objects.filter(**{f"{_pk_name(model)}__in": pks}).order_by(_pk_name(model)).values(*columns)
    return [{key: _json_safe(value) for key, value in row.items()} for row in values]


def user_export(*, tenant_id: int, user_id: str) -> dict:
    """Everything stored about the user, per model, history included."""
    rows = user_rows_find(tenant_id=tenant_id, user_id=user_id)
    history = history_rows_find(rows=rows, tenant_id=tenant_id, user_id=user_id)
    data = {}
    for found in (rows, history):
        for label in found.order:
            if found.ids[label]:
                data[label] = _serialise(apps.get_model(label), found.ids[label])
    return data


def model_for(label: str):
    return apps.get_model(label)
