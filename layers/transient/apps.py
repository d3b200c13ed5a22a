from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TransientConfig(AppConfig):
    name = "layers.transient"
    label = "transient"
    verbose_name = _("Transient memory (task state)")

    def ready(self):
        # Short-term's append calls us through its annotator registry, so its import never points up
        # (docs/architecture.md, "Dependency rules"); the append response carries our `resolutions`.
        from layers.short_term.services.turns import append_annotator_register
        from layers.transient.services.entities import entity_registry_update

        append_annotator_register("resolutions", entity_registry_update)
