from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class ConsoleConfig(AppConfig):
    """The staff console: admin site, dashboard, staff groups and roles, permission policies."""

    name = "memoryhub.console"
    label = "console"
    verbose_name = _("Console")

    def ready(self):
        from memoryhub.console.labels import translate_auto_field_names
        from memoryhub.console.roles import grant_after_migrate, on_membership_changed

        translate_auto_field_names()
        from memoryhub.tenancy.models import Membership

        # The console's permissions follow tenant roles without a second step by an operator.
        post_save.connect(on_membership_changed, sender=Membership, dispatch_uid="console-membership-groups")
        post_delete.connect(on_membership_changed, sender=Membership, dispatch_uid="console-membership-groups-del")
        # This app is installed last, so every other app's permissions exist by the time this runs.
        post_migrate.connect(grant_after_migrate, sender=self, dispatch_uid="console-staff-groups")
