"""Give the staff groups (made in tenancy 0003) their permissions on permanent and audit models."""
from django.contrib.auth.management import create_permissions
from django.db import migrations


def grant(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make them exist now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    from permanent.staff import staff_groups_grant

    staff_groups_grant(group_model=apps.get_model("auth", "Group"),
                       permission_model=apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("permanent", "0002_version_immutable_trigger"),
        ("tenancy", "0003_staff_groups"),
        ("audit", "0002_append_only_trigger"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
