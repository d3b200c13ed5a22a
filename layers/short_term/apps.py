from django.apps import AppConfig


class ShortTermConfig(AppConfig):
    name = "layers.short_term"
    label = "short_term"
