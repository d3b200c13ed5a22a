"""Hostile and careless input across the API (issue 13, items 4, 5 and 9): secrets are refused in every
stored field, not only `content`; valid input never makes a 500; every input refuses unknown fields;
one user_id rule everywhere; chunked bodies; the console's Content-Security-Policy."""
from __future__ import annotations

import json

import pytest
from django.test import override_settings

from layers.long_term.models import Memory
from layers.short_term.models import Session, Turn
from layers.transient.models import TaskState
from layers.transient.services import task_type_create
from memoryhub.core.actors import Actor

pytestmark = pytest.mark.django_db

MEMORIES = "/api/v1/memories"

# One of each family the detector knows, spelt as a client would put it in a structured field.
SECRET_VALUES = {
    "password": ("wifi_password", "Tr0ub4dor&3"),
    "api_key": ("openai", "sk-proj-abcdefghijklmnopqrstuvwx123456"),
    "github": ("deploy", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    "card": ("card", "4111 1111 1111 1111"),
    "connection": ("database_url", "postgres://app:S3cretPw@db.internal:5432/main"),
    "jwt": ("session", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    "zh_password": ("密码", "abc12345"),
}


def _error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}, body
    if code:
        assert body["error"]["code"] == code, body
    return body["error"]


def _fields(error: dict) -> dict:
    return error["details"]["fields"]


@pytest.fixture
def session(api):
    assert api.post_json("/api/v1/sessions", {"session_id": "s-1", "user_id": "alice"}).status_code == 201
    return "s-1"


@pytest.fixture
def login_type(tenant):
    return task_type_create(tenant=tenant, name="login", required_slots=["site"], optional_slots=["credentials", "note"],
                            actor=Actor.system("tests"))


# ---- 4. secrets outside `content` ---------------------------------------------------------------

@pytest.mark.parametrize("family", sorted(SECRET_VALUES))
def test_a_secret_in_attributes_is_refused_naming_the_field_and_never_echoed(api, family):
    name, secret = SECRET_VALUES[family]
    response = api.post_json(MEMORIES, {"user_id": "u1", "content": "Account details",
                                        "attributes": {"service": "home", name: secret}})
    error = _error(response, 400, "secret_detected")
    assert f"attributes.{name}" in _fields(error)
    assert secret not in response.content.decode() and secret.split()[-1] not in response.content.decode()
    assert not Memory.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"entities": ["Visa 4111-1111-1111-1111"]}, "entities[0]"),
    ({"memory_key": "user.password=Hunter2!x"}, "memory_key"),
    ({"attributes": {"servers": [{"dsn": "mysql://root:toor-pass@10.0.0.2/app"}]}}, "attributes.servers[0].dsn"),
    ({"attributes": {"card": 4111111111111111}}, "attributes.card"),
    ({"attributes": {"sk-proj-abcdefghijklmnopqrstuvwx123456": True}}, "attributes.<key 0>"),
])
def test_secrets_anywhere_in_a_memory_are_refused(api, body, field):
    response = api.post_json(MEMORIES, {"user_id": "u1", "content": "Some fact", **body})
    error = _error(response, 400, "secret_detected")
    assert field in _fields(error), error
    assert "abcdefghijklmnop" not in response.content.decode()
    batch = api.post_json(MEMORIES, {"memories": [{"user_id": "u1", "content": "Fine"},
                                                  {"user_id": "u1", "content": "Some fact", **body}]})
    error = _error(batch, 400, "secret_detected")
    assert [(item["index"], [e["field"] for e in item["errors"]]) for item in error["details"]["items"]] == [(1, [field])]
    assert not Memory.objects.exists()


def test_patch_refuses_secrets_in_every_field(api):
    memory = api.post_json(MEMORIES, {"user_id": "u1", "content": "Uses a router at home"}).json()
    for body, field in (({"attributes": {"router_password": "Zx9!kLm2"}}, "attributes.router_password"),
                        ({"entities": ["token xoxb-1234567890-abcdefghij"]}, "entities[0]"),
                        ({"memory_key": "api_key=AKIAABCDEFGHIJKLMNOP"}, "memory_key")):
        response = api.patch_json(f"{MEMORIES}/{memory['id']}", body)
        assert field in _fields(_error(response, 400, "secret_detected"))
    assert Memory.objects.get(pk=memory["id"]).attributes == {}


def test_ordinary_structured_fields_are_not_mistaken_for_secrets(api):
    body = {"user_id": "u1", "content": "Keeps a travel journal",
            "attributes": {"city": "Beijing", "pin": "on the map", "password_hint": "first pet", "year": 2024,
                           "zip": "100080", "password": "forgotten", "tokens_used": 1234567, "phone": "13800138000"},
            "entities": ["Beijing", "journal"], "memory_key": "user.journal"}
    response = api.post_json(MEMORIES, body)
    assert response.status_code == 201, response.content


def test_session_metadata_with_a_secret_is_refused(api):
    for metadata, field in (({"note": "vpn password: Qw3rty!9"}, "metadata.note"),
                            ({"auth": {"api_token": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}, "metadata.auth.api_token")):
        response = api.post_json("/api/v1/sessions", {"session_id": "s-meta", "user_id": "alice", "metadata": metadata})
        assert field in _fields(_error(response, 400, "secret_detected"))
    assert not Session.objects.exists()
    ok = api.post_json("/api/v1/sessions", {"session_id": "s-meta", "user_id": "alice",
                                            "metadata": {"channel": "web", "password_reset_flow": True}})
    assert ok.status_code == 201


def test_slot_values_with_a_secret_are_refused_on_start_and_on_patch(api, session, login_type):
    start = api.post_json(f"/api/v1/sessions/{session}/tasks",
                          {"task_type": "login", "slots": {"site": "bank", "credentials": "password is S3cur3!pw"}})
    assert "slots.credentials" in _fields(_error(start, 400, "secret_detected"))
    assert not TaskState.objects.exists()
    task = api.post_json(f"/api/v1/sessions/{session}/tasks", {"task_type": "login", "slots": {"site": "bank"}}).json()
    patch = api.patch_json(f"/api/v1/tasks/{task['id']}", {"slots": {"note": {"card": "5500 0000 0000 0004"}}})
    assert "slots.note.card" in _fields(_error(patch, 400, "secret_detected"))
    assert TaskState.objects.get(pk=task["id"]).slots == {"site": "bank"}


def test_tool_name_with_a_secret_is_refused_while_content_is_redacted(api, session):
    url = f"/api/v1/sessions/{session}/turns"
    refused = api.post_json(url, {"turns": [{"role": "tool", "tool_name": "token=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                                             "content": "ok"}]})
    error = _error(refused, 400, "secret_detected")
    assert error["details"]["field"] == "tool_name" and "ghp_" not in refused.content.decode()
    stored = api.post_json(url, {"turns": [{"role": "user", "content": "my password is Hunter2!x"},
                                           {"role": "tool", "tool_name": "search_flights", "content": "3 results"}]})
    assert stored.status_code == 201
    assert "Hunter2!x" not in Turn.objects.get(seq=1).content


# ---- 5. valid input never makes a 500 ------------------------------------------------------------

@pytest.mark.parametrize("token", ["x" * 3000, "ab12" * 700, "\u554a" * 1000])
def test_a_token_longer_than_a_tsvector_word_is_stored_and_left_out_of_the_keyword_index(api, token):
    created = api.post_json(MEMORIES, {"user_id": "u1", "content": f"Checksum {token} recorded"})
    assert created.status_code == 201, created.content
    memory = Memory.objects.get(pk=created.json()["id"])
    assert all(len(term.encode()) <= 2047 for term in memory.term_freqs)
    assert "checksum" in memory.term_freqs and memory.content.endswith("recorded")
    patched = api.patch_json(f"{MEMORIES}/{memory.pk}", {"content": f"Checksum {token}{token} updated"})
    assert patched.status_code == 200, patched.content
    found = api.post_json(f"{MEMORIES}/search", {"user_id": "u1", "query": "checksum", "mode": "keyword"})
    assert [hit["id"] for hit in found.json()["results"]] == [memory.pk]


@pytest.mark.parametrize("number", [b"1e999", b"-1e999", b"1E400", b"100000000000000000000000000000",
                                    b"-9223372036854775809"])
def test_numbers_no_column_can_hold_are_400_everywhere(api, session, login_type, number):
    bodies = [
        (MEMORIES, b'{"user_id": "u1", "content": "x", "attributes": {"n": %s}}'),
        (MEMORIES, b'{"user_id": "u1", "content": "x", "source_turn_from": %s}'),
        ("/api/v1/sessions", b'{"session_id": "s-n", "user_id": "u1", "metadata": {"n": [%s]}}'),
        (f"/api/v1/sessions/{session}/tasks", b'{"task_type": "login", "slots": {"site": %s}}'),
        (f"{MEMORIES}/search", b'{"user_id": "u1", "query": "x", "top_k": %s}'),
    ]
    for path, template in bodies:
        response = api.generic("POST", path, template % number, content_type="application/json")
        error = _error(response, 400, "malformed_request")
        assert "out of range" in error["message"], error
    task = api.post_json(f"/api/v1/sessions/{session}/tasks", {"task_type": "login", "slots": {"site": "x"}}).json()
    response = api.generic("PATCH", f"/api/v1/tasks/{task['id']}", b'{"slots": {"note": %s}}' % number,
                           content_type="application/json")
    _error(response, 400, "malformed_request")


def test_turn_numbers_beyond_the_column_are_400(api):
    for value in (2 ** 31, 2 ** 40, 2 ** 63 - 1):
        response = api.post_json(MEMORIES, {"user_id": "u1", "content": "x", "source_turn_from": value})
        assert response.status_code == 400, (value, response.content)
    assert api.post_json(MEMORIES, {"user_id": "u1", "content": "x", "source_turn_from": 2 ** 31 - 1}).status_code == 201


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("path", ["/api/v1/no-such-thing", "/api/v1/memories/abc", "/api/v1/tasks/1.5",
                                  "/api/v1/memories/99999999999999999999999999", "/api/nothing", "/api/v1/"])
def test_unknown_paths_and_bad_ids_answer_the_error_format_whatever_debug_says(api, path, debug):
    with override_settings(DEBUG=debug):
        response = api.get(path)
    assert response["Content-Type"].startswith("application/json")
    _error(response, 404, "not_found")


# ---- 9. one user_id rule, unknown fields, chunked bodies, CSP -------------------------------------

@pytest.mark.parametrize("user_id", [" alice", "alice ", "\u3000alice", "alice\u00a0", "\talice"])
def test_a_user_id_with_surrounding_spaces_is_refused_by_every_layer(api, session, user_id):
    calls = [
        ("POST", MEMORIES, {"user_id": user_id, "content": "Likes tea"}),
        ("POST", MEMORIES, {"memories": [{"user_id": user_id, "content": "Likes tea"}]}),
        ("POST", "/api/v1/sessions", {"session_id": "s-space", "user_id": user_id}),
        ("POST", f"{MEMORIES}/search", {"user_id": user_id, "query": "tea"}),
        ("POST", "/api/v1/context", {"user_id": user_id, "query": "tea"}),
        ("POST", "/api/v1/permanent/change-requests", {"action": "create", "key": "profile.x", "user_id": user_id,
                                                       "value": 1}),
    ]
    for method, path, body in calls:
        response = api.generic(method, path, json.dumps(body), content_type="application/json")
        assert response.status_code == 400, (path, response.content)
        assert "user_id" in response.content.decode(), (path, response.content)
    listed = api.get(MEMORIES, {"user_id": user_id})
    _error(listed, 400)
    assert not Memory.objects.exists() and not Session.objects.filter(session_id="s-space").exists()


@pytest.mark.parametrize("path, body, field", [
    (f"{MEMORIES}/search", {"user_id": "u1", "query": "tea", "kind": ["fact"]}, "kind"),
    (f"{MEMORIES}/search", {"user_id": "u1", "query": "tea", "topk": 3}, "topk"),
    ("/api/v1/context", {"user_id": "u1", "query": "tea", "budget": 100}, "budget"),
    ("/api/v1/sessions", {"session_id": "s-2", "user_id": "u1", "meta": {}}, "meta"),
    ("/api/v1/sessions/s-1/tasks", {"task_type": "login", "slot": {"site": "x"}}, "slot"),
    ("/api/v1/task-types", {"name": "t2", "required_slots": [], "ttl": 5}, "ttl"),
    ("/api/v1/permanent/change-requests", {"action": "create", "key": "profile.y", "value": 1, "why": "x"}, "why"),
])
def test_unknown_fields_are_refused_by_every_input(api, session, login_type, path, body, field):
    error = _error(api.post_json(path, body), 400)
    assert field in _fields(error), error


def test_turn_items_refuse_unknown_fields_like_memories_do(api, session):
    url = f"/api/v1/sessions/{session}/turns"
    response = api.post_json(url, {"turns": [{"role": "user", "content": "hi"},
                                             {"role": "user", "content": "hello", "name": "bob"}]})
    error = _error(response, 400)
    assert _fields(error)["turns"] == {"1": {"name": ["unknown field"]}}, error
    for body in ([{"role": "user", "content": "hi", "speaker": "me"}], {"role": "user", "content": "hi", "x": 1},
                 {"turns": [{"role": "user", "content": "hi"}], "extra": True}):
        assert api.post_json(url, body).status_code == 400, body
    assert not Turn.objects.exists()
    patch = api.patch_json(f"{MEMORIES}/1", {"user_id": "x"})
    assert patch.status_code == 404  # no such memory; an existing one answers "cannot be changed":
    memory = api.post_json(MEMORIES, {"user_id": "u1", "content": "Likes tea"}).json()
    error = _error(api.patch_json(f"{MEMORIES}/{memory['id']}", {"user_id": "x", "content": "Likes coffee"}), 400)
    assert _fields(error) == {"user_id": ["this field cannot be changed"]}


def test_a_chunked_body_the_server_did_not_frame_is_411_not_read_as_empty(api):
    """The development server hands Django the raw socket (no `wsgi.input_terminated`): a body without
    Content-Length cannot be read safely there, so it is refused rather than taken as empty. Under
    gunicorn the body is read (tests/memoryhub/api/test_chunked_body.py)."""
    response = api.generic("POST", "/api/v1/sessions", b"", content_type="application/json",
                           HTTP_TRANSFER_ENCODING="chunked")
    _error(response, 411, "length_required")
    assert not Session.objects.exists()


def test_the_console_and_the_api_docs_carry_a_content_security_policy(client, anon):
    for path in ("/admin/login/", "/api/docs/"):
        response = client.get(path)
        assert response.status_code == 200, path
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-eval" not in policy and "script-src 'self' 'unsafe-inline'" not in policy
