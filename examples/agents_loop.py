"""An OpenAI Agents SDK agent whose conversation lives in memoryhub (memoryhub_client.agents).

Offline: the model is scripted (ScriptedModel), so it runs against `make run` with no LLM:

    python examples/agents_loop.py --api-key "$KEY"            # prints the conversation
    python examples/agents_loop.py --api-key "$KEY" --smoke    # checks it, exit status 0 or 1
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import uuid
from collections.abc import AsyncIterator
from typing import Any

from agents import Agent, Runner, set_tracing_disabled
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from memoryhub_client import AsyncMemoryhubClient
from memoryhub_client.agents import MemoryhubSession
from openai.types.responses import ResponseOutputMessage, ResponseOutputText


class ScriptedModel(Model):
    """Answers with the next of its scripted replies and records the input it was given."""

    def __init__(self, replies: list[str]):
        self.replies = list(replies)
        self.inputs: list[list[dict[str, Any]]] = []

    async def get_response(self, system_instructions, input, model_settings, tools, output_schema, handoffs,
                           tracing, *, previous_response_id=None, conversation_id=None, prompt=None,
                           **_: Any) -> ModelResponse:
        self.inputs.append([{"role": "user", "content": input}] if isinstance(input, str) else
                           [dict(item) for item in input])
        text = self.replies.pop(0)
        message = ResponseOutputMessage(id=f"msg_{uuid.uuid4().hex[:12]}", type="message", role="assistant",
                                        status="completed",
                                        content=[ResponseOutputText(type="output_text", text=text, annotations=[])])
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the scripted model does not stream")


async def main(base_url: str, api_key: str, smoke: bool) -> int:
    set_tracing_disabled(True)  # nothing leaves the machine
    model = ScriptedModel(["Noted: you are vegetarian and live in Lyon.",
                           "A vegetarian place in Lyon, then: try Culina Hortus."])
    agent = Agent(name="concierge", instructions="Be brief.", model=model)
    session_id = f"agents-example-{uuid.uuid4().hex[:8]}"
    async with AsyncMemoryhubClient(base_url, api_key) as hub:
        session = MemoryhubSession(session_id, hub, user_id="example-user", agent_id="concierge")
        for said in ["I am vegetarian and I live in Lyon.", "Where should I have dinner?"]:
            result = await Runner.run(agent, said, session=session)
            print(f"user: {said}\nagent: {result.final_output}")
        history = await session.get_items()
        popped = await session.pop_item()
        after_pop = await session.get_items()
        await session.clear_session()
        after_clear = await session.get_items()
        ended = await hub.get_session(session_id)
    print(f"history kept in memoryhub session {session_id}: {len(history)} items; popped {popped!r}")
    if not smoke:
        return 0
    checks = {
        "four items": len(history) == 4,
        "second model call saw the first exchange": [i.get("content") for i in model.inputs[1]][:2] == [
            "I am vegetarian and I live in Lyon.", "Noted: you are vegetarian and live in Lyon."],
        "pop returned the last answer": popped == {"role": "assistant", "content": history[-1]["content"]},
        "pop hid one item": after_pop == history[:-1],
        "clear emptied the history": after_clear == [],
        "clear ended the memoryhub session": ended.status == "ended",
    }
    for name, passed in checks.items():
        print(f"{'ok' if passed else 'FAILED'}: {name}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default=os.environ.get("MEMORYHUB_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--api-key", default=os.environ.get("MEMORYHUB_API_KEY"))
    parser.add_argument("--smoke", action="store_true", help="check the outcome; exit 1 when a check fails")
    arguments = parser.parse_args()
    if not arguments.api_key:
        parser.error("--api-key (or MEMORYHUB_API_KEY) is required")
    sys.exit(asyncio.run(main(arguments.base_url, arguments.api_key, arguments.smoke)))
