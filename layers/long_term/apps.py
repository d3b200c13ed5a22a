from django.apps import AppConfig


class LongTermConfig(AppConfig):
    name = "layers.long_term"
    label = "long_term"
