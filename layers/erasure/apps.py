from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ErasureConfig(AppConfig):
    """Export and erasure of one end user's data across every layer."""

    name = "layers.erasure"
    label = "erasure"
    verbose_name = _("User export and erasure")
