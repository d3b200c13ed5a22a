"""The entity registry runs inside the turn append as an annotator in a savepoint
(layers/short_term/services/turns.py, `_annotate`): when the database refuses what it writes, the
turns are still appended, nothing of the registry is half-written, and the failure is logged and
counted. The failures here are real: a CHECK constraint added to the table inside the test's own
transaction (rolled back with it), so PostgreSQL itself refuses the row."""
import logging

import pytest
from django.db import connection

from layers.short_term.models import Turn
from layers.transient.models import EntityResolution, SessionEntity
from tests.support.metrics import moved, scrape
from tests.support.sessions import append, open_session, say

pytestmark = pytest.mark.django_db

FAILURES = "memoryhub_append_annotator_failures_total"


def refuse(table: str, check: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT test_refused CHECK ({check})")


def test_a_registry_row_the_database_refuses_never_costs_the_append(api, tenant, caplog):
    open_session(api)
    refuse("transient_sessionentity", "name NOT LIKE '%灯%'")
    before = scrape()
    with caplog.at_level(logging.ERROR, logger="layers.short_term.services.turns"):
        response = api.post_json("/api/v1/sessions/home-1/turns", {"turns": say(
            ("user", "打开客厅的灯"), ("assistant", "好的，客厅灯已打开。"), ("user", "把它调亮20%"))})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["created"] == 3 and body["resolutions"] == []
    assert list(Turn.objects.filter(session__session_id="home-1").values_list("seq", flat=True)) == [1, 2, 3]
    assert api.get("/api/v1/sessions/home-1").json()["turn_count"] == 3
    assert not SessionEntity.objects.exists() and not EntityResolution.objects.exists()
    [record] = [r for r in caplog.records if "resolutions" in r.getMessage()]
    assert record.exc_info and "test_refused" in str(record.exc_info[1])
    assert moved(before, scrape(), FAILURES, tenant=tenant.slug, layer="short_term", annotator="resolutions") == 1

    # The transaction went on after the savepoint: a later append in the same session works as usual.
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE transient_sessionentity DROP CONSTRAINT test_refused")
    body = append(api, say(("user", "卧室空调调到26度"), ("assistant", "好的。"), ("user", "把它关了")))
    [it] = body["resolutions"]
    assert it["resolved"] and [e["name"] for e in it["entities"]] == ["卧室空调"]


def test_a_resolution_that_cannot_be_stored_rolls_back_the_registry_writes_of_that_append(api, tenant):
    open_session(api)
    append(api, say(("user", "Turn on the porch light"), ("assistant", "Porch light is on.")))
    assert list(SessionEntity.objects.values_list("name", flat=True)) == ["porch light"]
    # The registry rows of the next append are written first, then its resolutions: refusing the
    # resolution row must take the registry update of the same append back with it.
    refuse("transient_entityresolution", "confidence < 0.5")
    before = scrape()
    body = append(api, say(("user", "Dim it to 40 percent and turn on the desk lamp")))
    assert body["created"] == 1 and body["resolutions"] == []
    assert Turn.objects.filter(session__session_id="home-1").count() == 3
    lamp = SessionEntity.objects.get(name="porch light")
    assert (lamp.last_turn, lamp.mentions) == (2, 2)  # unchanged by the failed annotation
    assert not SessionEntity.objects.filter(name__icontains="desk lamp").exists()
    assert moved(before, scrape(), FAILURES, tenant=tenant.slug, layer="short_term", annotator="resolutions") == 1
