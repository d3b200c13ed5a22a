"""The staff groups the roles map to. Their permissions are filled in by the apps that own the models
(memoryhub/console/roles.py, after every migrate); this one only makes sure the groups exist."""
from django.db import migrations

GROUPS = ("editor", "reviewer", "auditor")


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in GROUPS:
        Group.objects.get_or_create(name=name)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [("tenancy", "0002_vector_extension"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_groups, remove_groups)]
