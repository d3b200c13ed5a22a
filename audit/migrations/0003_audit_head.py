from django.db import migrations, models


def seal_existing_heads(apps, schema_editor):
    """Anchor the chains that already exist where they end now (trust on first use): a tail deleted
    before this migration cannot be found any more, one deleted after it can."""
    from audit.services import head_seal

    AuditEvent = apps.get_model("audit", "AuditEvent")
    AuditHead = apps.get_model("audit", "AuditHead")
    tenant_ids = AuditEvent.objects.order_by("tenant_id").values_list("tenant_id", flat=True).distinct()
    for tenant_id in tenant_ids:
        last = AuditEvent.objects.filter(tenant_id=tenant_id).order_by("-seq").first()
        AuditHead.objects.create(tenant_id=tenant_id, event_count=last.seq, last_hash=last.hash,
                                 mac=head_seal(tenant_id, last.seq, last.hash), updated_at=last.occurred_at)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only_trigger")]

    operations = [
        migrations.CreateModel(
            name="AuditHead",
            fields=[
                ("tenant_id", models.BigIntegerField(primary_key=True, serialize=False, verbose_name="tenant id")),
                ("event_count", models.BigIntegerField(verbose_name="event count")),
                ("last_hash", models.CharField(max_length=64, verbose_name="last hash")),
                ("mac", models.CharField(max_length=64, verbose_name="seal")),
                ("updated_at", models.DateTimeField(verbose_name="updated at")),
            ],
            options={
                "verbose_name": "audit chain head",
                "verbose_name_plural": "audit chain heads",
                "default_permissions": (),
            },
        ),
        migrations.RunPython(seal_existing_heads, migrations.RunPython.noop),
    ]
