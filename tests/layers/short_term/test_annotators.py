"""The append annotators (layers/short_term/services/turns.py): all of them run inside one savepoint of the append's
transaction, and when one raises, each runs again in a savepoint of its own, so only the failing one loses its
writes. The writes here are real rows of the session; the failure is a real exception after a real write."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from layers.short_term.models import Session, Turn
from layers.short_term.services import turns as turn_service
from layers.short_term.services import turns_append
from memoryhub.core.actors import Actor

pytestmark = pytest.mark.django_db

TESTS = Actor.system("tests")


def _marks(*, session, turns, actor):
    Session.objects.filter(pk=session.pk).update(metadata={"marked": [turn.seq for turn in turns]})
    return [turn.seq for turn in turns]


def _writes_then_fails(*, session, turns, actor):
    Session.objects.filter(pk=session.pk).update(agent_id="half-written")
    raise RuntimeError("rules tripped")


def _savepoints(queries) -> int:
    return sum(1 for query in queries.captured_queries if query["sql"].startswith("SAVEPOINT"))


def test_annotators_share_one_savepoint(open_session, monkeypatch):
    savepoints = {}
    for annotators in ({"first": _marks}, {"first": _marks, "second": _marks, "third": _marks}):
        session = open_session(session_id=f"s-{len(annotators)}")
        monkeypatch.setattr(turn_service, "append_annotators", annotators)
        with CaptureQueriesContext(connection) as queries:
            result = turns_append(session=session, turns=[{"role": "user", "content": "hello"}], actor=TESTS)
        assert result.annotations == {name: [1] for name in annotators}
        assert Session.objects.get(pk=session.pk).metadata == {"marked": [1]}
        savepoints[len(annotators)] = _savepoints(queries)
    assert savepoints[3] == savepoints[1]  # not one more per annotator


def test_a_failing_annotator_loses_only_its_own_writes(open_session, monkeypatch, caplog):
    session = open_session()
    monkeypatch.setattr(turn_service, "append_annotators", {"marks": _marks, "fails": _writes_then_fails})
    result = turns_append(session=session, actor=TESTS,
                          turns=[{"role": "user", "content": "hello"}, {"role": "user", "content": "again"}])
    assert result.annotations == {"marks": [1, 2], "fails": []}
    stored = Session.objects.get(pk=session.pk)
    assert stored.metadata == {"marked": [1, 2]}  # the other annotator's write stands
    assert stored.agent_id == "" and stored.turn_count == 2  # the failing one's write is gone, the turns are not
    assert list(Turn.objects.filter(session=session).values_list("seq", flat=True)) == [1, 2]
    assert any("'fails' failed" in record.getMessage() for record in caplog.records)
