from django.apps import AppConfig


class FormationConfig(AppConfig):
    """Memory formation: summarisation and extraction from sessions into long-term memory."""

    name = "layers.formation"
    label = "formation"
