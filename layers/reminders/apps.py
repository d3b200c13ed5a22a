from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RemindersConfig(AppConfig):
    name = "layers.reminders"
    label = "reminders"
    verbose_name = _("Reminders and scheduled intents")

    def ready(self):
        # Short-term's append calls us through its annotator registry, so its import never points up
        # (docs/architecture.md, "Dependency rules"); the append response carries our `reminders`.
        from layers.reminders.services.turns import reminders_from_turns
        from layers.short_term.services.turns import append_annotator_register

        append_annotator_register("reminders", reminders_from_turns)
