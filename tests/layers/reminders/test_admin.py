"""Reminders in the console: listed with filters, cancelled by an action through the audited service,
read-only otherwise; settings saved through their service; members see only their tenants'."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from layers.reminders.models import ReminderSettings, ReminderStatus
from tests.support.reminders import NOW

pytestmark = pytest.mark.django_db
LIST = "/admin/reminders/reminder/"


@pytest.fixture
def superuser(client):
    user = User.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(user)
    return user


def test_list_filter_and_cancel_action(client, superuser, make_reminder, tenant):
    pending = make_reminder("关灯", due_at=NOW + timedelta(hours=1))
    other = make_reminder("call Anna", due_at=NOW + timedelta(hours=2), user_id="bob")
    response = client.get(LIST)
    assert response.status_code == 200 and "关灯" in response.content.decode()
    filtered = client.get(LIST + "?status__exact=pending&q=bob")
    assert "call Anna" in filtered.content.decode() and "关灯" not in filtered.content.decode()
    response = client.post(LIST, {"action": "cancel_selected", "_selected_action": [pending.pk]})
    assert response.status_code == 302
    pending.refresh_from_db()
    other.refresh_from_db()
    assert (pending.status, other.status) == (ReminderStatus.CANCELLED, ReminderStatus.PENDING)
    event = AuditEvent.objects.get(action="reminder.cancelled", object_id=str(pending.pk))
    assert (event.actor_kind, event.actor_label) == ("user", "root")
    # A reminder's own page is read-only: no save button, a POST changes nothing.
    page = client.get(f"{LIST}{other.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    client.post(f"{LIST}{other.pk}/change/", {"text": "changed"})
    other.refresh_from_db()
    assert other.text == "call Anna"
    assert client.get(LIST + "add/").status_code == 403


def test_settings_through_the_service(client, superuser, tenant):
    response = client.post("/admin/reminders/remindersettings/add/", {
        "tenant": tenant.pk, "time_zone": "Asia/Shanghai", "webhook_url": "https://hooks.example.com/r",
        "webhook_secret": "0123456789abcdef-x"})
    assert response.status_code == 302, response.content[:1500]
    settings = ReminderSettings.objects.get(tenant=tenant)
    assert settings.webhook_secret == "0123456789abcdef-x"
    # Changing the zone with the secret left empty keeps the secret.
    response = client.post(f"/admin/reminders/remindersettings/{settings.pk}/change/", {
        "time_zone": "Europe/Paris", "webhook_url": "https://hooks.example.com/r", "webhook_secret": ""})
    assert response.status_code == 302
    settings.refresh_from_db()
    tenant.refresh_from_db()
    # The zone is the tenant's (memoryhub/tenancy), set through its service and audited there too.
    assert (tenant.time_zone, settings.webhook_secret) == ("Europe/Paris", "0123456789abcdef-x")
    assert list(AuditEvent.objects.filter(action="tenant.time_zone_changed").order_by("id").values_list(
        "after__time_zone", flat=True)) == ["Asia/Shanghai", "Europe/Paris"]
    assert AuditEvent.objects.filter(action="reminder_settings.changed").count() == 2
    bad = client.post(f"/admin/reminders/remindersettings/{settings.pk}/change/", {
        "time_zone": "Nowhere/City", "webhook_url": "", "webhook_secret": ""})
    assert bad.status_code == 200 and "errorlist" in bad.content.decode()


def test_members_see_only_their_tenants_reminders(client, make_staff, make_reminder, tenant, other_tenant):
    make_reminder("ours", due_at=NOW + timedelta(hours=1))
    make_reminder("theirs", due_at=NOW + timedelta(hours=1), on=other_tenant)
    client.force_login(make_staff(tenant, "reviewer"))
    body = client.get(LIST).content.decode()
    assert "ours" in body and "theirs" not in body


def test_the_console_speaks_chinese(client, superuser, make_reminder):
    make_reminder("关灯", due_at=NOW + timedelta(hours=1))
    client.cookies["django_language"] = "zh-hans"
    body = client.get(LIST, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "取消所选提醒" in body or "到期时间" in body


def test_an_auditor_reads_but_cannot_cancel(client, make_staff, make_reminder, tenant):
    reminder = make_reminder("关灯", due_at=NOW + timedelta(hours=1))
    client.force_login(make_staff(tenant, "auditor"))
    assert client.get(LIST).status_code == 200
    client.post(LIST, {"action": "cancel_selected", "_selected_action": [reminder.pk]})
    reminder.refresh_from_db()
    assert reminder.status == ReminderStatus.PENDING


def test_retry_action_gives_a_failed_reminder_fresh_attempts(client, superuser, make_reminder, tenant):
    from layers.reminders.services import reminders_dispatch

    reminder = make_reminder("关灯", due_at=NOW + timedelta(hours=1))
    reminders_dispatch(now=NOW + timedelta(hours=1))
    reminder.refresh_from_db()
    reminder.delivery_failed, reminder.delivery_attempts = True, 6
    reminder.save()
    client.post(LIST, {"action": "retry_delivery", "_selected_action": [reminder.pk]})
    reminder.refresh_from_db()
    assert (reminder.delivery_failed, reminder.delivery_attempts) == (False, 0)
    assert AuditEvent.objects.filter(action="reminder.delivery_retried", object_id=str(reminder.pk)).count() == 1
    # a pending one is refused, with a message, not a 500
    pending = make_reminder("later", due_at=NOW + timedelta(days=2))
    response = client.post(LIST, {"action": "retry_delivery", "_selected_action": [pending.pk]}, follow=True)
    assert response.status_code == 200
    assert "only a due reminder whose delivery failed can be retried" in response.content.decode()
    pending.refresh_from_db()
    assert pending.status == ReminderStatus.PENDING and pending.delivery_attempts == 0
