"""The prompt window: by turns, by tokens, long turns, Chinese text, summaries."""
import pytest

from layers.short_term.models import Turn
from layers.short_term.selectors import WINDOW_TURN_MAX_SHARE, session_window
from layers.short_term.services import session_summary_create
from memoryhub.core.actors import Actor
from memoryhub.core.errors import InvalidInput
from memoryhub.providers.tokens import count_tokens
from tests.support.conversations import conversation_turns

pytestmark = pytest.mark.django_db

WINDOW = "/api/v1/sessions/{}/window"


def seqs(window):
    return [item.turn.seq for item in window.turns]


def test_window_by_turns_keeps_the_newest_in_order(open_session, append):
    session = open_session()
    append(session, *[f"message number {i}" for i in range(1, 21)])
    assert seqs(session_window(session=session, max_turns=5)) == [16, 17, 18, 19, 20]
    assert seqs(session_window(session=session)) == list(range(6, 21))  # default 15


def test_window_by_tokens_stops_before_the_budget(open_session, append):
    session = open_session()
    contents = [f"我们来聊聊第{i}个话题，关于上海的天气和航班。" for i in range(1, 21)]
    append(session, *contents)
    per_turn = count_tokens(contents[-1])
    window = session_window(session=session, max_turns=15, max_tokens=per_turn * 4 + per_turn // 2)
    assert seqs(window) == [17, 18, 19, 20]
    assert window.token_count <= per_turn * 4 + per_turn // 2
    assert not any(item.truncated for item in window.turns)
    assert all(item.content == item.turn.content for item in window.turns)


def test_window_respects_whichever_limit_binds_first(open_session, append):
    session = open_session()
    append(session, *["short"] * 20)
    assert len(session_window(session=session, max_turns=3, max_tokens=1000).turns) == 3
    assert len(session_window(session=session, max_turns=15, max_tokens=4).turns) == 4


def test_one_very_long_turn_is_truncated_in_the_window_not_in_storage(open_session, append):
    session = open_session()
    append(session, *[f"short turn {i}" for i in range(1, 6)])
    long_text = "这是一段非常长的粘贴文档内容。" * 2000
    append(session, long_text)
    assert count_tokens(long_text) > 10_000

    window = session_window(session=session, max_turns=15, max_tokens=1000)
    newest = window.turns[-1]
    assert newest.turn.seq == 6 and newest.truncated is True
    assert long_text.startswith(newest.content)
    assert 0 < newest.token_count <= 1000 * WINDOW_TURN_MAX_SHARE
    # The older turns are still there: one long turn did not push the window out.
    assert seqs(window) == [1, 2, 3, 4, 5, 6]
    assert window.token_count <= 1000
    assert Turn.objects.get(session=session, seq=6).content == long_text


def test_a_long_turn_between_short_ones_is_cut_and_older_turns_follow(open_session, append):
    session = open_session()
    append(session, "first", "second")
    append(session, "x " * 3000)
    append(session, "fourth", "fifth")
    window = session_window(session=session, max_turns=15, max_tokens=200)
    assert seqs(window) == [1, 2, 3, 4, 5]
    assert [item.truncated for item in window.turns] == [False, False, True, False, False]
    assert window.token_count <= 200


def test_a_long_only_turn_uses_the_whole_budget(open_session, append):
    session = open_session()
    append(session, "word " * 5000)
    window = session_window(session=session, max_tokens=300)
    assert len(window.turns) == 1 and window.turns[0].truncated
    assert 290 <= window.token_count <= 300


def test_window_starts_after_the_latest_summary_and_counts_it(open_session, append):
    session = open_session()
    append(session, *[f"turn {i}" for i in range(1, 26)])
    session_summary_create(session=session, covers_up_to=10, content="用户在订机票，已选早班。",
                           summariser="test", actor=Actor.system("tests"))
    summary = session_summary_create(session=session, covers_up_to=18, content="用户订了 MU5102，花生过敏。",
                                     summariser="test", actor=Actor.system("tests"))
    window = session_window(session=session, max_turns=15)
    assert window.summary == summary
    assert seqs(window) == list(range(19, 26))
    assert window.token_count == summary.token_count + sum(item.token_count for item in window.turns)


def test_a_huge_summary_is_cut_to_half_the_budget(open_session, append):
    session = open_session()
    append(session, *[f"turn {i}" for i in range(1, 6)])
    session_summary_create(session=session, covers_up_to=2, content="很长的摘要。" * 500, summariser="test",
                           actor=Actor.system("tests"))
    window = session_window(session=session, max_tokens=100)
    assert window.summary_truncated and window.summary_token_count <= 50
    assert window.token_count <= 100 and seqs(window) == [3, 4, 5]


@pytest.mark.parametrize("kwargs", [{"max_turns": 0}, {"max_turns": 201}, {"max_tokens": 0}, {"max_tokens": True}])
def test_bad_limits_are_refused(open_session, kwargs):
    with pytest.raises(InvalidInput):
        session_window(session=open_session(), **kwargs)


def test_window_api_respects_both_limits(api):
    api.post_json("/api/v1/sessions", {"session_id": "w-1", "user_id": "bob"})
    api.post_json("/api/v1/sessions/w-1/turns", {"turns": conversation_turns()})
    body = api.get(WINDOW.format("w-1") + "?max_turns=10&max_tokens=120").json()
    assert len(body["turns"]) <= 10
    assert body["token_count"] == sum(t["token_count"] for t in body["turns"]) <= 120
    assert body["turns"][-1]["seq"] == 30
    assert [t["seq"] for t in body["turns"]] == sorted(t["seq"] for t in body["turns"])
    assert body["summary"] is None and body["max_turns"] == 10 and body["max_tokens"] == 120

    default = api.get(WINDOW.format("w-1")).json()
    assert [t["seq"] for t in default["turns"]] == list(range(16, 31))


@pytest.mark.parametrize("query", ["?max_turns=abc", "?max_turns=0", "?max_tokens=-5", "?max_turns=1000"])
def test_window_api_bad_params_are_400(api, query):
    api.post_json("/api/v1/sessions", {"session_id": "w-2", "user_id": "bob"})
    response = api.get(WINDOW.format("w-2") + query)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_window"
