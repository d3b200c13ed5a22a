"""The audit console: read-only list with filters, detail, chain status, CSV export; tenant-scoped."""
from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client

from audit.models import AuditEvent
from audit.services import audit_record
from memoryhub.core.actors import Actor
from tests.support.audit_events import TEST_ALPHA, TEST_BETA, TEST_SECRET_OTHER

pytestmark = pytest.mark.django_db

LIST = "/admin/audit/auditevent/"


def listed(page: str) -> list[str]:
    """Actions in the result rows, by their declared labels (the filter sidebar lists every action too)."""
    return re.findall(r'class="field-action_label">([^<]+)<', page)


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def events(tenant, other_tenant):
    made = [audit_record(tenant_id=tenant.id, actor=Actor.system("job.one"), event=TEST_ALPHA, object_id=1),
            audit_record(tenant_id=tenant.id, actor=Actor.system("job.two"), event=TEST_BETA, object_id=2, after={"x": "=SUM(A1)"}),
            audit_record(tenant_id=other_tenant.id, actor=Actor.system("job.one"), event=TEST_SECRET_OTHER, object_id=3)]
    return made


def test_auditor_lists_filters_and_sees_chain_status(events, auditor):
    client = login(auditor)
    page = client.get(LIST).content.decode()
    assert sorted(listed(page)) == ["test alpha", "test beta"] and "test event of another tenant" not in page
    assert 'id="chain-status"' in page and "verifies" in page
    assert listed(client.get(LIST, {"action": "test.beta"}).content.decode()) == ["test beta"]
    assert listed(client.get(LIST, {"actor": "job.one"}).content.decode()) == ["test alpha"]
    assert listed(client.get(LIST, {"object_type": "thing", "q": "2"}).content.decode()) == ["test beta"]


def test_detail_is_read_only_and_edits_are_refused(events, auditor, make_staff):
    client = login(auditor)
    event = events[1]
    detail = client.get(f"{LIST}{event.pk}/change/")
    assert detail.status_code == 200 and "=SUM(A1)" in detail.content.decode()
    assert 'name="_save"' not in detail.content.decode()
    assert client.post(f"{LIST}{event.pk}/change/", {"action": "tampered"}).status_code == 403
    assert client.post(f"{LIST}{event.pk}/delete/").status_code == 403
    boss = login(make_staff(superuser=True, username="boss"))
    assert boss.post(f"{LIST}{event.pk}/change/", {"action": "tampered"}).status_code == 403
    event.refresh_from_db()
    assert event.action == "test.beta"
    assert login(auditor).get(f"{LIST}{events[2].pk}/change/").status_code in (302, 404)


def test_csv_export_follows_the_filters_and_defuses_formulas(events, auditor):
    response = login(auditor).get(f"{LIST}export.csv", {"action": "test.beta"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [row["action"] for row in rows] == ["test.beta"]
    assert rows[0]["after"] == '{"x": "=SUM(A1)"}' and rows[0]["hash"] == events[1].hash
    everything = login(auditor).get(f"{LIST}export.csv")
    actions = [row["action"] for row in csv.DictReader(io.StringIO(b"".join(everything.streaming_content).decode()))]
    assert "test.secret_other" not in actions and AuditEvent.objects.count() >= 3


def test_broken_chain_is_shown(events, auditor, tenant):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only")
        cursor.execute("UPDATE audit_auditevent SET action = 'forged' WHERE id = %s", [events[0].pk])
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only")
    page = login(auditor).get(LIST).content.decode()
    assert "BROKEN" in page and "was altered" in page


def test_trail_of_one_object(events, auditor):
    client = login(auditor)
    assert listed(client.get(LIST, {"object_type": "thing", "object_id": "2"}).content.decode()) == ["test beta"]
