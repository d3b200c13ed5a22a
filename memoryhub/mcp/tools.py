"""The MCP tools: each one is a REST operation of /api/v1 under an agent's name.

A tool names the operation (method and OpenAPI path) it runs; its input schema, its required scope and
everything it does come from that operation, so MCP and REST cannot drift apart (memoryhub/mcp/schemas.py,
memoryhub/mcp/operations.py).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ToolSpec:
    name: str
    method: str
    path: str  # the OpenAPI path template, e.g. /api/v1/sessions/{session_id}/window
    description: str
    read_only: bool
    destructive: bool
    idempotent: bool
    # For an operation whose body is one of several shapes (`oneOf`): the property the tool's shape has.
    body_variant: str | None = None
    # Likewise for a response of several shapes: the property of the one the tool's body gets.
    output_variant: str | None = None


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("remember", "POST", "/api/v1/memories",
             "Write long-term memories about an end user: {\"memories\": [...]}, all or nothing. A client_id "
             "per memory makes a retry a no-op. Secrets are refused (secret_detected); instruction-like "
             "content is stored quarantined and never served.",
             read_only=False, destructive=False, idempotent=False, body_variant="memories", output_variant="results"),
    ToolSpec("recall", "POST", "/api/v1/memories/search",
             "Search one end user's memories (hybrid, vector or keyword) with filters; explain=true returns "
             "every scoring factor.",
             read_only=True, destructive=False, idempotent=True),
    # Not read-only: with a write key a conflict between the request and a stored preference is counted
    # (layers/context/apis.py), and enough of them supersede the preference; counted once per conversation.
    ToolSpec("get_context", "POST", "/api/v1/context",
             "The prompt blocks for the next model call (system rules, user profile, session, task state, "
             "user input) within a token budget, each with its sources; says what was dropped.",
             read_only=False, destructive=False, idempotent=True),
    ToolSpec("open_session", "POST", "/api/v1/sessions",
             "Open a conversation session for an end user (idempotent on session_id).",
             read_only=False, destructive=False, idempotent=True),
    ToolSpec("append_turns", "POST", "/api/v1/sessions/{session_id}/turns",
             "Append the conversation's turns to a session, in order (secrets redacted before storage; a "
             "client_id per turn makes a retry a no-op).",
             read_only=False, destructive=False, idempotent=False),
    ToolSpec("get_window", "GET", "/api/v1/sessions/{session_id}/window",
             "The session's recent window: the latest summary and the newest turns within max_turns and "
             "max_tokens.",
             read_only=True, destructive=False, idempotent=True),
    ToolSpec("start_task", "POST", "/api/v1/sessions/{session_id}/tasks",
             "Start a task of a known task type in a session (optionally as a sub-task of parent_id), with "
             "the slots known so far.",
             read_only=False, destructive=False, idempotent=False),
    ToolSpec("update_task", "PATCH", "/api/v1/tasks/{task_id}",
             "Fill a task's slots (null clears one) and/or move its status.",
             read_only=False, destructive=True, idempotent=True),
    ToolSpec("get_permanent", "GET", "/api/v1/permanent/{key}",
             "Read one permanent entry by its exact key (global, or the end user's own with user_id).",
             read_only=True, destructive=False, idempotent=True),
    ToolSpec("propose_permanent_change", "POST", "/api/v1/permanent/change-requests",
             "Propose a change to a permanent entry; nothing changes until a staff reviewer approves it.",
             read_only=False, destructive=False, idempotent=False),
    ToolSpec("forget", "DELETE", "/api/v1/memories/{memory_id}",
             "Soft-delete a memory: it is no longer served and staff can restore it.",
             read_only=False, destructive=True, idempotent=True),
    ToolSpec("list_reminders", "GET", "/api/v1/reminders",
             "List reminders (filters: user_id, status, due_before, due_after, delivery_failed; cursor pages).",
             read_only=True, destructive=False, idempotent=True),
)

TOOLS_BY_NAME = {spec.name: spec for spec in TOOLS}
