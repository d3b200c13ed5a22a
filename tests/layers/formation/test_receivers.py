"""The turns-appended receiver reads the extraction cursor only when extraction can be due (issue 16)."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from layers.formation.models import FormationState
from memoryhub.outbox.models import OutboxTask


def _cursor_reads(queries) -> int:
    return sum(1 for query in queries if 'FROM "formation_formationstate"' in query["sql"])


@pytest.mark.django_db
def test_a_session_shorter_than_the_extraction_step_reads_no_cursor(talk):
    with CaptureQueriesContext(connection) as captured:
        talk("short", "alice", [("user", "I like tea.")] * 3)
    assert _cursor_reads(captured.captured_queries) == 0
    assert not OutboxTask.objects.filter(task_name="formation.extract_session").exists()


@pytest.mark.django_db
def test_past_the_step_the_cursor_is_read_and_decides(talk):
    session = talk("long", "alice", [("user", "I like tea.")] * 9)
    FormationState.objects.update_or_create(session_id=session.pk, defaults={"last_extracted_seq": 5})
    with CaptureQueriesContext(connection) as captured:
        talk("long", "alice", [("user", "I like coffee.")] * 3)  # 12 turns, 7 after the cursor: not due
    assert _cursor_reads(captured.captured_queries) == 1
    assert not OutboxTask.objects.filter(task_name="formation.extract_session").exists()
    talk("long", "alice", [("user", "I like cocoa.")] * 3)  # 15 turns, 10 after the cursor: due
    assert OutboxTask.objects.filter(task_name="formation.extract_session", args=[session.pk]).count() == 1


@pytest.mark.django_db
def test_extraction_is_asked_for_once_per_step_while_the_worker_is_behind(talk):
    session = talk("behind", "alice", [("user", "I like tea.")] * 10)  # 10 after cursor 0: due, asked
    requests = OutboxTask.objects.filter(task_name="formation.extract_session", args=[session.pk])
    assert requests.count() == 1
    requests.update(sent_at=timezone.now())  # sent; the worker has not run it yet
    for _ in range(9):
        talk("behind", "alice", [("user", "I like coffee.")])  # 11..19: still due, already asked
    assert requests.count() == 1
    talk("behind", "alice", [("user", "I like cocoa."), ("user", "and juice")])  # past 20: asked again
    assert requests.count() == 2
    requests.update(sent_at=timezone.now())  # the worker ran it: the cursor moved to 21
    FormationState.objects.update_or_create(session_id=session.pk, defaults={"last_extracted_seq": 21})
    talk("behind", "alice", [("user", "I like milk.")] * 9)  # 9 after the cursor: not due
    assert requests.count() == 2
    talk("behind", "alice", [("user", "I like water.")])  # 10 after the cursor: asked
    assert requests.count() == 3
