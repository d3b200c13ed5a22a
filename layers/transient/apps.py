from django.apps import AppConfig


class TransientConfig(AppConfig):
    name = "layers.transient"
    label = "transient"
