"""The tenant's time zone moves from ReminderSettings to the tenant (memoryhub/tenancy), where habits read
it too: each saved value is copied first, then the column goes. Reversible: back, each tenant's zone is
copied into its settings row again."""
from django.db import migrations


def to_tenant(apps, schema_editor):
    Tenant = apps.get_model("tenancy", "Tenant")
    for settings in apps.get_model("reminders", "ReminderSettings").objects.all():
        Tenant.objects.filter(pk=settings.tenant_id).update(time_zone=settings.time_zone)


def to_settings(apps, schema_editor):
    Tenant = apps.get_model("tenancy", "Tenant")
    for settings in apps.get_model("reminders", "ReminderSettings").objects.all():
        settings.time_zone = Tenant.objects.get(pk=settings.tenant_id).time_zone
        settings.save(update_fields=["time_zone"])


class Migration(migrations.Migration):
    dependencies = [("reminders", "0002_reminder_queued_until"), ("tenancy", "0004_tenant_time_zone")]
    operations = [
        migrations.RunPython(to_tenant, to_settings),
        migrations.RemoveField(model_name="remindersettings", name="time_zone"),
    ]
