from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TenancyConfig(AppConfig):
    name = "memoryhub.tenancy"
    label = "tenancy"
    verbose_name = _("Tenants and API keys")

    def ready(self):
        from memoryhub.api import schema  # noqa: F401  registers the OpenAPI auth extension
