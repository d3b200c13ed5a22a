"""Which model permissions each staff group holds. Used by the data migration and by test fixtures
(transactional tests truncate the group rows the migration made)."""
from __future__ import annotations

# "app_label.codename"; codenames of apps not installed yet are skipped, not errors.
_READ_PERMANENT = (
    "permanent.view_permanententry", "permanent.view_permanentversion", "permanent.view_changerequest",
    "permanent.view_approval",
)
_READ_MEMORIES = ("long_term.view_memory",)
# Staff inspect sessions and task state; editors maintain the task types agents fill in.
_READ_SESSIONS = ("short_term.view_session", "short_term.view_turn", "short_term.view_sessionsummary",
                  "transient.view_tasktype", "transient.view_taskstate")
_EDIT_TASK_TYPES = ("transient.add_tasktype", "transient.change_tasktype")
# Reminders: staff read them and may cancel one (the change list's action); editors keep the webhook.
_HANDLE_REMINDERS = ("reminders.view_reminder", "reminders.change_reminder", "reminders.view_remindersettings")
_EDIT_REMINDER_SETTINGS = ("reminders.add_remindersettings", "reminders.change_remindersettings")

GROUP_PERMISSIONS: dict[str, tuple[str, ...]] = {
    "editor": _READ_PERMANENT + _READ_MEMORIES + _READ_SESSIONS + _EDIT_TASK_TYPES + _HANDLE_REMINDERS
    + _EDIT_REMINDER_SETTINGS + ("permanent.add_changerequest",),
    "reviewer": _READ_PERMANENT + _READ_MEMORIES + _READ_SESSIONS + _HANDLE_REMINDERS + (
        "permanent.add_changerequest", "permanent.review_changerequest", "long_term.change_memory",
    ),
    "auditor": _READ_PERMANENT + _READ_MEMORIES + (
        "audit.view_auditevent", "tenancy.view_tenant", "tenancy.view_apikey", "tenancy.view_membership",
    ),
}


# Auditors read everything the project stores: every view permission of these apps.
AUDITOR_READS_APPS = ("permanent", "audit", "tenancy", "long_term", "short_term", "transient", "formation",
                      "reminders")


def staff_groups_grant(*, group_model, permission_model) -> None:
    """Create the groups if missing and give each exactly its listed permissions that exist."""
    for name, codenames in GROUP_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=name)
        permissions = []
        for dotted in codenames:
            app_label, codename = dotted.split(".", 1)
            found = permission_model.objects.filter(content_type__app_label=app_label, codename=codename).first()
            if found is not None:
                permissions.append(found)
        if name == "auditor":
            permissions.extend(permission_model.objects.filter(content_type__app_label__in=AUDITOR_READS_APPS,
                                                               codename__startswith="view_"))
        group.permissions.set(set(permissions))


STAFF_GROUPS = tuple(GROUP_PERMISSIONS)


def membership_groups_sync(user) -> None:
    """Roles map to groups: a staff user is in exactly the staff groups named by their memberships'
    roles (other groups are left alone). Groups that do not exist are skipped."""
    from django.contrib.auth.models import Group

    from memoryhub.tenancy.models import Membership

    roles = set(Membership.objects.filter(user=user).values_list("role", flat=True))
    for group in Group.objects.filter(name__in=STAFF_GROUPS):
        if group.name in roles:
            user.groups.add(group)
        else:
            user.groups.remove(group)


def on_membership_changed(sender, instance, **kwargs) -> None:
    membership_groups_sync(instance.user)


def grant_after_migrate(sender, **kwargs) -> None:
    """Re-grant after every migrate: models added by later migrations (other apps) get their view
    permissions into the auditor group too. The groups themselves come from the data migration."""
    from django.contrib.auth.models import Group, Permission

    staff_groups_grant(group_model=Group, permission_model=Permission)
