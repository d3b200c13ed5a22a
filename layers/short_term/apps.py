from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ShortTermConfig(AppConfig):
    name = "layers.short_term"
    label = "short_term"
    verbose_name = _("Short-term memory")
