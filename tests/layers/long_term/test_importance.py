"""Importance when the API writer gives none: inferred from kind, key and content, so the core-facts
rule and forgetting treat API writes like extracted ones; an explicit importance always wins."""
import pytest

from layers.long_term.models import Memory
from layers.long_term.importance import importance_infer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("memory_key, content, expected", [
    ("user.allergies", "User is allergic to peanuts.", 0.95),
    ("user.medications", "User takes metformin.", 0.9),
    ("user.relationship.daughter", "User's daughter is Emma.", 0.7),
    ("user.likes", "User likes jazz.", 0.5),
    (None, "I carry an EpiPen because of a shellfish allergy", 0.95),
    (None, "我有高血压，每天吃药", 0.9),
    (None, "我吃素已经五年了", 0.8),
    (None, "my husband and I moved to Lyon last spring", 0.7),
    (None, "the weather was lovely", 0.5),
])
def test_inferred_by_key_family_then_content(memory_key, content, expected):
    assert importance_infer(kind="fact", memory_key=memory_key, content=content) == expected


def test_episodes_default_lower_than_facts():
    assert importance_infer(kind="episode", memory_key=None, content="we talked about the game") == 0.4


def test_api_write_without_importance_becomes_a_core_fact(api):
    created = api.post_json("/api/v1/memories", {"user_id": "u1", "content": "I'm allergic to peanuts"})
    assert created.status_code == 201, created.content
    memory = Memory.objects.get(pk=created.json()["id"])
    assert memory.importance == 0.95 and memory.expires_at is None  # never expires, like an extracted allergy
    plain = api.post_json("/api/v1/memories", {"user_id": "u1", "content": "I watched a film yesterday"}).json()
    assert Memory.objects.get(pk=plain["id"]).expires_at is not None


def test_explicit_importance_wins(api):
    created = api.post_json("/api/v1/memories", {"user_id": "u1", "content": "I'm allergic to peanuts",
                                                  "importance": 0.2}).json()
    assert Memory.objects.get(pk=created["id"]).importance == 0.2


def test_a_tenant_overrides_the_table(api, tenant, make_staff):
    from permanent.services import change_request_approve, change_request_propose

    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.long_term.importance_by_key", action="create",
                                     value={"user.likes": 0.9}, proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    created = api.post_json("/api/v1/memories", {"user_id": "u1", "content": "User likes jazz.",
                                                  "memory_key": "user.likes"}).json()
    assert Memory.objects.get(pk=created["id"]).importance == 0.9
