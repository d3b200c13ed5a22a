from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LongTermGraphConfig(AppConfig):
    name = "layers.long_term.graph"
    label = "long_term_graph"
    verbose_name = _("relation graph")

    def ready(self):
        from layers.long_term.graph import receivers  # noqa: F401  (connects the memory write receiver)
