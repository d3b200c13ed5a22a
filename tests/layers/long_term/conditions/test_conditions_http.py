"""Conditional preferences through HTTP: written through the memories API with a validated condition, served by
the context only where the condition holds (zh and en), conflicts with the request reported, and three
conversations contradicting a preference the same way replace it (audited); two tenants and two users apart."""
import pytest

from audit.models import AuditEvent
from layers.long_term.conditions.models import PreferenceCorrection
from layers.long_term.models import Memory, MemoryStatus

pytestmark = pytest.mark.django_db
MEMORIES = "/api/v1/memories"
CONTEXT = "/api/v1/context"
HIGHWAYS = "user.preference.route.highways"


def _write(api, content, key, value, condition=None, user_id="alice", status=201):
    attributes = {"value": value, **({"condition": condition} if condition else {})}
    response = api.post_json(MEMORIES, {"user_id": user_id, "kind": "preference", "content": content,
                                        "memory_key": key, "attributes": attributes})
    assert response.status_code == status, response.content
    return response.json()


def _context(api, query, user_id="alice", **body):
    if body.get("session_id"):  # a conversation of this user (opened once)
        opened = api.post_json("/api/v1/sessions", {"session_id": body["session_id"], "user_id": user_id})
        assert opened.status_code in (200, 201, 409), opened.content
    response = api.post_json(CONTEXT, {"user_id": user_id, "query": query, **body})
    assert response.status_code == 200, response.content
    return response.json()


def _profile(body) -> dict[int, dict]:
    block = next(b for b in body["blocks"] if b["name"] == "user_profile")
    return {item["memory_id"]: item for item in block["items"]}


@pytest.fixture
def highways(api):
    general = _write(api, "Avoid highways when navigating.", HIGHWAYS, "avoid")
    airport = _write(api, "Highways are fine when going to the airport.", HIGHWAYS, "allowed",
                     {"destination": "airport"})
    return general["id"], airport["id"]


def test_variants_share_the_key_and_keep_their_condition(api, highways):
    general, airport = highways
    rows = {m.pk: m for m in Memory.objects.filter(memory_key=HIGHWAYS)}
    assert set(rows) == {general, airport} and all(m.status == MemoryStatus.ACTIVE for m in rows.values())
    assert rows[airport].attributes["condition"] == {"destination": "airport"}
    assert "condition" not in rows[general].attributes


def test_the_airport_exception_is_served_for_the_airport_only(api, highways):
    general, airport = highways
    served = _profile(_context(api, "navigate to the airport"))
    assert airport in served and general not in served
    item = served[airport]
    assert item["reason"] == "condition_match" and item["condition"] == {"destination": ["airport"]}
    assert item["evidence"][0]["heard"].lower() == "airport" and item["overrides"] == [general]
    served = _profile(_context(api, "navigate to the office"))
    assert general in served and airport not in served
    assert served[general]["reason"] == "condition_default" and served[general]["not_holding"] == [airport]


def test_zh_query_and_slots_match_the_same_condition(api, highways):
    general, airport = highways
    assert set(_profile(_context(api, "导航去浦东机场"))) & {general, airport} == {airport}
    assert set(_profile(_context(api, "导航去公司"))) & {general, airport} == {general}
    # the task's slot says where, the query does not
    slotted = _profile(_context(api, "start navigation", slots={"destination": "Pudong Airport T2"}))
    assert airport in slotted and slotted[airport]["evidence"][0]["via"] == "slot"


def test_zh_spice_exception_and_volume_dimensions(api):
    spice = "user.preference.spice"
    none = _write(api, "用户偏好：不要辣。", spice, "none")["id"]
    hotpot = _write(api, "用户偏好（吃火锅时）：可以微辣。", spice, "mild", {"dish": "火锅"})["id"]
    served = _profile(_context(api, "今晚想吃火锅，帮我点一份"))
    assert hotpot in served and none not in served
    assert Memory.objects.get(pk=hotpot).attributes["condition"] == {"dish": "火锅"}
    served = _profile(_context(api, "帮我点一份川味外卖"))
    assert none in served and hotpot not in served
    volume = "user.preference.volume"
    music = _write(api, "Music volume low.", volume, "low", {"audio": "music"})["id"]
    nav = _write(api, "Navigation voice at medium volume.", volume, "medium", {"audio": "navigation"})["id"]
    assert set(_profile(_context(api, "play some music"))) & {music, nav} == {music}
    assert set(_profile(_context(api, "turn the navigation voice on"))) & {music, nav} == {nav}
    assert not set(_profile(_context(api, "what's the weather tomorrow"))) & {music, nav, none, hotpot}


def test_task_type_and_scene_dimensions(api):
    key = "user.preference.volume"
    quiet = _write(api, "Volume low while driving.", key, "low", {"task_type": "navigation"})["id"]
    assert quiet in _profile(_context(api, "set the volume", task_type="navigation"))
    assert quiet not in _profile(_context(api, "set the volume", task_type="music"))


def test_conflict_is_reported_with_the_stored_and_requested_values(api):
    sort = _write(api, "用户偏好：价格从低到高排序。", "user.preference.sort.price", "ascending")["id"]
    body = _context(api, "这次按价格从高到低排", session_id="s-1")
    assert body["conflicts"] == [{
        "memory_id": sort, "memory_key": "user.preference.sort.price", "stored_value": "ascending",
        "requested_value": "descending", "requested_words": "从高到低", "why": body["conflicts"][0]["why"],
        "counted": True, "corrections": 1, "corrections_needed": 3}]
    assert "ascending" in body["conflicts"][0]["why"]
    assert _context(api, "按价格从低到高排")["conflicts"] == []  # the same value is no conflict
    volume = _write(api, "User keeps the volume low.", "user.preference.volume", "low")["id"]
    loud = _context(api, "play it loud")["conflicts"]
    assert [(c["memory_id"], c["requested_value"]) for c in loud] == [(volume, "high")]
    assert _context(api, "what's on my calendar")["conflicts"] == []


def test_three_conversations_correct_a_preference_by_supersession(api):
    sort = _write(api, "User sorts by price, low to high.", "user.preference.sort.price", "ascending")["id"]
    first = _context(api, "sort by price, high to low", session_id="s-1")["conflicts"][0]
    assert first["corrections"] == 1
    # the same conversation again is still one correction
    assert _context(api, "highest to lowest price please", session_id="s-1")["conflicts"][0]["corrections"] == 1
    assert _context(api, "这次价格从高到低", session_id="s-2")["conflicts"][0]["corrections"] == 2
    assert Memory.objects.get(pk=sort).status == MemoryStatus.ACTIVE
    third = _context(api, "show the most expensive first", session_id="s-3")["conflicts"][0]
    assert third["corrections"] == 3 and "replaced_by" in third
    old, new = Memory.objects.get(pk=sort), Memory.objects.get(pk=third["replaced_by"])
    assert old.status == MemoryStatus.SUPERSEDED and old.superseded_by_id == new.pk
    assert new.memory_key == old.memory_key and new.attributes["value"] == "descending"
    event = AuditEvent.objects.get(action="memory.preference_corrected")
    assert event.object_id == str(sort) and event.after["replaced_by"] == new.pk
    assert "3 conversations" in event.after["reason"]
    # the new default now applies: asking for descending again is no conflict
    assert _context(api, "sort by price high to low", session_id="s-4")["conflicts"] == []


def test_corrections_of_a_conditional_variant_keep_its_condition(api, highways):
    general, airport = highways
    for session in ("a", "b", "c"):
        body = _context(api, "navigate to the airport, avoid the highway", session_id=session)
    new = Memory.objects.get(pk=body["conflicts"][0]["replaced_by"])
    assert new.attributes["condition"] == {"destination": "airport"} and new.attributes["value"] == "avoid"
    assert Memory.objects.get(pk=general).status == MemoryStatus.ACTIVE  # the general variant is untouched


def test_tenants_and_users_are_apart(api, other_api, highways):
    general, airport = highways
    _write(api, "Bob takes highways.", HIGHWAYS, "allowed", user_id="bob")
    assert set(_profile(_context(api, "navigate to the airport", user_id="bob"))).isdisjoint({general, airport})
    assert not _profile(_context(other_api, "navigate to the airport"))
    assert _context(other_api, "avoid the highway", session_id="x")["conflicts"] == []
    # bob's conflict counts against bob's preference only
    bob = _context(api, "don't take the highway", user_id="bob", session_id="b1")["conflicts"]
    assert [c["requested_value"] for c in bob] == ["avoid"]
    assert set(PreferenceCorrection.objects.values_list("user_id", flat=True)) == {"bob"}


@pytest.mark.parametrize("attributes, field", [
    ({"condition": "airport"}, "attributes.condition"),
    ({"condition": {}}, "attributes.condition"),
    ({"condition": {"Destination!": "airport"}}, "attributes.condition.Destination!"),
    ({"condition": {"destination": ""}}, "attributes.condition.destination"),
    ({"condition": {"destination": [1, 2]}}, "attributes.condition.destination"),
    ({"condition": {f"d{i}": "x" for i in range(6)}}, "attributes.condition"),
    ({"condition": {"destination": "airport"}, "value": 3}, "attributes.value"),
])
def test_malformed_conditions_are_400_naming_the_field(api, attributes, field):
    response = api.post_json(MEMORIES, {"user_id": "alice", "kind": "preference", "content": "Highways fine",
                                        "memory_key": HIGHWAYS, "attributes": attributes})
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["details"]["fields"]
    assert Memory.objects.count() == 0


def test_a_secret_in_a_condition_is_refused(api):
    response = api.post_json(MEMORIES, {"user_id": "alice", "kind": "preference", "content": "Highways fine",
                                        "memory_key": HIGHWAYS, "attributes": {
                                            "condition": {"destination": "sk-abcdefghijklmnopqrstuvwx"}}})
    assert response.status_code == 400 and response.json()["error"]["code"] == "secret_detected"
    assert "sk-abc" not in response.content.decode() and Memory.objects.count() == 0


@pytest.mark.parametrize("body", [{"slots": "airport"}, {"scene": "x" * 101}, {"slots": {"a": 1}, "extra": True}])
def test_bad_context_input_is_400(api, body):
    response = api.post_json(CONTEXT, {"user_id": "alice", "query": "navigate", **body})
    assert response.status_code == 400, response.content


def test_the_session_task_slots_decide_the_variant(api, highways):
    general, airport = highways
    assert api.post_json("/api/v1/task-types", {"name": "navigate", "required_slots": ["destination"]}).status_code == 201
    api.post_json("/api/v1/sessions", {"session_id": "drive-1", "user_id": "alice"})
    started = api.post_json("/api/v1/sessions/drive-1/tasks", {"task_type": "navigate",
                                                               "slots": {"destination": "虹桥机场"}})
    assert started.status_code == 201, started.content
    served = _profile(_context(api, "start the route", session_id="drive-1"))
    assert airport in served and general not in served and served[airport]["evidence"][0]["via"] == "slot"
    # slots in the request win over the session's task
    served = _profile(_context(api, "start the route", session_id="drive-1", slots={"destination": "office"}))
    assert general in served and airport not in served


def test_conflicts_are_in_the_openapi_schema_with_an_example():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/context"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert {"slots", "scene"} <= set(schema["components"]["schemas"][body]["properties"])
    response = operation["responses"]["200"]["content"]["application/json"]
    properties = schema["components"]["schemas"][response["schema"]["$ref"].rsplit("/", 1)[-1]]["properties"]
    assert "conflicts" in properties
    conflict = schema["components"]["schemas"]["Conflict"]["properties"]
    assert {"memory_id", "stored_value", "requested_value", "why", "corrections"} <= set(conflict)
    example = next(iter(response["examples"].values()))["value"]
    assert example["conflicts"][0]["requested_value"] == "descending"


def test_a_new_value_supersedes_its_own_variant_only(api, highways):
    general, airport = highways
    # user.preference.* is single-valued by default (policy.long_term.single_valued_keys)
    newer = _write(api, "Highways are not fine to the airport after all.", HIGHWAYS, "avoid",
                   {"destination": "机场"})
    assert newer["outcome"] == "superseded"
    assert Memory.objects.get(pk=airport).status == MemoryStatus.SUPERSEDED
    assert Memory.objects.get(pk=airport).superseded_by_id == newer["id"]
    assert Memory.objects.get(pk=general).status == MemoryStatus.ACTIVE
    office = _write(api, "Highways fine to the office.", HIGHWAYS, "allowed", {"destination": "office"})
    assert office["outcome"] == "created" and Memory.objects.get(pk=newer["id"]).status == MemoryStatus.ACTIVE
    plain = _write(api, "Highways are fine now.", HIGHWAYS, "allowed")
    assert plain["outcome"] == "superseded" and Memory.objects.get(pk=general).status == MemoryStatus.SUPERSEDED
    assert Memory.objects.filter(memory_key=HIGHWAYS, status=MemoryStatus.ACTIVE).count() == 3


def test_a_read_only_key_sees_conflicts_but_does_not_count_them(api, make_client, tenant):
    sort = _write(api, "User sorts by price, low to high.", "user.preference.sort.price", "ascending")["id"]
    reader = make_client(tenant, scopes=["read"])
    for session in ("r1", "r2", "r3"):
        api.post_json("/api/v1/sessions", {"session_id": session, "user_id": "alice"})
        body = reader.post_json(CONTEXT, {"user_id": "alice", "query": "sort by price high to low",
                                          "session_id": session})
        assert body.status_code == 200, body.content
        conflict = body.json()["conflicts"][0]
        assert conflict["counted"] is False and conflict["corrections"] == 0
    assert not PreferenceCorrection.objects.exists() and Memory.objects.get(pk=sort).status == MemoryStatus.ACTIVE


def test_erasing_the_user_removes_the_corrections(api):
    _write(api, "User sorts by price, low to high.", "user.preference.sort.price", "ascending")
    _context(api, "sort by price high to low", session_id="e1")
    assert PreferenceCorrection.objects.filter(user_id="alice").count() == 1
    response = api.delete("/api/v1/users/alice")
    assert response.status_code in (200, 202, 204), response.content
    assert not PreferenceCorrection.objects.filter(user_id="alice").exists()


def test_a_key_outside_user_preference_keeps_its_variants_together(api):
    key = "preference.route.highways"
    general = _write(api, "Avoid highways.", key, "avoid")["id"]
    airport = _write(api, "Highways fine to the airport.", key, "allowed", {"destination": ["airport"]})["id"]
    served = _profile(_context(api, "take me to the airport"))
    assert airport in served and general not in served
    body = _context(api, "navigate home via the highway")
    assert general in _profile(body) and airport not in _profile(body)
    assert [(c["memory_id"], c["stored_value"], c["requested_value"]) for c in body["conflicts"]] == [
        (general, "avoid", "allowed")]


def test_an_exception_heard_outside_its_topic_is_not_served(api, highways):
    general, airport = highways
    served = _profile(_context(api, "what time does the airport shuttle leave?"))
    assert airport not in served and general not in served
    assert airport in _profile(_context(api, "I have a flight at 8, get me there"))
    assert airport in _profile(_context(api, "去机场怎么走"))
