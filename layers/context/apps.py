from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContextConfig(AppConfig):
    """Context assembly: the prompt blocks drawn from every layer within a token budget."""

    name = "layers.context"
    label = "context"
    verbose_name = _("Context assembly")
