"""The sync and async clients against a live server: typed answers, cursor iteration, errors per code,
tenant isolation."""
from __future__ import annotations

import asyncio

import pytest
from memoryhub_client import AsyncMemoryhubClient, MemoryhubClient, models
from memoryhub_client.errors import (
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    SecretDetectedError,
    SessionNotFoundError,
    ValidationFailedError,
)

from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db(transaction=True)


def test_memories_round_trip_typed_with_cursor_iteration(live_url, live_key):
    with MemoryhubClient(live_url, live_key) as hub:
        assert isinstance(hub.whoami(), models.WhoAmI)
        assert hub.health()["status"] == "ok"
        written = hub.create_memories([
            {"user_id": "alice", "kind": "preference", "content": "Alice is vegetarian", "memory_key": "diet"},
            {"user_id": "alice", "content": "Alice lives in Lyon", "memory_key": "home_city"},
            {"user_id": "alice", "content": "Alice plays the cello", "memory_key": "instrument"},
            {"user_id": "alice", "content": "Alice works as a nurse", "memory_key": "occupation"},
            {"user_id": "alice", "content": "Alice has a dog called Rex", "memory_key": "pet"},
        ])
        assert isinstance(written, models.MemoryBatchResponse)
        assert [r.outcome for r in written.results] == ["created"] * 5
        assert all(r.client_id for r in written.results)

        first_page = hub.list_memories(user_id="alice", limit=2)
        assert len(first_page.results) == 2 and first_page.next_cursor
        every = list(hub.iter_memories(user_id="alice", limit=2))
        assert sorted(m.memory_key for m in every) == ["diet", "home_city", "instrument", "occupation", "pet"]
        assert all(isinstance(m, models.MemoryOutput) for m in every)

        found = hub.search_memories("alice", "what does alice eat?", top_k=3)
        assert isinstance(found.results[0], models.SearchResult)
        assert found.results[0].memory_key == "diet" and 0 < found.results[0].score <= 1

        diet = next(m for m in every if m.memory_key == "diet")
        changed = hub.update_memory(diet.id, content="Alice is vegan")
        assert changed.content == "Alice is vegan" and hub.get_memory(diet.id).content == "Alice is vegan"
        hub.delete_memory(diet.id)
        assert hub.get_memory(diet.id).status == "deleted"
        assert "diet" not in {m.memory_key for m in hub.iter_memories(user_id="alice", status="active")}


def test_sessions_and_turns(live_url, live_key):
    with MemoryhubClient(live_url, live_key) as hub:
        session = hub.open_session("chat-1", "alice", agent_id="bot")
        assert session.status == "active"
        appended = hub.append_turns("chat-1", [{"role": "user", "content": f"message {i}"} for i in range(5)])
        assert appended.created == 5 and [t.seq for t in appended.turns] == [1, 2, 3, 4, 5]
        assert [t.content for t in hub.iter_turns("chat-1", limit=2)] == [f"message {i}" for i in range(5)]
        window = hub.get_window("chat-1", max_turns=3)
        assert [t.content for t in window.turns] == ["message 2", "message 3", "message 4"]


def test_errors_are_raised_per_code(live_url, live_key, read_key, other_key):
    with MemoryhubClient(live_url, live_key) as hub, MemoryhubClient(live_url, other_key) as other, \
            MemoryhubClient(live_url, read_key) as reader, MemoryhubClient(live_url, "mh_wrong") as stranger:
        memory = hub.create_memory(user_id="alice", content="Alice likes tea")
        with pytest.raises(NotFoundError) as not_found:
            other.get_memory(memory.id)
        assert not_found.value.status_code == 404 and not_found.value.request_id
        with pytest.raises(PermissionDeniedError) as forbidden:
            reader.create_memory(user_id="alice", content="Alice likes coffee")
        assert forbidden.value.code == "forbidden"
        with pytest.raises(AuthenticationError):
            stranger.whoami()
        with pytest.raises(ValidationFailedError) as invalid:
            hub.search_memories("alice", "tea", top_k=0)
        assert "top_k" in invalid.value.details["fields"]
        with pytest.raises(SecretDetectedError) as secret:
            hub.create_memories([{"user_id": "alice", "content": "my password is hunter2hunter2"}])
        assert secret.value.status_code == 400
        with pytest.raises(SessionNotFoundError):
            hub.append_turns("no-such-session", [{"role": "user", "content": "hi"}])
        # Nothing the refused calls carried was stored.
        assert [m.content for m in hub.iter_memories(user_id="alice")] == ["Alice likes tea"]


def test_a_query_parameter_the_operation_does_not_take_is_refused_before_sending(live_url, live_key):
    with MemoryhubClient(live_url, live_key) as hub, pytest.raises(TypeError, match="usr_id"):
        hub.list_memories(usr_id="alice")


def test_async_client(live_url, live_key, other_key):
    async def scenario():
        async with AsyncMemoryhubClient(live_url, live_key) as hub, \
                AsyncMemoryhubClient(live_url, other_key) as other:
            await hub.create_memories([{"user_id": "bob", "content": f"Bob fact {i}", "memory_key": f"k{i}"}
                                       for i in range(3)])
            keys = [m.memory_key async for m in hub.iter_memories(user_id="bob", limit=1)]
            searched, whoami = await asyncio.gather(hub.search_memories("bob", "Bob fact", top_k=5), hub.whoami())
            assert [m async for m in other.iter_memories(user_id="bob")] == []
            with pytest.raises(NotFoundError):
                await other.get_memory(searched.results[0].id)
            return keys, searched, whoami

    keys, searched, whoami = asyncio.run(scenario())
    assert sorted(keys) == ["k0", "k1", "k2"]
    assert len(searched.results) == 3 and isinstance(whoami, models.WhoAmI)


def test_permanent_reads_revalidate_with_their_etag(live_key, fault_proxy, tenant, make_staff):
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")

    def apply(value, action="update"):
        proposal = change_request_propose(tenant=tenant, key="rules.tone", action=action, value=value,
                                          proposer_user=editor)
        change_request_approve(change_request=proposal, reviewer=reviewer, payload_hash=proposal.payload_hash)

    apply("calm", action="create")
    with MemoryhubClient(fault_proxy.url, live_key) as hub:
        first = hub.get_permanent("rules.tone")
        again = hub.get_permanent("rules.tone")
        apply("calm and brief")
        changed = hub.get_permanent("rules.tone")
    assert first.value == again.value == "calm" and again is first
    assert changed.value == "calm and brief" and changed.version == first.version + 1
    reads = [entry[3] for entry in fault_proxy.log() if entry[1].startswith("/api/v1/permanent/rules.tone")]
    assert reads == [200, 304, 200]
