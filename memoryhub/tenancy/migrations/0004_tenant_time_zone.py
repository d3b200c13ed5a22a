from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tenancy", "0003_staff_groups")]
    operations = [
        migrations.AddField(
            model_name="tenant", name="time_zone",
            field=models.CharField(default="UTC", max_length=64, verbose_name="time zone"),
        ),
    ]
