"""A request for work already pending collapses into the pending row, in one statement: the caller's transaction
goes on (no error to recover from, no savepoint), and requests without a dedupe key are each kept."""
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from memoryhub.outbox.models import OutboxTask
from memoryhub.outbox.services import task_enqueue_on_commit

pytestmark = pytest.mark.django_db


def test_a_pending_request_collapses_without_a_savepoint():
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        first = task_enqueue_on_commit("formation.extract_session", args=[7], dedupe_key="formation.extract:7")
        again = task_enqueue_on_commit("formation.extract_session", args=[7], dedupe_key="formation.extract:7")
        other = task_enqueue_on_commit("formation.extract_session", args=[8], dedupe_key="formation.extract:8")
        plain = [task_enqueue_on_commit("forgetting.run", args=["long_term.expire"]) for _ in range(2)]
        assert OutboxTask.objects.count() == 4  # the transaction is still usable
    assert again is None and first is not None and other is not None and None not in plain
    stored = OutboxTask.objects.get(pk=first.pk)
    assert (stored.task_name, stored.args, stored.kwargs, stored.dedupe_key, stored.sent_at) == (
        "formation.extract_session", [7], {}, "formation.extract:7", None)
    assert stored.created_at == first.created_at
    assert not [q for q in queries.captured_queries if "SAVEPOINT" in q["sql"]]


def test_a_sent_request_does_not_hold_back_the_next_one():
    first = task_enqueue_on_commit("formation.extract_session", args=[7], dedupe_key="formation.extract:7")
    OutboxTask.objects.filter(pk=first.pk).update(sent_at=first.created_at)
    second = task_enqueue_on_commit("formation.extract_session", args=[7], dedupe_key="formation.extract:7")
    assert second is not None and second.pk != first.pk
