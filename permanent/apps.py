from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PermanentConfig(AppConfig):
    name = "permanent"
    verbose_name = _("Permanent memory")

    def ready(self):
        from memoryhub.core.policy import policy_source_register
        from permanent.selectors import permanent_global_values

        # Policy numbers of every layer are overridden by approved global entries under `policy.`.
        policy_source_register(permanent_global_values)
