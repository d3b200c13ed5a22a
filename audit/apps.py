from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = _("Audit trail")

    def ready(self):
        from audit import receivers
        from memoryhub.tenancy.signals import tenancy_changed

        tenancy_changed.connect(receivers.on_tenancy_changed, dispatch_uid="audit.on_tenancy_changed")
