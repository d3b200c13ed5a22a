"""Request examples for the OpenAPI schema, one per operation that takes a body, added by a
drf-spectacular post-processing hook where the view declares none. They follow one end user through
the layers in the README's quickstart order, and tests/permanent/test_openapi_examples.py sends every
one of them to the API in this order, so an example that stops being accepted fails a test."""
from __future__ import annotations

# (method, path template) → (example name, body). Path parameters used when replaying: session_id
# chat-001, memory_id / task_id / history_id of the objects the earlier examples created.
REQUEST_EXAMPLES: dict[tuple[str, str], tuple[str, dict]] = {
    ("post", "/api/v1/sessions"): ("Open a session", {
        "session_id": "chat-001", "user_id": "alice", "agent_id": "travel-bot"}),
    ("post", "/api/v1/sessions/{session_id}/turns"): ("Append two turns", {"turns": [
        {"role": "user", "content": "I am vegetarian and I live in Lyon.", "client_id": "t1"},
        {"role": "assistant", "content": "Noted: vegetarian, based in Lyon.", "client_id": "t2"}]}),
    ("post", "/api/v1/memories"): ("Write two memories (all or nothing)", {"memories": [
        {"user_id": "alice", "kind": "preference", "content": "Alice is vegetarian", "memory_key": "diet",
         "client_id": "m1"},
        {"user_id": "alice", "kind": "fact", "content": "Alice lives in Lyon", "memory_key": "home_city",
         "client_id": "m2"}]}),
    ("patch", "/api/v1/memories/{memory_id}"): ("Correct a memory (a new version)", {
        "content": "Alice is vegan"}),
    ("post", "/api/v1/memories/{memory_id}/feedback"): ("The memory helped", {"useful": True}),
    ("post", "/api/v1/memories/{memory_id}/revert"): ("Back to an earlier version", {"history_id": 1}),
    ("post", "/api/v1/memories/search"): ("Search one user's memories", {
        "user_id": "alice", "query": "what does alice eat?", "top_k": 5}),
    ("post", "/api/v1/task-types"): ("A task type with its slots", {
        "name": "book_restaurant", "required_slots": ["city", "date"], "optional_slots": ["party_size"]}),
    ("patch", "/api/v1/task-types/{name}"): ("Describe the task type", {
        "description": "Book a table at a restaurant"}),
    ("post", "/api/v1/sessions/{session_id}/tasks"): ("Start a task with one slot filled", {
        "task_type": "book_restaurant", "slots": {"city": "Lyon"}}),
    ("patch", "/api/v1/tasks/{task_id}"): ("Fill the missing slot", {"slots": {"date": "2026-12-04"}}),
    ("post", "/api/v1/context"): ("The prompt blocks for the next answer", {
        "user_id": "alice", "session_id": "chat-001", "query": "Book dinner for Friday", "token_budget": 1500,
        "now": "2026-12-04T19:30:00+08:00"}),
}


def add_request_examples(result, generator, request, public):
    """drf-spectacular post-processing hook: a request example for each listed operation that has none."""
    for (method, path), (name, body) in REQUEST_EXAMPLES.items():
        operation = result.get("paths", {}).get(path, {}).get(method)
        if not operation:
            continue
        content = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if content is not None and not content.get("examples"):
            content["examples"] = {name.replace(" ", ""): {"value": body, "summary": name}}
    return result
