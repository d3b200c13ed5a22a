from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PermanentConfig(AppConfig):
    name = "permanent"
    verbose_name = _("Permanent memory")
