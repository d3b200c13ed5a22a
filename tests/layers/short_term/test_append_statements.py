"""An append reads the latest summary's coverage only when a summary can be due (issue 16, turn append)."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

from layers.short_term.services import session_summary_create
from memoryhub.core.actors import Actor


def _summary_reads(queries) -> int:
    return sum(1 for query in queries if 'FROM "short_term_sessionsummary"' in query["sql"])


def test_a_short_session_appends_without_reading_its_summaries(open_session, append):
    session = open_session()
    with CaptureQueriesContext(connection) as captured:
        append(session, "hello there")
    assert _summary_reads(captured.captured_queries) == 0
    session.refresh_from_db()
    assert session.turn_count == 1 and session.needs_summary is False


def test_past_the_trigger_the_coverage_is_read_and_still_decides(open_session, append):
    session = open_session()
    append(session, *[f"turn {i}" for i in range(20)])
    session_summary_create(session=session, covers_up_to=18, content="Summary of 1-18", summariser="test",
                           actor=Actor.system("tests"))
    # 25 turns, 7 unsummarised: below the trigger of 20 only because of the summary's coverage
    session.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        append(session, "a", "b", "c", "d", "e")
    assert _summary_reads(captured.captured_queries) == 1
    session.refresh_from_db()
    assert session.turn_count == 25 and session.needs_summary is False
