from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ForgettingConfig(AppConfig):
    """Forgetting: the lifecycle jobs of every layer, run by the beat and by `manage.py forget`."""

    name = "layers.forgetting"
    label = "forgetting"
    verbose_name = _("Forgetting")
