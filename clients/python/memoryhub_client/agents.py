"""OpenAI Agents SDK `Session` over memoryhub sessions and turns.

`Runner.run(agent, "...", session=MemoryhubSession("chat-1", hub, user_id="alice"))` keeps the
conversation in memoryhub, where it is summarised and extracted into long-term memories like any other.

Items map to turns: a user, assistant or system message whose content is text becomes a turn with that
role and the text (what summaries and extraction read), and is given back as `{"role", "content"}`;
any other item (function calls and their outputs, reasoning, messages with images) is kept whole as a
`tool` turn (`tool_name` "agents.item", the item's JSON), which extraction does not read
(layers/formation/services/extraction.py reads user and assistant turns only).

Turns are memoryhub's record and are never deleted (only erasure removes them), so:
- `pop_item` appends a marker turn (`tool_name` "agents.pop") that hides the last item from `get_items`;
  its client id names the popped turn, so two callers popping at once cannot hide two items for one pop.
- `clear_session` ends the memoryhub session (which summarises and extracts it) and moves on to a
  fresh one: memoryhub session `<session_id>`, then `<session_id>:2`, `:3`, ... The current one is the
  first that is not ended or expired, so every process using the same session id agrees on it.
"""
from __future__ import annotations

import json
from typing import Any

from memoryhub_client.client import AsyncMemoryhubClient
from memoryhub_client.errors import ConflictError, NotFoundError

ITEM_TOOL = "agents.item"
POP_TOOL = "agents.pop"
TEXT_ROLES = ("user", "assistant", "system")
_TEXT_PARTS = ("input_text", "output_text", "text")
_CLOSED = ("ended", "expired")


def _text_of(item: dict[str, Any]) -> str | None:
    """The text of a plain text message, or None when the item must be kept whole."""
    if item.get("role") not in TEXT_ROLES or item.get("type", "message") != "message":
        return None
    content = item.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list) and content and all(
            isinstance(part, dict) and part.get("type") in _TEXT_PARTS and isinstance(part.get("text"), str)
            for part in content):
        text = "".join(part["text"] for part in content)
    else:
        return None
    return text if text.strip() else None


def item_to_turn(item: dict[str, Any]) -> dict[str, Any]:
    text = _text_of(item)
    if text is not None:
        return {"role": item["role"], "content": text}
    return {"role": "tool", "tool_name": ITEM_TOOL, "content": json.dumps(item, ensure_ascii=False)}


class MemoryhubSession:
    """Implements the Agents SDK's `Session` protocol (agents.memory.session.Session)."""

    session_settings = None

    def __init__(self, session_id: str, client: AsyncMemoryhubClient, *, user_id: str,
                 agent_id: str | None = None, metadata: dict[str, Any] | None = None):
        self.session_id = session_id
        self.client = client
        self.user_id = user_id
        self.agent_id = agent_id
        self.metadata = metadata
        self._generation = 1
        self._opened = False

    def _memoryhub_id(self, generation: int) -> str:
        return self.session_id if generation == 1 else f"{self.session_id}:{generation}"

    @property
    def memoryhub_session_id(self) -> str:
        """The memoryhub session that holds the current history (changes on `clear_session`)."""
        return self._memoryhub_id(self._generation)

    async def _current(self) -> str | None:
        """The current memoryhub session id, or None when it does not exist yet (nothing was said)."""
        while True:
            try:
                session = await self.client.get_session(self.memoryhub_session_id)
            except NotFoundError:
                return None
            if session.status not in _CLOSED:
                return self.memoryhub_session_id
            self._generation += 1
            self._opened = False

    async def _visible_turns(self) -> list[Any]:
        current = await self._current()
        if current is None:
            return []
        turns, popped = [], set()
        async for turn in self.client.iter_turns(current, limit=200):
            if turn.role == "tool" and turn.tool_name == POP_TOOL:
                popped.add(json.loads(turn.content)["pop"])
            else:
                turns.append(turn)
        return [turn for turn in turns if turn.seq not in popped]

    @staticmethod
    def _item(turn: Any) -> dict[str, Any]:
        if turn.role == "tool" and turn.tool_name == ITEM_TOOL:
            return json.loads(turn.content)
        return {"role": turn.role, "content": turn.content}

    async def get_items(self, limit: int | None = None) -> list[dict[str, Any]]:
        items = [self._item(turn) for turn in await self._visible_turns()]
        return items[-limit:] if limit is not None and limit > 0 else ([] if limit == 0 else items)

    async def _append(self, turns: list[dict[str, Any]]) -> Any:
        for _ in range(3):
            # Once this instance opened the current session it appends straight away: a session closed
            # meanwhile answers the append with a conflict, and only then is the current one looked up.
            if not self._opened:
                await self._current()
                fields = {"agent_id": self.agent_id, "metadata": self.metadata}
                await self.client.open_session(self.memoryhub_session_id, self.user_id,
                                               **{k: v for k, v in fields.items() if v is not None})
                self._opened = True
            try:
                return await self.client.append_turns(self.memoryhub_session_id, turns)
            except ConflictError:
                # Ended or expired between our look and the append (another process cleared it).
                self._opened = False
        raise ConflictError(status_code=409, code="session_closed", message=(
            f"memoryhub session {self.memoryhub_session_id} kept closing while turns were appended"))

    async def add_items(self, items: list[dict[str, Any]]) -> None:
        if items:
            await self._append([item_to_turn(dict(item)) for item in items])

    async def pop_item(self) -> dict[str, Any] | None:
        while True:
            turns = await self._visible_turns()
            if not turns:
                return None
            last = turns[-1]
            marker = {"role": "tool", "tool_name": POP_TOOL, "content": json.dumps({"pop": last.seq}),
                      "client_id": f"agents-pop-{last.seq}"}
            answer = await self._append([marker])
            if answer.created:
                return self._item(last)
            # Replayed: another caller popped this item first; pop the one before it.

    async def clear_session(self) -> None:
        current = await self._current()
        if current is not None:
            await self.client.end_session(current)
        self._generation += 1
        self._opened = False
