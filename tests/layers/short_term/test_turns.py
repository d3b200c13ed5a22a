"""Appending turns: order, idempotent retries, limits, redaction, summary triggers, concurrency."""
import threading

import pytest
from django.db import connection

from audit.models import AuditEvent
from layers.short_term.models import Session, SessionStatus, Turn
from layers.short_term.services import session_summary_create, turns_append
from layers.short_term.signals import turns_appended
from memoryhub.core.actors import Actor
from memoryhub.providers.tokens import count_tokens
from tests.support.actors import TEST_ACTOR
from tests.support.conversations import CONVERSATION, conversation_turns

pytestmark = pytest.mark.django_db

TURNS = "/api/v1/sessions/{}/turns"


@pytest.fixture
def opened(api):
    response = api.post_json("/api/v1/sessions", {"session_id": "trip-1", "user_id": "alice"})
    assert response.status_code == 201
    return Session.objects.get(session_id="trip-1")


def test_thirty_mixed_turns_appended_twice_are_stored_once(api, opened):
    batch = {"turns": conversation_turns()}
    first = api.post_json(TURNS.format("trip-1"), batch)
    assert first.status_code == 201, first.json()
    assert first.json()["created"] == 30 and first.json()["replayed"] == 0

    retry = api.post_json(TURNS.format("trip-1"), batch)
    assert retry.status_code == 200
    body = retry.json()
    assert body["created"] == 0 and body["replayed"] == 30
    assert [t["seq"] for t in body["turns"]] == list(range(1, 31))
    assert all(t["created"] is False for t in body["turns"])
    assert body["turns"] == [{**t, "created": False} for t in first.json()["turns"]]

    assert Turn.objects.filter(session=opened).count() == 30
    stored = list(Turn.objects.filter(session=opened).order_by("seq").values_list("role", "content", "seq"))
    assert stored == [(role, content, i + 1) for i, (role, content) in enumerate(CONVERSATION)]
    opened.refresh_from_db()
    assert opened.turn_count == 30


def test_token_counts_are_stored_per_turn(api, opened):
    api.post_json(TURNS.format("trip-1"), {"turns": conversation_turns()})
    for turn in Turn.objects.filter(session=opened):
        assert turn.token_count == count_tokens(turn.content) > 0


def test_partial_retry_adds_only_the_new_turns_after_the_stored_ones(api, opened):
    turns = conversation_turns()
    api.post_json(TURNS.format("trip-1"), {"turns": turns[:10]})
    response = api.post_json(TURNS.format("trip-1"), {"turns": turns[5:15]})
    assert response.status_code == 201
    body = response.json()
    assert body["created"] == 5 and body["replayed"] == 5
    assert [t["seq"] for t in body["turns"]] == list(range(6, 16))
    assert list(Turn.objects.filter(session=opened).values_list("seq", flat=True)) == list(range(1, 16))


def test_turns_without_client_ids_are_always_added(api, opened):
    for _ in range(2):
        api.post_json(TURNS.format("trip-1"), {"turns": [{"role": "user", "content": "again"}]})
    assert Turn.objects.filter(session=opened).count() == 2


def test_client_id_reused_for_other_content_is_a_conflict_and_stores_nothing(api, opened):
    api.post_json(TURNS.format("trip-1"), {"turns": [{"role": "user", "content": "A", "client_id": "x"}]})
    response = api.post_json(TURNS.format("trip-1"), {"turns": [
        {"role": "user", "content": "new", "client_id": "y"},
        {"role": "user", "content": "B", "client_id": "x"},
    ]})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "client_id_reused"
    assert response.json()["error"]["details"] == {"indices": [1]}
    assert list(Turn.objects.filter(session=opened).values_list("content", flat=True)) == ["A"]


@pytest.mark.parametrize("turns, status, code", [
    ([], 400, "empty_batch"),
    ([{"role": "user", "content": "ok"}, {"role": "robot", "content": "x"}], 400, "invalid"),
    ([{"role": "user", "content": "ok"}, {"role": "user", "content": "   "}], 400, "invalid_turn"),
    ([{"role": "user", "content": "a", "client_id": "k"}, {"role": "user", "content": "b", "client_id": "k"}],
     400, "duplicate_client_id"),
    ([{"role": "user", "content": "ok"}, {"role": "user", "content": "长" * (Turn.CONTENT_MAX_CHARS + 1)}],
     413, "turn_too_large"),
    ([{"role": "user", "content": f"t{i}"} for i in range(Turn.BATCH_MAX_TURNS + 1)], 413, "batch_too_large"),
    ([{"role": "user", "content": "ok", "client_id": "c" * (Turn.CLIENT_ID_MAX_LENGTH + 1)}], 400, "invalid"),
    ([{"role": "user", "content": "ok", "tool_name": "bad\nname"}], 400, "invalid"),
    ([{"role": "user", "content": ["not", "text"]}], 400, "invalid"),
])
def test_bad_batches_are_refused_whole(api, opened, turns, status, code):
    api.post_json(TURNS.format("trip-1"), {"turns": [{"role": "user", "content": "kept"}]})
    response = api.post_json(TURNS.format("trip-1"), {"turns": turns})
    assert response.status_code == status, response.json()
    assert response.json()["error"]["code"] == code
    assert set(response.json()["error"]) == {"code", "message", "details"}
    assert list(Turn.objects.filter(session=opened).values_list("content", flat=True)) == ["kept"]
    opened.refresh_from_db()
    assert opened.turn_count == 1


def test_body_without_turns_is_a_400(api, opened):
    response = api.post_json(TURNS.format("trip-1"), {"turn": []})
    assert response.status_code == 400
    assert "turns" in response.json()["error"]["details"]["fields"]


def test_secrets_are_redacted_before_storage_and_reported(api, opened):
    response = api.post_json(TURNS.format("trip-1"), {"turns": [
        {"role": "user", "content": "天气不错"},
        {"role": "user", "content": "my password is hunter2secret, key sk-abcdefghijklmnopqrstuvwx"},
    ]})
    assert response.status_code == 201
    body = response.json()
    kinds = sorted(r["kind"] for r in body["redactions"])
    assert {r["index"] for r in body["redactions"]} == {1}
    assert "password" in kinds and "api_key" in kinds
    stored = Turn.objects.get(session=opened, seq=2)
    assert "hunter2secret" not in stored.content and "sk-abcdefghijklmnopqrstuvwx" not in stored.content
    assert "[REDACTED" in stored.content
    assert sorted(r["kind"] for r in stored.redactions) == kinds
    assert body["turns"][1]["content"] == stored.content


def test_a_tenant_may_keep_secrets_in_turns(api, opened, tenant):
    tenant.redact_secrets_in_turns = False
    tenant.save()
    api.post_json(TURNS.format("trip-1"), {"turns": [{"role": "user", "content": "my password is hunter2secret"}]})
    assert Turn.objects.get(session=opened).content == "my password is hunter2secret"


def test_summary_is_flagged_at_twenty_turns_and_again_after_five_new(open_session, append):
    session = open_session()
    append(session, *[f"turn {i}" for i in range(19)])
    session.refresh_from_db()
    assert session.needs_summary is False
    append(session, "turn 19")
    session.refresh_from_db()
    assert session.needs_summary is True

    session_summary_create(session=session, covers_up_to=5, content="Summary of 1-5", summariser="test",
                           actor=Actor.system("tests"))
    session.refresh_from_db()
    assert session.needs_summary is False
    append(session, "a", "b", "c", "d")
    session.refresh_from_db()
    assert session.needs_summary is False
    append(session, "e")
    session.refresh_from_db()
    assert session.turn_count == 25 and session.needs_summary is True


def test_summaries_are_versioned_audited_and_idempotent(open_session, append, tenant):
    session = open_session()
    append(session, *[f"turn {i}" for i in range(10)])
    first = session_summary_create(session=session, covers_up_to=4, content="用户要订机票 password is x1y2z3",
                                   summariser="extractive-v1", actor=Actor.system("tests"))
    again = session_summary_create(session=session, covers_up_to=4, content="other", summariser="extractive-v1",
                                   actor=Actor.system("tests"))
    second = session_summary_create(session=session, covers_up_to=8, content="更多", summariser="extractive-v1",
                                    actor=Actor.system("tests"))
    assert (first.version, again.pk, second.version) == (1, first.pk, 2)
    assert "x1y2z3" not in first.content
    events = AuditEvent.objects.filter(tenant_id=tenant.id, action="session.summary_created")
    assert events.count() == 2
    assert all("用户" not in str(e.after) and e.subject and e.subject != "u-1" for e in events)


def test_turns_appended_signal_carries_only_new_turns(open_session):
    session = open_session()
    received = []

    def receiver(sender, session, turns, **kwargs):
        received.append([t.seq for t in turns])

    turns_appended.connect(receiver)
    try:
        batch = [{"role": "user", "content": "x", "client_id": "1"}]
        turns_append(session=session, turns=batch, actor=TEST_ACTOR)
        turns_append(session=session, turns=batch, actor=TEST_ACTOR)
        turns_append(session=session, turns=[*batch, {"role": "user", "content": "y", "client_id": "2"}], actor=TEST_ACTOR)
    finally:
        turns_appended.disconnect(receiver)
    assert received == [[1], [2]]


def test_read_only_key_cannot_append(make_client, tenant, opened):
    reader = make_client(tenant, scopes=["read"])
    response = reader.post_json(TURNS.format("trip-1"), {"turns": [{"role": "user", "content": "x"}]})
    assert response.status_code == 403
    assert reader.get(TURNS.format("trip-1")).status_code == 200


def test_list_turns_paginates_with_a_cursor(api, opened):
    api.post_json(TURNS.format("trip-1"), {"turns": conversation_turns()})
    seen, cursor = [], None
    while True:
        url = TURNS.format("trip-1") + "?limit=7" + (f"&cursor={cursor}" if cursor else "")
        body = api.get(url).json()
        seen.extend(t["seq"] for t in body["results"])
        cursor = body["next_cursor"]
        if not cursor:
            break
    assert seen == list(range(1, 31))
    assert api.get(TURNS.format("trip-1") + "?cursor=garbage").status_code == 400


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_keep_a_gap_free_sequence(open_session):
    session = open_session()
    errors = []

    def writer(worker: int):
        try:
            for i in range(8):
                turns_append(session=session, turns=[
                    {"role": "user", "content": f"w{worker} t{i} a", "client_id": f"{worker}-{i}-a"},
                    {"role": "assistant", "content": f"w{worker} t{i} b", "client_id": f"{worker}-{i}-b"},
                ], actor=TEST_ACTOR)
        except Exception as exc:  # surfaced below; a thread cannot fail the test itself
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    turns = list(Turn.objects.filter(session=session).order_by("seq"))
    assert [t.seq for t in turns] == list(range(1, 97))
    # Each batch landed contiguously and in order.
    for first, second in zip(turns[::2], turns[1::2]):
        assert first.client_id.endswith("-a") and second.client_id == first.client_id[:-1] + "b"
    session.refresh_from_db()
    assert session.turn_count == 96 and session.status == SessionStatus.ACTIVE


def test_a_bare_list_or_a_single_turn_is_accepted(api, opened):
    assert api.post_json(TURNS.format("trip-1"), [{"role": "user", "content": "一"}]).status_code == 201
    single = api.post_json(TURNS.format("trip-1"), {"role": "assistant", "content": "two", "client_id": "k2"})
    assert single.status_code == 201 and single.json()["turns"][0]["seq"] == 2
    assert api.post_json(TURNS.format("trip-1"), "just text").status_code == 400
    assert list(Turn.objects.filter(session=opened).values_list("content", flat=True)) == ["一", "two"]


def test_occurred_at_dates_an_imported_turn(api):
    api.post_json("/api/v1/sessions", {"session_id": "import-1", "user_id": "alice"})
    response = api.post_json("/api/v1/sessions/import-1/turns", {"turns": [
        {"role": "user", "content": "We moved to Lyon.", "occurred_at": "2023-05-08T13:56:00+02:00"},
        {"role": "user", "content": "Said just now."}]})
    assert response.status_code == 201, response.content
    listed = api.get("/api/v1/sessions/import-1/turns").json()["results"]
    assert listed[0]["occurred_at"].startswith("2023-05-08T")
    assert listed[1]["occurred_at"] is None


@pytest.mark.parametrize("value", ["yesterday", "2023-05-08T13:56:00", 12])
def test_occurred_at_must_be_an_aware_iso_datetime(api, value):
    api.post_json("/api/v1/sessions", {"session_id": "import-2", "user_id": "alice"})
    response = api.post_json("/api/v1/sessions/import-2/turns",
                             {"turns": [{"role": "user", "content": "x", "occurred_at": value}]})
    assert response.status_code == 400 and "error" in response.json()
