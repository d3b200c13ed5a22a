"""LangGraph `BaseStore` over memoryhub's long-term memories.

Namespaces are `(user_id, agent_id, kind)`: the user whose memory it is, the agent that wrote it (`-`
for none, e.g. memories formation extracted from conversations) and the memory kind (`fact` unless said).
A shorter namespace stands for its defaults: `("alice",)` is `("alice", "-", "fact")`. The key is the
memory's `memory_key`; a memory without one answers to `memory-<id>`. `put` writes a memory through the
API (or patches the one with that key), keeping the value in `attributes["store_value"]` and, for the
embedding and keyword index, its `content` (or `index` fields, else the JSON text) as the memory's content;
`value=None` soft-deletes. `search` with a query is memoryhub's hybrid search (`SearchItem.score` is its
score in [0, 1]); without one it lists the newest memories. Filters compare the value's fields
(`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, or plain equality).

TTL: memoryhub expires a memory by its importance (layers/long_term/policy.py: >= 0.9 never, >= 0.7
90 days, >= 0.4 30 days, else 7 days), so a TTL picks the shortest band that outlives it and the exact
deadline is kept in `attributes["store_expires_at"]`: reads omit an item past it, and a read with
`refresh_ttl` moves it on. Without a TTL, memoryhub's own forgetting applies (the importance it infers
from kind, key and content); a later put without a TTL keeps the band an earlier TTL chose.

memoryhub searches one user at a time, so a search or namespace listing needs the user as its first
label. `abatch` runs `batch` in a worker thread. A value memoryhub quarantines (instruction-like text)
is stored for review but not served: `put` logs a warning and `get` answers None.
"""
from __future__ import annotations

import asyncio
import datetime
import json
import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)

from memoryhub_client.client import MemoryhubClient
from memoryhub_client.errors import NotFoundError

logger = logging.getLogger(__name__)

NO_AGENT = "-"
DEFAULT_KIND = "fact"
KINDS = ("preference", "fact", "event", "episode", "habit")
VALUE_ATTRIBUTE = "store_value"
EXPIRES_ATTRIBUTE = "store_expires_at"
TTL_ATTRIBUTE = "store_ttl_minutes"
_ID_KEY = re.compile(r"memory-(\d+)")
# Importance bands of memoryhub's TTL ladder, shortest first: (lifetime in minutes, importance).
_TTL_BANDS = ((7 * 24 * 60, 0.3), (30 * 24 * 60, 0.4), (90 * 24 * 60, 0.7))
_NEVER = 0.9
_LIST_PAGE = 100


def _scope(namespace: tuple[str, ...]) -> tuple[str, str, str]:
    if not 1 <= len(namespace) <= 3:
        raise InvalidNamespaceError(f"memoryhub namespaces are (user_id, agent_id, kind); got {namespace}")
    user_id, agent_id, kind = tuple(namespace) + ("", NO_AGENT, DEFAULT_KIND)[len(namespace):]
    if kind not in KINDS:
        raise InvalidNamespaceError(f"the third label of {namespace} must be a memory kind, one of {KINDS}")
    return user_id, agent_id, kind


def _namespace_of(memory: Any) -> tuple[str, str, str]:
    return memory.user_id, memory.provenance.agent_id or NO_AGENT, memory.kind


def _key_of(memory: Any) -> str:
    return memory.memory_key or f"memory-{memory.id}"


def _value_of(memory: Any) -> dict[str, Any]:
    stored = (memory.attributes or {}).get(VALUE_ATTRIBUTE)
    if isinstance(stored, dict):
        return stored
    return {"content": memory.content, "kind": memory.kind, "entities": list(memory.entities or [])}


def _expired(memory: Any, now: datetime.datetime) -> bool:
    deadline = (memory.attributes or {}).get(EXPIRES_ATTRIBUTE)
    return isinstance(deadline, str) and datetime.datetime.fromisoformat(deadline) <= now


def _content(value: dict[str, Any], index: Sequence[str] | None | bool) -> str:
    if isinstance(index, list) and index:
        parts = [str(value[field]) for field in index if value.get(field) not in (None, "")]
        if parts:
            return "\n".join(parts)
    for field in ("content", "text"):
        if isinstance(value.get(field), str) and value[field].strip():
            return value[field]
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _importance_for(ttl_minutes: float | None) -> float | None:
    if ttl_minutes is None:
        return None
    return next((importance for lifetime, importance in _TTL_BANDS if ttl_minutes <= lifetime), _NEVER)


_OPERATORS = {
    "$eq": lambda a, b: a == b, "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a is not None and a > b, "$gte": lambda a, b: a is not None and a >= b,
    "$lt": lambda a, b: a is not None and a < b, "$lte": lambda a, b: a is not None and a <= b,
}


def _matches(value: dict[str, Any], conditions: dict[str, Any] | None) -> bool:
    for field, wanted in (conditions or {}).items():
        actual = value.get(field)
        if isinstance(wanted, dict) and wanted and all(op in _OPERATORS for op in wanted):
            if not all(_OPERATORS[op](actual, operand) for op, operand in wanted.items()):
                return False
        elif actual != wanted:
            return False
    return True


def _label_matches(labels: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    return len(labels) >= len(pattern) and all(p == "*" or p == label for label, p in zip(labels, pattern))


class MemoryhubStore(BaseStore):
    """`MemoryhubStore(MemoryhubClient(url, key))`; pass it to `graph.compile(store=...)`."""

    supports_ttl = True

    def __init__(self, client: MemoryhubClient, *, ttl: TTLConfig | None = None, min_score: float | None = None):
        self.client = client
        self.ttl_config = ttl
        self.min_score = min_score

    # -- BaseStore -------------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"unknown store operation {op!r}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.get_running_loop().run_in_executor(None, self.batch, list(ops))

    # -- operations -------------------------------------------------------------------------------------

    def _find(self, namespace: tuple[str, ...], key: str) -> Any | None:
        user_id, agent_id, kind = _scope(namespace)
        by_id = _ID_KEY.fullmatch(key)
        if by_id:
            try:
                candidates = [self.client.get_memory(int(by_id.group(1)))]
            except NotFoundError:
                return None
        else:
            candidates = self.client.list_memories(user_id=user_id, kind=kind, memory_key=key, status="active",
                                                   limit=_LIST_PAGE).results
        now = datetime.datetime.now(datetime.timezone.utc)
        for memory in candidates:
            if memory.status == "active" and _namespace_of(memory) == (user_id, agent_id, kind) \
                    and _key_of(memory) == key and not _expired(memory, now):
                return memory
        return None

    def _refresh(self, memory: Any) -> Any:
        minutes = (memory.attributes or {}).get(TTL_ATTRIBUTE)
        if not minutes:
            return memory
        attributes = {**memory.attributes, EXPIRES_ATTRIBUTE: _deadline(minutes)}
        return self.client.update_memory(memory.id, attributes=attributes)

    def _get(self, op: GetOp) -> Item | None:
        memory = self._find(op.namespace, op.key)
        if memory is None:
            return None
        if op.refresh_ttl:
            memory = self._refresh(memory)
        return Item(value=_value_of(memory), key=op.key, namespace=op.namespace,
                    created_at=memory.created_at, updated_at=memory.updated_at)

    def _put(self, op: PutOp) -> None:
        existing = self._find(op.namespace, op.key)
        if op.value is None:
            if existing is not None:
                self.client.delete_memory(existing.id)
            return None
        ttl = op.ttl if op.ttl is not None else (self.ttl_config or {}).get("default_ttl")
        attributes: dict[str, Any] = {VALUE_ATTRIBUTE: op.value}
        if ttl is not None:
            attributes.update({TTL_ATTRIBUTE: ttl, EXPIRES_ATTRIBUTE: _deadline(ttl)})
        fields: dict[str, Any] = {"content": _content(op.value, op.index), "attributes": attributes}
        importance = _importance_for(ttl)
        if importance is not None:
            fields["importance"] = importance
        if existing is not None:
            self.client.update_memory(existing.id, **fields)
            return None
        user_id, agent_id, kind = _scope(op.namespace)
        if _ID_KEY.fullmatch(op.key):
            raise ValueError(f"keys of the form memory-<id> name memories by id; choose another key than {op.key}")
        memory = {"user_id": user_id, "kind": kind, "memory_key": op.key, **fields}
        if agent_id != NO_AGENT:
            memory["agent_id"] = agent_id
        written = self.client.create_memory(memory)
        if written.status == "quarantined":
            # Held for review (instruction-like content), so reads will not serve it. Not raised: the text
            # usually comes from the user, and a user should not be able to stop the agent's run with it.
            logger.warning("memoryhub quarantined memory %s put at %s/%s (%s); it is not served until reviewed",
                           written.id, op.namespace, op.key, ", ".join(written.quarantine_reasons))
        return None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = op.namespace_prefix
        if not prefix or prefix[0] == "*":
            raise InvalidNamespaceError("memoryhub searches one user's memories: the prefix must start with a user_id")
        user_id = prefix[0]
        kind = prefix[2] if len(prefix) >= 3 and prefix[2] != "*" else None
        wanted = op.offset + op.limit
        now = datetime.datetime.now(datetime.timezone.utc)
        found: list[tuple[Any, float | None]] = []
        if op.query:
            options: dict[str, Any] = {"top_k": 100 if (op.filter or len(prefix) > 1) else min(wanted, 100)}
            if kind:
                options["kinds"] = [kind]
            if self.min_score is not None:
                options["min_score"] = self.min_score
            for result in self.client.search_memories(user_id, op.query, **options).results:
                found.append((result, result.score))
        else:
            query = {"user_id": user_id, "status": "active", "limit": _LIST_PAGE}
            if kind:
                query["kind"] = kind
            for memory in self.client.iter_memories(**query):
                found.append((memory, None))
                if len(found) >= wanted + _LIST_PAGE * 4:
                    break
        items = []
        for memory, score in found:
            namespace = _namespace_of(memory)
            if memory.status != "active" or not _label_matches(namespace, prefix) or _expired(memory, now):
                continue
            value = _value_of(memory)
            if not _matches(value, op.filter):
                continue
            items.append(SearchItem(namespace=namespace, key=_key_of(memory), value=value,
                                    created_at=memory.created_at,
                                    updated_at=getattr(memory, "updated_at", None) or memory.created_at,
                                    score=score))
        return items[op.offset:op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        prefixes = [c.path for c in op.match_conditions or () if c.match_type == "prefix"]
        users = {p[0] for p in prefixes if p and p[0] != "*"}
        if len(users) != 1:
            raise InvalidNamespaceError("memoryhub lists one user's namespaces: give a prefix condition whose first "
                                        "label is the user_id")
        user_id = users.pop()
        now = datetime.datetime.now(datetime.timezone.utc)
        namespaces = set()
        for memory in self.client.iter_memories(user_id=user_id, status="active", limit=_LIST_PAGE):
            if _expired(memory, now):
                continue
            namespace = _namespace_of(memory)
            if all(_condition_holds(namespace, c) for c in op.match_conditions or ()):
                namespaces.add(namespace[:op.max_depth] if op.max_depth is not None else namespace)
        return sorted(namespaces)[op.offset:op.offset + op.limit]


def _condition_holds(namespace: tuple[str, ...], condition: Any) -> bool:
    path = tuple(condition.path)
    if condition.match_type == "prefix":
        return _label_matches(namespace, path)
    return _label_matches(tuple(reversed(namespace)), tuple(reversed(path)))


def _deadline(minutes: float) -> str:
    return (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=minutes)).isoformat()
