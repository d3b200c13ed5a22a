"""memoryhub_client.agents.MemoryhubSession against a live server: the Agents SDK's Session protocol
(get_items with limit, add_items, pop_item, clear_session) over memoryhub sessions and turns, and a
Runner whose scripted model sees the history kept in memoryhub."""
from __future__ import annotations

import asyncio

import pytest
from agents import Agent, Runner, set_tracing_disabled
from agents.memory.session import Session
from memoryhub_client import AsyncMemoryhubClient, MemoryhubClient
from memoryhub_client.agents import MemoryhubSession

from examples.agents_loop import ScriptedModel
from tests.support.processes import wait_for
from tests.support.servers import django_server

pytestmark = pytest.mark.django_db(transaction=True)

CALL = {"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": '{"city": "Lyon"}'}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "sunny, 21 C"}
ANSWER = {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
          "content": [{"type": "output_text", "text": "It is sunny in Lyon.", "annotations": []}]}


def run(live_url, key, scenario):
    async def main():
        async with AsyncMemoryhubClient(live_url, key) as hub:
            return await scenario(hub)
    return asyncio.run(main())


def test_items_round_trip_as_turns(live_url, live_key):
    async def scenario(hub):
        session = MemoryhubSession("chat-a", hub, user_id="alice", agent_id="weather-bot")
        assert isinstance(session, Session)
        assert await session.get_items() == []
        await session.add_items([{"role": "user", "content": "What is the weather in Lyon?"}, CALL, OUTPUT])
        await session.add_items([ANSWER])
        return await session.get_items(), await session.get_items(limit=2)

    items, last_two = run(live_url, live_key, scenario)
    assert items == [{"role": "user", "content": "What is the weather in Lyon?"}, CALL, OUTPUT,
                     {"role": "assistant", "content": "It is sunny in Lyon."}]
    assert last_two == items[2:]
    with MemoryhubClient(live_url, live_key) as hub:
        turns = list(hub.iter_turns("chat-a"))
        assert [(t.role, t.tool_name) for t in turns] == [
            ("user", ""), ("tool", "agents.item"), ("tool", "agents.item"), ("assistant", "")]
        assert turns[3].content == "It is sunny in Lyon."
        assert hub.get_session("chat-a").agent_id == "weather-bot"


def test_pop_hides_the_last_item_and_memoryhub_keeps_the_record(live_url, live_key):
    async def scenario(hub):
        session = MemoryhubSession("chat-p", hub, user_id="alice")
        assert await session.pop_item() is None
        await session.add_items([{"role": "user", "content": f"message {i}"} for i in range(4)])
        popped = await session.pop_item()
        # Two callers popping at once hide two items, never the same one twice.
        other = MemoryhubSession("chat-p", hub, user_id="alice")
        both = await asyncio.gather(session.pop_item(), other.pop_item())
        return popped, both, await session.get_items()

    popped, both, items = run(live_url, live_key, scenario)
    assert popped == {"role": "user", "content": "message 3"}
    assert sorted(item["content"] for item in both) == ["message 1", "message 2"]
    assert items == [{"role": "user", "content": "message 0"}]
    with MemoryhubClient(live_url, live_key) as hub:
        contents = [t.content for t in hub.iter_turns("chat-p") if t.role == "user"]
        assert contents == ["message 0", "message 1", "message 2", "message 3"]


def test_writes_to_a_session_this_instance_opened_send_the_append_alone(live_url, live_key, fault_proxy):
    """The first write looks the session up and opens it; later ones are one POST of turns each. A session
    another instance cleared meanwhile answers that append with a conflict, and the write moves on to the
    next session then."""
    async def scenario(hub):
        session = MemoryhubSession("chat-w", hub, user_id="alice")
        await session.add_items([{"role": "user", "content": "one"}])
        await session.add_items([{"role": "assistant", "content": "two"}])
        await session.add_items([{"role": "user", "content": "three"}])
        calls = [[method, path.split("?")[0]] for method, path, *_ in fault_proxy.log()]
        await MemoryhubSession("chat-w", hub, user_id="alice").clear_session()
        await session.add_items([{"role": "user", "content": "four"}])
        return calls, await session.get_items(), session.memoryhub_session_id

    calls, items, current = run(fault_proxy.url, live_key, scenario)
    assert calls == [["GET", "/api/v1/sessions/chat-w"], ["POST", "/api/v1/sessions"]] + \
        [["POST", "/api/v1/sessions/chat-w/turns"]] * 3
    assert current == "chat-w:2" and items == [{"role": "user", "content": "four"}]


def test_clear_ends_the_session_and_every_instance_moves_on(live_url, live_key):
    async def scenario(hub):
        session = MemoryhubSession("chat-c", hub, user_id="alice")
        await session.add_items([{"role": "user", "content": "I live in Lyon"}])
        await session.clear_session()
        assert await session.get_items() == []
        await session.add_items([{"role": "user", "content": "hello again"}])
        later = MemoryhubSession("chat-c", hub, user_id="alice")
        return await later.get_items(), later.memoryhub_session_id

    items, current = run(live_url, live_key, scenario)
    assert items == [{"role": "user", "content": "hello again"}] and current == "chat-c:2"
    with MemoryhubClient(live_url, live_key) as hub:
        assert hub.get_session("chat-c").status == "ended"
        assert hub.get_session("chat-c:2").status == "active"


def test_another_tenant_sees_nothing_and_secrets_are_redacted(live_url, live_key, other_key):
    async def write(hub):
        session = MemoryhubSession("chat-s", hub, user_id="alice")
        await session.add_items([{"role": "user", "content": "my password is hunter2hunter2, keep it"}])
        return await session.get_items()

    async def read_other(hub):
        return await MemoryhubSession("chat-s", hub, user_id="alice").get_items()

    [item] = run(live_url, live_key, write)
    assert "hunter2hunter2" not in item["content"]
    assert run(live_url, other_key, read_other) == []


def test_a_runner_keeps_its_conversation_in_memoryhub(live_url, live_key):
    set_tracing_disabled(True)  # the SDK would otherwise try to export the run's trace to OpenAI
    model = ScriptedModel(["Noted: vegetarian.", "You told me you are vegetarian."])
    agent = Agent(name="assistant", instructions="Be brief.", model=model)

    async def scenario(hub):
        session = MemoryhubSession("chat-r", hub, user_id="alice")
        await Runner.run(agent, "I am vegetarian.", session=session)
        second = await Runner.run(agent, "What do I eat?", session=session)
        return second.final_output

    assert run(live_url, live_key, scenario) == "You told me you are vegetarian."
    # The second model call saw the first exchange, read back from memoryhub.
    assert [item.get("content") for item in model.inputs[1]] == [
        "I am vegetarian.", "Noted: vegetarian.", "What do I eat?"]
    with MemoryhubClient(live_url, live_key) as hub:
        assert [t.content for t in hub.iter_turns("chat-r")] == [
            "I am vegetarian.", "Noted: vegetarian.", "What do I eat?", "You told me you are vegetarian."]


def test_a_cleared_session_is_extracted_into_long_term_memories(live_key, celery_worker, celery_queue, tmp_path):
    """clear_session ends the memoryhub session, and the real worker forms memories from its turns."""
    with django_server(extra_env={"CELERY_QUEUE": celery_queue}, log_path=tmp_path / "server.log") as url:
        async def scenario(hub):
            session = MemoryhubSession("chat-x", hub, user_id="erin")
            await session.add_items([{"role": "user", "content": "I am vegetarian and I live in Lyon."},
                                     {"role": "assistant", "content": "Noted."}])
            await session.clear_session()

        run(url, live_key, scenario)
        with MemoryhubClient(url, live_key) as hub:
            def formed():
                memories = {m.memory_key: m for m in hub.iter_memories(user_id="erin", status="active")}
                return memories if {"user.diet", "user.home_city"} <= set(memories) else None

            memories = wait_for(formed, timeout=120, interval=0.5, message="memories formed from the session")
    assert memories["user.home_city"].provenance.source_session_id == "chat-x"
    assert "Lyon" in memories["user.home_city"].content and "vegetarian" in memories["user.diet"].content


def test_a_secret_inside_a_tool_item_is_redacted_and_the_item_still_reads_back(live_url, live_key):
    leaked = {"type": "function_call_output", "call_id": "call_9",
              "output": "token sk-abcdefghijklmnopqrstuvwxyz123456 issued"}

    async def scenario(hub):
        session = MemoryhubSession("chat-k", hub, user_id="alice")
        await session.add_items([leaked])
        return await session.get_items()

    [item] = run(live_url, live_key, scenario)
    assert item == {**leaked, "output": "token [REDACTED:api_key] issued"}
