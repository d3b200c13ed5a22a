"""The tenant's time zone moved from ReminderSettings to the tenant (layers/reminders/migrations/
0003_time_zone_to_tenant.py): a saved zone is copied to its tenant, a tenant without settings keeps UTC,
and going back copies each tenant's zone into its settings again. Run on the real schema, migrated."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("reminders", "0002_reminder_queued_until"), ("tenancy", "0003_staff_groups")]
AFTER = [("reminders", "0003_time_zone_to_tenant"), ("tenancy", "0004_tenant_time_zone")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_each_saved_zone_moves_to_its_tenant_and_back():
    apps = _migrate(BEFORE)
    Tenant, Settings = apps.get_model("tenancy", "Tenant"), apps.get_model("reminders", "ReminderSettings")
    shanghai = Tenant.objects.create(slug="tz-shanghai", name="a")
    paris = Tenant.objects.create(slug="tz-paris", name="b")
    Tenant.objects.create(slug="tz-none", name="c")
    Settings.objects.create(tenant=shanghai, time_zone="Asia/Shanghai", webhook_url="https://hooks.example.com/a")
    Settings.objects.create(tenant=paris, time_zone="Europe/Paris")
    try:
        apps = _migrate(AFTER)
        zones = dict(apps.get_model("tenancy", "Tenant").objects.filter(slug__startswith="tz-")
                     .values_list("slug", "time_zone"))
        assert zones == {"tz-shanghai": "Asia/Shanghai", "tz-paris": "Europe/Paris", "tz-none": "UTC"}
        settings = apps.get_model("reminders", "ReminderSettings").objects.get(tenant__slug="tz-shanghai")
        assert settings.webhook_url == "https://hooks.example.com/a"  # the rest of the row is untouched
        apps.get_model("tenancy", "Tenant").objects.filter(slug="tz-paris").update(time_zone="America/Lima")
        apps = _migrate(BEFORE)
        back = dict(apps.get_model("reminders", "ReminderSettings").objects.values_list("tenant__slug", "time_zone"))
        assert back == {"tz-shanghai": "Asia/Shanghai", "tz-paris": "America/Lima"}
    finally:
        # back to the latest of every app, not to AFTER: a later migration (tenancy 0005) must be there again
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
