"""Sync and async clients of the memoryhub REST API over httpx.

Both share every operation (`_Operations`): a method builds the call and hands it to `_call`, which
the sync client runs and the async client returns as a coroutine. Retries: connection failures and
5xx, honouring Retry-After; a write is retried only when sending it twice cannot apply it twice (its
items carry client ids, which the client fills in, or the server said it applied nothing).
"""
from __future__ import annotations

import asyncio
import email.utils
import functools
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter

from memoryhub_client import models
from memoryhub_client.errors import APIError, TransportError, error_class


@functools.cache
def _adapter(model: str) -> TypeAdapter:
    """The validator of one schema model, built once: a pydantic TypeAdapter costs more to build than to use."""
    return TypeAdapter(getattr(models, model))


DEFAULT_TIMEOUT = httpx.Timeout(10.0, connect=5.0)

# POSTs that are safe to send twice: items keyed by client id (filled in by the client), a session
# keyed by its session_id, and reads that happen to be POSTs.
IDEMPOTENT_POSTS = frozenset({
    "v1_memories_create", "v1_sessions_turns_create", "v1_sessions_create", "v1_reminders_create",
    "v1_memories_search_create", "v1_context_create",
})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE"})
# Answers of a request the server did not apply: any method may be sent again.
NOT_APPLIED_CODES = frozenset({"contended", "rate_limited"})


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4
    backoff: float = 0.25
    max_wait: float = 10.0
    statuses: frozenset[int] = field(default_factory=lambda: frozenset({429, 500, 502, 503, 504}))

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None to give up."""
        if attempt >= self.attempts:
            return None
        if retry_after is not None:
            return retry_after if retry_after <= self.max_wait else None
        return min(self.backoff * (2 ** (attempt - 1)), self.max_wait)


NO_RETRY = RetryPolicy(attempts=1)


@dataclass
class _Call:
    operation_id: str
    method: str
    url: str
    body: Any
    params: dict[str, Any]
    replay_safe: bool
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def cache_key(self) -> tuple[str, tuple[tuple[str, Any], ...]]:
        return self.url, tuple(sorted(self.params.items()))


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        moment = email.utils.parsedate_to_datetime(value)
        return max(moment.timestamp() - time.time(), 0.0) if moment else None


def _dump(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, list):
        return [_dump(item) for item in value]
    return value


def _with_client_ids(items: Sequence[Any]) -> list[dict[str, Any]]:
    """Each item as a dict with a client id, so a retried batch replays instead of writing twice."""
    filled = []
    for item in items:
        item = dict(_dump(item))
        if not item.get("client_id"):
            item["client_id"] = uuid.uuid4().hex
        filled.append(item)
    return filled


class _Operations:
    """Every operation of the API. Each returns what `_call` returns: a model, or an awaitable of one."""

    def __init__(self, base_url: str, api_key: str, *, timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
                 retry: RetryPolicy | None = None, headers: Mapping[str, str] | None = None):
        base_url = base_url.rstrip("/")
        if base_url.endswith("/api/v1"):
            base_url = base_url[: -len("/api/v1")]
        self.base_url = base_url
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json", **(headers or {})}
        # The last answer of each GET that came with an ETag (permanent entries): sent back as
        # If-None-Match, so an unchanged entry costs a 304 and no body (permanent/apis.py).
        self._validated: dict[tuple[str, tuple[tuple[str, Any], ...]], tuple[str, Any]] = {}

    def _call(self, operation_id: str, path: Mapping[str, Any] | None = None, body: Any = None,
              query: Mapping[str, Any] | None = None):
        raise NotImplementedError

    def _paginate(self, operation_id: str, path: Mapping[str, Any] | None = None,
                  query: Mapping[str, Any] | None = None):
        raise NotImplementedError

    # -- shared by both transports ------------------------------------------------------------------

    def _prepare(self, operation_id: str, path: Mapping[str, Any] | None, body: Any,
                 query: Mapping[str, Any] | None) -> _Call:
        operation = models.OPERATIONS[operation_id]
        params = {key: value for key, value in (query or {}).items() if value is not None}
        unknown = set(params) - set(operation.query)
        if unknown:
            raise TypeError(f"{operation_id} takes no query parameter {sorted(unknown)}; it takes {operation.query}")
        params = {key: (value.isoformat() if hasattr(value, "isoformat") else
                        str(value).lower() if isinstance(value, bool) else value) for key, value in params.items()}
        url = operation.path.format(**{key: quote(str(value), safe="") for key, value in (path or {}).items()})
        if operation.request is not None:
            body = {} if body is None else body
            body = _dump(_adapter(operation.request).validate_python(_dump(body)))
        replay_safe = operation.method in IDEMPOTENT_METHODS or operation_id in IDEMPOTENT_POSTS
        call = _Call(operation_id, operation.method, url, body, params, replay_safe)
        if call.method == "GET" and call.cache_key in self._validated:
            call.headers["If-None-Match"] = self._validated[call.cache_key][0]
        return call

    def _retry_delay(self, call: _Call, attempt: int, *, response: httpx.Response | None = None,
                     error: httpx.TransportError | None = None) -> float | None:
        if error is not None:
            # A refused or timed-out connect never reached the server: any call may go again.
            if call.replay_safe or isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout)):
                return self.retry.delay(attempt, None)
            return None
        assert response is not None
        if response.status_code not in self.retry.statuses:
            return None
        code = _error_code(response)
        if not (call.replay_safe or code in NOT_APPLIED_CODES):
            return None
        return self.retry.delay(attempt, _retry_after(response))

    def _decode(self, call: _Call, response: httpx.Response) -> Any:
        if response.status_code >= 400:
            raise _api_error(response)
        if response.status_code == 304 and call.cache_key in self._validated:
            return self._validated[call.cache_key][1]
        operation = models.OPERATIONS[call.operation_id]
        model = operation.responses.get(str(response.status_code))
        if response.status_code == 204 or not response.content:
            return None
        if model is None:  # an answer the schema describes inline (health): plain JSON
            return response.json()
        answer = _adapter(model).validate_python(response.json())
        if call.method == "GET" and response.headers.get("ETag"):
            self._validated[call.cache_key] = (response.headers["ETag"], answer)
        return answer

    # -- identity and health -----------------------------------------------------------------------

    def whoami(self) -> models.WhoAmI:
        return self._call("v1_whoami_retrieve")

    def health(self) -> dict[str, Any]:
        return self._call("v1_health_retrieve")

    # -- long-term memories ------------------------------------------------------------------------

    def create_memory(self, memory: models.MemoryInputRequest | Mapping[str, Any] | None = None,
                      **fields: Any) -> models.MemoryWriteOutput:
        """One memory (`user_id`, `content`, ...). Its client id is filled in when absent."""
        return self._call("v1_memories_create", body=_with_client_ids([memory or fields])[0])

    def create_memories(self, memories: Sequence[models.MemoryInputRequest | Mapping[str, Any]],
                        ) -> models.MemoryBatchResponse:
        return self._call("v1_memories_create", body={"memories": _with_client_ids(memories)})

    def list_memories(self, **query: Any) -> models.MemoryListResponse:
        """One page; `query`: user_id, kind, status, memory_key, entity, created_after/before, limit, cursor."""
        return self._call("memories_list", query=query)

    def iter_memories(self, **query: Any):
        """Every memory matching `query`, following the cursor page after page."""
        return self._paginate("memories_list", query=query)

    def get_memory(self, memory_id: int) -> models.MemoryOutput:
        return self._call("v1_memories_retrieve", {"memory_id": memory_id})

    def update_memory(self, memory_id: int, patch: models.PatchedMemoryPatchInputRequest | Mapping[str, Any]
                      | None = None, **fields: Any) -> models.MemoryOutput:
        return self._call("v1_memories_partial_update", {"memory_id": memory_id}, body=patch or fields)

    def delete_memory(self, memory_id: int) -> None:
        """Soft delete (restorable by `restore_memory`)."""
        return self._call("v1_memories_destroy", {"memory_id": memory_id})

    def restore_memory(self, memory_id: int) -> models.MemoryOutput:
        return self._call("v1_memories_restore_create", {"memory_id": memory_id})

    def release_memory(self, memory_id: int) -> models.MemoryOutput:
        return self._call("v1_memories_release_create", {"memory_id": memory_id})

    def revert_memory(self, memory_id: int, *, history_id: int) -> models.MemoryOutput:
        return self._call("v1_memories_revert_create", {"memory_id": memory_id}, body={"history_id": history_id})

    def memory_feedback(self, memory_id: int, *, useful: bool) -> models.MemoryOutput:
        return self._call("v1_memories_feedback_create", {"memory_id": memory_id}, body={"useful": useful})

    def memory_history(self, memory_id: int, **query: Any) -> models.MemoryHistoryResponse:
        return self._call("v1_memories_history_retrieve", {"memory_id": memory_id}, query=query)

    def iter_memory_history(self, memory_id: int, **query: Any):
        return self._paginate("v1_memories_history_retrieve", {"memory_id": memory_id}, query=query)

    def search_memories(self, user_id: str, query: str, **options: Any) -> models.MemorySearchResponse:
        """Hybrid search by default; `options`: top_k, mode, kinds, entities, memory_key, min_score, explain..."""
        return self._call("v1_memories_search_create", body={"user_id": user_id, "query": query, **options})

    def graph(self, **query: Any) -> models.GraphNeighboursResponse:
        return self._call("v1_graph_retrieve", query=query)

    # -- context -----------------------------------------------------------------------------------

    def get_context(self, request: models.ContextInputRequest | Mapping[str, Any] | None = None,
                    **fields: Any) -> models.ContextResponse:
        return self._call("v1_context_create", body=request or fields)

    # -- sessions, turns, tasks ---------------------------------------------------------------------

    def open_session(self, session_id: str, user_id: str, **fields: Any) -> models.SessionOutput:
        """Opens the session, or answers the open one with this id (same user) as it is."""
        return self._call("v1_sessions_create", body={"session_id": session_id, "user_id": user_id, **fields})

    def get_session(self, session_id: str) -> models.SessionOutput:
        return self._call("v1_sessions_retrieve", {"session_id": session_id})

    def end_session(self, session_id: str) -> models.SessionOutput:
        return self._call("v1_sessions_end_create", {"session_id": session_id})

    def append_turns(self, session_id: str, turns: Sequence[models.TurnsAppendItemRequest | Mapping[str, Any]],
                     ) -> models.TurnsAppendOutput:
        """Appends in order; each turn's client id is filled in when absent, so a retry replays."""
        return self._call("v1_sessions_turns_create", {"session_id": session_id},
                          body={"turns": _with_client_ids(turns)})

    def list_turns(self, session_id: str, **query: Any) -> models.TurnListOutput:
        return self._call("v1_sessions_turns_retrieve", {"session_id": session_id}, query=query)

    def iter_turns(self, session_id: str, **query: Any):
        return self._paginate("v1_sessions_turns_retrieve", {"session_id": session_id}, query=query)

    def get_window(self, session_id: str, **query: Any) -> models.SessionWindowOutput:
        return self._call("v1_sessions_window_retrieve", {"session_id": session_id}, query=query)

    def session_entities(self, session_id: str, **query: Any) -> models.SessionEntitiesOutput:
        return self._call("v1_sessions_entities_retrieve", {"session_id": session_id}, query=query)

    def start_task(self, session_id: str, task_type: str, **fields: Any) -> models.TaskOutput:
        return self._call("v1_sessions_tasks_create", {"session_id": session_id},
                          body={"task_type": task_type, **fields})

    def task_stack(self, session_id: str) -> models.TaskStackOutput:
        return self._call("v1_sessions_tasks_retrieve", {"session_id": session_id})

    def get_task(self, task_id: int) -> models.TaskOutput:
        return self._call("v1_tasks_retrieve", {"task_id": task_id})

    def update_task(self, task_id: int, patch: models.PatchedTaskUpdateInputRequest | Mapping[str, Any]
                    | None = None, **fields: Any) -> models.TaskChangeOutput:
        return self._call("v1_tasks_partial_update", {"task_id": task_id}, body=patch or fields)

    def list_task_types(self) -> models.TaskTypeListOutput:
        return self._call("task_types_list")

    def create_task_type(self, name: str, **fields: Any) -> models.TaskTypeOutput:
        return self._call("v1_task_types_create", body={"name": name, **fields})

    def get_task_type(self, name: str) -> models.TaskTypeOutput:
        return self._call("task_type_get", {"name": name})

    def update_task_type(self, name: str, **fields: Any) -> models.TaskTypeOutput:
        return self._call("v1_task_types_partial_update", {"name": name}, body=fields)

    # -- permanent entries ---------------------------------------------------------------------------

    def list_permanent(self, **query: Any) -> models.EntryListOutput:
        return self._call("permanent_list", query=query)

    def iter_permanent(self, **query: Any):
        return self._paginate("permanent_list", query=query)

    def get_permanent(self, key: str, *, user_id: str | None = None) -> models.EntryOutput:
        return self._call("permanent_get", {"key": key}, query={"user_id": user_id})

    def propose_change(self, key: str, **fields: Any) -> models.ChangeRequestOutput:
        return self._call("permanent_change_request_create", body={"key": key, **fields})

    def list_change_requests(self, **query: Any) -> models.ChangeRequestListOutput:
        return self._call("permanent_change_request_list", query=query)

    def iter_change_requests(self, **query: Any):
        return self._paginate("permanent_change_request_list", query=query)

    def get_change_request(self, change_request_id: int) -> models.ChangeRequestOutput:
        return self._call("permanent_change_request_get", {"change_request_id": change_request_id})

    def withdraw_change_request(self, change_request_id: int) -> models.ChangeRequestOutput:
        return self._call("permanent_change_request_withdraw", {"change_request_id": change_request_id})

    # -- reminders -----------------------------------------------------------------------------------

    def create_reminder(self, user_id: str, **fields: Any) -> models.ReminderOutput:
        fields.setdefault("client_id", uuid.uuid4().hex)
        return self._call("v1_reminders_create", body={"user_id": user_id, **fields})

    def list_reminders(self, **query: Any) -> models.ReminderListResponse:
        return self._call("reminders_list", query=query)

    def iter_reminders(self, **query: Any):
        return self._paginate("reminders_list", query=query)

    def get_reminder(self, reminder_id: int) -> models.ReminderOutput:
        return self._call("v1_reminders_retrieve", {"reminder_id": reminder_id})

    def update_reminder(self, reminder_id: int, **fields: Any) -> models.ReminderOutput:
        return self._call("v1_reminders_partial_update", {"reminder_id": reminder_id}, body=fields)

    def get_reminder_settings(self) -> models.ReminderSettingsOutput:
        return self._call("v1_reminder_settings_retrieve")

    def update_reminder_settings(self, **fields: Any) -> models.ReminderSettingsOutput:
        return self._call("v1_reminder_settings_update", body=fields)

    # -- users -----------------------------------------------------------------------------------------

    def export_user(self, user_id: str) -> models.UserExport:
        return self._call("user_export", {"user_id": user_id})

    def erase_user(self, user_id: str) -> None:
        """Erases the user from every layer (admin scope)."""
        return self._call("user_erase", {"user_id": user_id})


def _error_code(response: httpx.Response) -> str:
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return ""


def _api_error(response: httpx.Response) -> APIError:
    try:
        error = response.json()["error"]
        code, message, details = error["code"], error.get("message", ""), error.get("details") or {}
    except (ValueError, KeyError, TypeError):
        code, message, details = "error", response.text[:500], {}
    klass = error_class(response.status_code, code)
    return klass(status_code=response.status_code, code=code, message=message, details=details,
                 request_id=response.headers.get("X-Request-ID"), retry_after=_retry_after(response))


class MemoryhubClient(_Operations):
    """Blocking client. `with MemoryhubClient(url, key) as hub: hub.search_memories("alice", "diet")`."""

    def __init__(self, base_url: str, api_key: str, *, timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
                 retry: RetryPolicy | None = None, headers: Mapping[str, str] | None = None,
                 transport: httpx.BaseTransport | None = None):
        super().__init__(base_url, api_key, timeout=timeout, retry=retry, headers=headers)
        self._http = httpx.Client(base_url=self.base_url, headers=self.headers, timeout=timeout,
                                  transport=transport)

    def _call(self, operation_id, path=None, body=None, query=None):
        call = self._prepare(operation_id, path, body, query)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._http.request(call.method, call.url, json=call.body, params=call.params,
                                              headers=call.headers)
            except httpx.TransportError as error:
                delay = self._retry_delay(call, attempt, error=error)
                if delay is None:
                    raise TransportError(f"{call.method} {call.url}: {error!r} (attempt {attempt})") from error
                time.sleep(delay)
                continue
            delay = self._retry_delay(call, attempt, response=response)
            if delay is None:
                return self._decode(call, response)
            time.sleep(delay)

    def _paginate(self, operation_id, path=None, query=None) -> Iterator[Any]:
        query = dict(query or {})
        while True:
            page = self._call(operation_id, path, query=query)
            yield from page.results
            if not page.next_cursor:
                return
            query["cursor"] = page.next_cursor

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> MemoryhubClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncMemoryhubClient(_Operations):
    """The same operations, awaited: `await hub.search_memories(...)`; `async for m in hub.iter_memories()`."""

    def __init__(self, base_url: str, api_key: str, *, timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
                 retry: RetryPolicy | None = None, headers: Mapping[str, str] | None = None,
                 transport: httpx.AsyncBaseTransport | None = None):
        super().__init__(base_url, api_key, timeout=timeout, retry=retry, headers=headers)
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=self.headers, timeout=timeout,
                                       transport=transport)

    async def _call(self, operation_id, path=None, body=None, query=None):
        call = self._prepare(operation_id, path, body, query)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self._http.request(call.method, call.url, json=call.body, params=call.params,
                                                    headers=call.headers)
            except httpx.TransportError as error:
                delay = self._retry_delay(call, attempt, error=error)
                if delay is None:
                    raise TransportError(f"{call.method} {call.url}: {error!r} (attempt {attempt})") from error
                await asyncio.sleep(delay)
                continue
            delay = self._retry_delay(call, attempt, response=response)
            if delay is None:
                return self._decode(call, response)
            await asyncio.sleep(delay)

    async def _paginate(self, operation_id, path=None, query=None) -> AsyncIterator[Any]:
        query = dict(query or {})
        while True:
            page = await self._call(operation_id, path, query=query)
            for item in page.results:
                yield item
            if not page.next_cursor:
                return
            query["cursor"] = page.next_cursor

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncMemoryhubClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
