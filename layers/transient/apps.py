from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TransientConfig(AppConfig):
    name = "layers.transient"
    label = "transient"
    verbose_name = _("Transient memory (task state)")
