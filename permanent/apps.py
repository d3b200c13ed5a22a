from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class PermanentConfig(AppConfig):
    name = "permanent"
    verbose_name = _("Permanent memory")

    def ready(self):
        from memoryhub.tenancy.models import Membership
        from permanent.staff import grant_after_migrate, on_membership_changed

        # The console's permissions follow tenant roles without a second step by an operator.
        post_save.connect(on_membership_changed, sender=Membership, dispatch_uid="permanent-membership-groups")
        post_delete.connect(on_membership_changed, sender=Membership, dispatch_uid="permanent-membership-groups-del")
        # This app is migrated last, so every other app's permissions exist by the time this runs.
        post_migrate.connect(grant_after_migrate, sender=self, dispatch_uid="permanent-staff-groups")
