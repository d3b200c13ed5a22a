"""Re-grant the staff groups once long-term memories exist, so editors, reviewers and auditors get
their memory permissions too (0003 ran before that model's migration)."""
from django.db import migrations



def grant(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    from permanent.staff import staff_groups_grant

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    staff_groups_grant(group_model=apps.get_model("auth", "Group"),
                       permission_model=apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [("permanent", "0003_staff_permissions"), ("long_term", "0001_initial")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
