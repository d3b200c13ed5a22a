"""One user_id length limit everywhere (memoryhub/core/limits.py): an id of exactly the limit is
accepted by every layer's API and one character more is a 400 in every one of them, never a 500."""
from __future__ import annotations

import pytest

from layers.long_term.models import Memory
from layers.short_term.models import Session
from memoryhub.core.limits import USER_ID_MAX_LENGTH
from permanent import models as permanent_models

pytestmark = pytest.mark.django_db

AT_LIMIT = "u" * USER_ID_MAX_LENGTH
OVER = "u" * (USER_ID_MAX_LENGTH + 1)


def test_every_layer_names_the_same_limit_and_no_column_is_narrower():
    assert Session.USER_ID_MAX_LENGTH == Memory.USER_ID_MAX_LENGTH == permanent_models.USER_ID_MAX_LENGTH \
        == USER_ID_MAX_LENGTH
    for model in (Session, Memory, permanent_models.PermanentEntry, permanent_models.ChangeRequest):
        assert model._meta.get_field("user_id").max_length >= USER_ID_MAX_LENGTH, model


def _calls(api, user_id):
    yield "session", api.post_json("/api/v1/sessions", {"session_id": f"s-{len(user_id)}", "user_id": user_id})
    yield "memory", api.post_json("/api/v1/memories", {"user_id": user_id, "kind": "fact", "content": "Lives in Lyon"})
    yield "search", api.post_json("/api/v1/memories/search", {"user_id": user_id, "query": "Lyon"})
    yield "context", api.post_json("/api/v1/context", {"user_id": user_id, "query": "where?"})
    yield "permanent read", api.get("/api/v1/permanent", {"user_id": user_id})
    yield "permanent propose", api.post_json("/api/v1/permanent/change-requests", {
        "action": "create", "key": f"prefs.lang{len(user_id)}", "user_id": user_id, "value": "zh"})
    yield "export", api.get(f"/api/v1/users/{user_id}/export")


def test_an_id_at_the_limit_is_accepted_everywhere(api):
    for name, response in _calls(api, AT_LIMIT):
        assert response.status_code < 300, (name, response.status_code, response.content[:300])


def test_one_more_character_is_a_400_everywhere(api):
    for name, response in _calls(api, OVER):
        assert response.status_code == 400, (name, response.status_code, response.content[:300])
        assert set(response.json()["error"]) == {"code", "message", "details"}
    assert api.delete(f"/api/v1/users/{OVER}").status_code == 400
