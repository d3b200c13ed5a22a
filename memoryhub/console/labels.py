"""Column and filter titles in the reader's language for fields declared without a verbose_name.

Django names such a field after itself ("tenant", "task type") as a plain string, so the console
showed it in English on a Chinese page. Giving every such field a lazily translated name here, at
start-up, fixes every page at once without a migration: migrations record only a verbose_name passed
to the field (`Field._verbose_name`), not the one Django derives. The msgids live in
locale/zh_Hans (tests/memoryhub/console/test_console_pages.py checks each has a translation).
Models are found by app label (`apps.get_app_config`): the console sits below the apps it labels.
"""
from __future__ import annotations

from django.apps import apps
from django.utils.translation import gettext_lazy

PROJECT_APPS = ("tenancy", "outbox", "audit", "permanent", "transient", "short_term", "long_term", "formation",
                "forgetting", "context", "erasure")


def auto_named_fields():
    """(model, field) for every field of the project's models whose name Django derived."""
    for label in PROJECT_APPS:
        try:
            config = apps.get_app_config(label)
        except LookupError:
            continue
        for model in config.get_models():
            for field in model._meta.get_fields(include_hidden=False):
                if getattr(field, "concrete", False) or getattr(field, "many_to_many", False):
                    if getattr(field, "_verbose_name", "") is None:
                        yield model, field


def translate_auto_field_names() -> None:
    for _model, field in auto_named_fields():
        if isinstance(field.verbose_name, str):
            field.verbose_name = gettext_lazy(field.verbose_name)
