"""Retries against real faults: a proxy process (tests/clients/fault_proxy.py) in front of the live
server loses answers, resets connections, stalls and answers 5xx; the client retries only what cannot be
applied twice, and a lost answer to a write is replayed by its client ids, not written again."""
from __future__ import annotations

import asyncio
import time

import pytest
from memoryhub_client import (
    AsyncMemoryhubClient,
    MemoryhubClient,
    RetryPolicy,
    TransportError,
)
from memoryhub_client.errors import ContendedError, ServerError

from tests.support.servers import _free_port

pytestmark = pytest.mark.django_db(transaction=True)

FAST = RetryPolicy(attempts=4, backoff=0.05)


def _api_calls(proxy) -> list[list[str]]:
    return [[method, path.split("?")[0], fault] for method, path, fault, *_ in proxy.log()]


def test_a_write_whose_answer_was_lost_is_replayed_not_written_twice(live_url, live_key, fault_proxy):
    with MemoryhubClient(fault_proxy.url, live_key, retry=FAST) as hub:
        fault_proxy.queue("drop")
        written = hub.create_memories([{"user_id": "alice", "content": "Alice is vegetarian", "memory_key": "diet"}])
        assert _api_calls(fault_proxy) == [["POST", "/api/v1/memories", "drop"],
                                           ["POST", "/api/v1/memories", "forward"]]
        assert written.results[0].outcome == "existing"
    with MemoryhubClient(live_url, live_key) as direct:
        assert [m.content for m in direct.iter_memories(user_id="alice")] == ["Alice is vegetarian"]


def test_turns_whose_answer_was_lost_are_replayed(live_url, live_key, fault_proxy):
    with MemoryhubClient(fault_proxy.url, live_key, retry=FAST) as hub:
        hub.open_session("chat-r", "alice")
        fault_proxy.queue("drop")
        appended = hub.append_turns("chat-r", [{"role": "user", "content": "one"},
                                               {"role": "assistant", "content": "two"}])
        assert appended.replayed == 2 and appended.created == 0
        assert [t.content for t in hub.iter_turns("chat-r")] == ["one", "two"]


def test_contended_is_retried_after_retry_after_for_any_method(live_key, fault_proxy):
    with MemoryhubClient(fault_proxy.url, live_key, retry=FAST) as hub:
        memory = hub.create_memory(user_id="alice", content="Alice likes tea")
        fault_proxy.queue("contended")
        started = time.monotonic()
        changed = hub.update_memory(memory.id, content="Alice likes green tea")
        waited = time.monotonic() - started
        assert changed.content == "Alice likes green tea"
        assert [c[2] for c in _api_calls(fault_proxy) if c[0] == "PATCH"] == ["contended", "forward"]
        assert waited >= 1.0  # the proxy's Retry-After: 1, not the policy's 0.05 s backoff


def test_contended_beyond_the_last_attempt_raises_with_retry_after(live_key, fault_proxy):
    with MemoryhubClient(fault_proxy.url, live_key, retry=RetryPolicy(attempts=2, backoff=0.05)) as hub:
        fault_proxy.queue("contended", "contended")
        with pytest.raises(ContendedError) as contended:
            hub.whoami()
        assert contended.value.retry_after == 1.0 and contended.value.code == "contended"
        assert len(_api_calls(fault_proxy)) == 2


def test_a_5xx_is_retried_for_a_read_but_not_for_a_write_that_could_apply_twice(live_key, fault_proxy):
    with MemoryhubClient(fault_proxy.url, live_key, retry=FAST) as hub:
        fault_proxy.queue("500")
        assert hub.whoami().tenant
        hub.open_session("chat-t", "alice")
        hub.create_task_type("book_table", required_slots=["city"])
        fault_proxy.queue("500")
        with pytest.raises(ServerError):
            hub.start_task("chat-t", "book_table")
        calls = _api_calls(fault_proxy)
        assert [c[2] for c in calls if c[1] == "/api/v1/whoami"] == ["500", "forward"]
        assert [c[2] for c in calls if c[1].endswith("/tasks")] == ["500"]
        assert hub.task_stack("chat-t").results == []


def test_a_reset_connection_is_retried_only_when_replay_is_safe(live_key, fault_proxy):
    with MemoryhubClient(fault_proxy.url, live_key, retry=FAST) as hub:
        hub.create_memory(user_id="alice", content="Alice lives in Lyon")
        fault_proxy.queue("reset")
        assert hub.search_memories("alice", "where does alice live?").results
        fault_proxy.queue("reset")
        with pytest.raises(TransportError):
            hub.propose_change("rules.tone", action="create", value="calm", reason="house style")
        proposals = [c[2] for c in _api_calls(fault_proxy) if c[1] == "/api/v1/permanent/change-requests"]
        assert proposals == ["reset"]
        assert hub.list_change_requests().results == []


def test_nothing_listening_raises_transport_error_after_every_attempt():
    with MemoryhubClient(f"http://127.0.0.1:{_free_port()}", "mh_any", retry=RetryPolicy(attempts=3, backoff=0.01)) \
            as hub, pytest.raises(TransportError, match="attempt 3"):
        hub.whoami()


def test_a_stalled_answer_times_out(live_key, fault_proxy):
    with MemoryhubClient(fault_proxy.url, live_key, timeout=0.5, retry=RetryPolicy(attempts=1)) as hub:
        fault_proxy.queue("stall")
        started = time.monotonic()
        with pytest.raises(TransportError, match="ReadTimeout"):
            hub.whoami()
        assert time.monotonic() - started < 4


def test_async_client_replays_a_lost_answer(live_url, live_key, fault_proxy):
    async def scenario():
        async with AsyncMemoryhubClient(fault_proxy.url, live_key, retry=FAST) as hub:
            fault_proxy.queue("drop", "500")
            return await hub.create_memory(user_id="carol", content="Carol is allergic to peanuts")

    written = asyncio.run(scenario())
    assert written.outcome == "existing"
    assert [c[2] for c in _api_calls(fault_proxy)] == ["drop", "500", "forward"]
    with MemoryhubClient(live_url, live_key) as direct:
        assert len(list(direct.iter_memories(user_id="carol"))) == 1
