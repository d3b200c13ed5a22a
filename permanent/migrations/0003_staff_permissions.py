"""Kept for the migration history. The staff groups' permissions are granted by the console after every
migrate (memoryhub/console/roles.py, `grant_after_migrate`), once every app's permissions exist."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("permanent", "0002_version_immutable_trigger"),
        ("tenancy", "0003_staff_groups"),
        ("audit", "0002_append_only_trigger"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = []
