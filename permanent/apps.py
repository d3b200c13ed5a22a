from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _


class PermanentConfig(AppConfig):
    name = "permanent"
    verbose_name = _("Permanent memory")

    def ready(self):
        from memoryhub.tenancy.models import Membership
        from permanent.staff import on_membership_changed

        # The console's permissions follow tenant roles without a second step by an operator.
        post_save.connect(on_membership_changed, sender=Membership, dispatch_uid="permanent-membership-groups")
        post_delete.connect(on_membership_changed, sender=Membership, dispatch_uid="permanent-membership-groups-del")
