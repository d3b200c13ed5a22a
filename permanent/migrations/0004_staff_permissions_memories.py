"""Kept for the migration history; see 0003 (the console grants the staff groups after every migrate).
The permanent app depends on no layer, so neither does this migration."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("permanent", "0003_staff_permissions")]
    operations = []
