"""Formation keeps stated conditional preferences (layers/formation/conditions.py): the general preference and
its exception become variants of one key, and the context then serves the one whose condition holds."""
from __future__ import annotations

import pytest

from layers.formation.services import session_extract
from layers.long_term.models import Memory

pytestmark = pytest.mark.django_db


def _variants(user_id="alice"):
    return {(m.memory_key, m.attributes.get("value"), str(m.attributes.get("condition")))
            for m in Memory.objects.filter(user_id=user_id, status="active", memory_key__startswith="user.preference.")}


def _served(api, query, user_id="alice"):
    body = api.post_json("/api/v1/context", {"user_id": user_id, "query": query}).json()
    block = next(b for b in body["blocks"] if b["name"] == "user_profile")
    return {(item.get("memory_key"), item.get("reason")) for item in block["items"]}, body["conflicts"]


def test_en_and_zh_exceptions_are_stored_and_served_under_their_condition(talk, api):
    session = talk("s1", "alice", [
        ("user", "When I drive, avoid highways unless I'm going to the airport."),
        ("assistant", "Got it."),
        ("user", "我不要辣，但火锅可以微辣。"),
    ], end=True)
    assert session_extract(session_pk=session.pk).status == "completed"
    assert _variants() == {
        ("user.preference.route.highways", "avoid", "None"),
        ("user.preference.route.highways", "allowed", "{'destination': ['airport']}"),
        ("user.preference.spice", "none", "None"),
        ("user.preference.spice", "mild", "{'dish': ['hotpot']}"),
    }
    airport = Memory.objects.get(attributes__condition={"destination": ["airport"]})
    assert airport.source_turn_from == 1 and airport.extractor == "offline-rules@1"
    served, conflicts = _served(api, "navigate to the airport")
    assert ("user.preference.route.highways", "condition_match") in served and conflicts == []
    served, _ = _served(api, "navigate to the office")
    assert served >= {("user.preference.route.highways", "condition_default")}
    served, conflicts = _served(api, "今晚吃火锅，来个特辣锅底")
    assert ("user.preference.spice", "condition_match") in served
    assert [(c["stored_value"], c["requested_value"]) for c in conflicts] == [("mild", "hot")]
    # extracting again writes nothing twice
    assert session_extract(session_pk=session.pk).status == "nothing_new"
    assert Memory.objects.filter(memory_key__startswith="user.preference.").count() == 4


def test_one_off_requests_and_other_users_turns_make_no_variant(talk):
    session = talk("s2", "bob", [
        ("user", "这次按价格从高到低排"),
        ("user", "Take the highway to the airport this time."),
        ("user", "Unless it rains I'll go running."),
        ("user", "Should I avoid highways unless I'm going to the airport?"),
    ], end=True)
    session_extract(session_pk=session.pk)
    assert _variants("bob") == set() and _variants("alice") == set()
