from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FormationConfig(AppConfig):
    """Memory formation: summarisation and extraction from sessions into long-term memory."""

    name = "layers.formation"
    label = "formation"
    verbose_name = _("Memory formation")

    def ready(self) -> None:
        from layers.formation import receivers
        from layers.short_term.signals import session_ended, turns_appended

        turns_appended.connect(receivers.on_turns_appended, dispatch_uid="formation.on_turns_appended")
        session_ended.connect(receivers.on_session_ended, dispatch_uid="formation.on_session_ended")
