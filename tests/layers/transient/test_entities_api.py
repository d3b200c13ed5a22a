"""Working memory over HTTP: appending turns fills the session's entity registry and resolves what
pronouns and demonstratives in user turns mean; the registry is listed per session; the context's
session block says what was meant; tenants and users stay apart."""
import pytest
import yaml

from layers.transient.models import EntityResolution, SessionEntity
from tests.support.sessions import append, open_session, say

pytestmark = pytest.mark.django_db


def test_pronoun_resolved_to_the_latest_compatible_device_and_said_in_the_response(api):
    open_session(api)
    body = append(api, say(("user", "打开客厅的灯"), ("assistant", "好的，客厅灯已打开。"),
                           ("user", "卧室空调调到26度"), ("assistant", "卧室空调已设为26度。"),
                           ("user", "把它调亮20%")))
    # Existing fields are unchanged; `resolutions` is added.
    assert body["created"] == 5 and body["replayed"] == 0 and body["redactions"] == []
    assert len(body["turns"]) == 5 and body["session"]["session_id"] == "home-1"
    [resolution] = [r for r in body["resolutions"] if r["mention"] == "它"]
    assert resolution["index"] == 4 and resolution["seq"] == 5 and resolution["resolved"] is True
    # 调亮 fits a light, not the more recent air conditioner.
    assert [e["name"] for e in resolution["entities"]] == ["客厅的灯"]
    assert resolution["entities"][0]["type"] == "device" and resolution["confidence"] >= 0.5
    assert "它调亮" in "把它调亮20%"[resolution["start"]:resolution["end"] + 2]

    entities = api.get("/api/v1/sessions/home-1/entities").json()
    names = [e["name"] for e in entities["results"]]
    assert set(names) >= {"客厅的灯", "卧室空调"}
    lamp = next(e for e in entities["results"] if e["name"] == "客厅的灯")
    assert lamp["aliases"] == ["客厅灯"] and lamp["first_turn"] == 1 and lamp["last_turn"] == 5
    assert lamp["mentions"] == 3  # named twice, referred to once
    # Latest first: the lamp was just referred to.
    assert names[0] == "客厅的灯"


def test_batches_build_on_the_registry_across_appends(api):
    open_session(api)
    append(api, say(("user", "My sister Emma is visiting next week"), ("assistant", "Nice! Want a reminder?")))
    append(api, say(("user", "Turn on the porch light"), ("assistant", "Porch light is on.")))
    body = append(api, say(("user", "Remind me to pick her up at the station")))
    [her] = [r for r in body["resolutions"] if r["mention"] == "her"]
    assert [e["name"] for e in her["entities"]] == ["sister Emma"] and her["entities"][0]["type"] == "person"
    body = append(api, say(("user", "Dim it to 40 percent")))
    [it] = body["resolutions"]
    assert [e["name"] for e in it["entities"]] == ["porch light"]


def test_she_with_no_person_mentioned_resolves_to_nothing(api):
    open_session(api)
    body = append(api, say(("user", "Turn off all the lights downstairs"), ("assistant", "All downstairs lights are off."),
                           ("user", "Is she home yet?")))
    [she] = body["resolutions"]
    assert she["mention"] == "she" and she["resolved"] is False and she["entities"] == []
    assert she["confidence"] < 0.5


def test_attribute_and_plural_references(api):
    open_session(api)
    body = append(api, say(("user", "I'm deciding between the blue backpack and the gray one"),
                           ("assistant", "The blue one is 28L; the gray one is 32L."),
                           ("user", "Is the blue one on sale anywhere?")))
    [blue] = [r for r in body["resolutions"] if r["seq"] == 3]
    assert [e["name"] for e in blue["entities"]] == ["blue backpack"]
    open_session(api, "shop-2")
    body = append(api, say(("user", "购物车里有一双跑鞋和一件速干T恤"), ("assistant", "跑鞋399元，速干T恤129元。"),
                           ("user", "这两样今天能发货吗")), session_id="shop-2")
    [both] = body["resolutions"]
    assert [e["name"] for e in both["entities"]] == ["跑鞋", "速干T恤"]


def test_replayed_batch_adds_no_resolutions_and_no_duplicates(api):
    open_session(api)
    turns = [{"role": "user", "content": "播放周杰伦的《晴天》", "client_id": "c1"},
             {"role": "assistant", "content": "正在播放《晴天》。", "client_id": "c2"},
             {"role": "user", "content": "把它加到收藏", "client_id": "c3"}]
    first = append(api, turns)
    assert [e["name"] for e in first["resolutions"][0]["entities"]] == ["《晴天》"]
    again = append(api, turns)
    assert again["created"] == 0 and again["resolutions"] == []
    assert SessionEntity.objects.filter(session__session_id="home-1").count() == 1
    assert EntityResolution.objects.filter(session__session_id="home-1").count() == 1


def test_the_registry_is_a_bounded_ring_buffer(api, tenant, make_staff):
    from permanent.services import change_request_approve, change_request_propose

    # The bound is policy (policy.transient.entity_registry_size), changed through an approved entry.
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.transient.entity_registry_size", action="create",
                                     value=5, proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    open_session(api)
    rooms = ["客厅", "卧室", "书房", "厨房", "阳台", "玄关", "走廊"]
    for room in rooms:
        append(api, say(("user", f"打开{room}的灯"), ("assistant", "好的。")))
    entities = api.get("/api/v1/sessions/home-1/entities").json()
    assert entities["size"] == 5
    assert [e["name"] for e in entities["results"]] == [f"{room}的灯" for room in reversed(rooms[-5:])]


def test_context_session_block_annotates_what_was_meant(api):
    open_session(api)
    append(api, say(("user", "打开客厅的灯"), ("assistant", "客厅灯已打开。"), ("user", "把它调亮20%")))
    response = api.post_json("/api/v1/context", {"user_id": "alice", "query": "调亮", "session_id": "home-1"})
    assert response.status_code == 200, response.json()
    session = next(b for b in response.json()["blocks"] if b["name"] == "session")
    assert "它 = 客厅的灯" in session["content"]
    turn = next(item for item in session["items"] if item.get("seq") == 3)
    assert turn["resolutions"][0]["mention"] == "它" and turn["resolutions"][0]["entities"] == ["客厅的灯"]


def test_another_tenants_session_is_404_and_registries_stay_apart(api, other_api):
    open_session(api, "s-1", "alice")
    append(api, say(("user", "Send the Q2 report to Raj"), ("assistant", "Sent.")), session_id="s-1")
    assert other_api.get("/api/v1/sessions/s-1/entities").status_code == 404
    assert other_api.get("/api/v1/sessions/s-1/entities").json()["error"]["code"] == "session_not_found"
    # The other tenant's own session with the same id is its own registry.
    open_session(other_api, "s-1", "alice")
    append(other_api, say(("user", "Play Hotel California"), ("assistant", "Playing Hotel California.")),
           session_id="s-1")
    mine = [e["name"] for e in api.get("/api/v1/sessions/s-1/entities").json()["results"]]
    theirs = [e["name"] for e in other_api.get("/api/v1/sessions/s-1/entities").json()["results"]]
    assert "Raj" in mine and "Hotel California" not in mine
    assert theirs == ["Hotel California"]


def test_two_users_sessions_stay_apart(api):
    open_session(api, "a-1", "alice")
    open_session(api, "b-1", "bob")
    append(api, say(("user", "我妈下周要来"), ("assistant", "好的。")), session_id="a-1")
    body = append(api, say(("user", "到时候提醒我去接她")), session_id="b-1")
    assert body["resolutions"][0]["resolved"] is False  # bob never mentioned alice's mother
    assert api.get("/api/v1/sessions/b-1/entities").json()["results"] == []
    assert api.get("/api/v1/sessions/a-1/entities?user_id=alice").status_code == 200
    mismatch = api.get("/api/v1/sessions/a-1/entities?user_id=bob")
    assert mismatch.status_code == 409 and mismatch.json()["error"]["code"] == "session_user_mismatch"


def test_bad_input(api, anon):
    open_session(api)
    bad = api.get("/api/v1/sessions/home-1/entities?type=spaceship")
    assert bad.status_code == 400
    error = bad.json()["error"]
    assert error["code"] == "invalid_entity_type" and error["details"]["field"] == "type" and error["message"]
    assert api.get("/api/v1/sessions/nope/entities").status_code == 404
    assert anon.get("/api/v1/sessions/home-1/entities").status_code in (401, 403)
    only_devices = api.get("/api/v1/sessions/home-1/entities?type=device")
    assert only_devices.status_code == 200 and only_devices.json()["results"] == []


def test_openapi_schema_documents_the_endpoint_and_resolutions(anon):
    schema = yaml.safe_load(anon.get("/api/schema/").content)
    operation = schema["paths"]["/api/v1/sessions/{session_id}/entities"]["get"]
    assert {"200", "400", "404", "409"} <= set(operation["responses"])
    example = operation["responses"]["200"]["content"]["application/json"]["examples"]
    assert any(ex["value"]["results"][0]["name"] == "客厅的灯" for ex in example.values())
    append_op = schema["paths"]["/api/v1/sessions/{session_id}/turns"]["post"]
    ref = append_op["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    assert "resolutions" in schema["components"]["schemas"][ref]["properties"]


def test_references_resolve_reads_the_registry_without_writing(api):
    from layers.short_term.models import Session
    from layers.transient.selectors import references_resolve

    open_session(api)
    append(api, say(("user", "我妈下周要过来住几天"), ("assistant", "好的，已记下。")))
    session = Session.objects.get(session_id="home-1")
    [resolution] = references_resolve(session=session, text="提醒我去车站接她")
    assert [e.name for e in resolution.entities] == ["我妈"] and resolution.resolved
    assert EntityResolution.objects.filter(session=session).count() == 0


def test_a_long_turn_is_read_within_bounds(api):
    from layers.transient.references.resolve import MAX_REFERENCES

    open_session(api)
    long_text = ("打开客厅的灯，把它调亮。Turn on the porch light and dim it. " * 1000)[:32000]
    body = append(api, say(("user", long_text), ("user", "把它关了")))
    assert body["created"] == 2
    first = [r for r in body["resolutions"] if r["index"] == 0]
    assert 0 < len(first) <= MAX_REFERENCES
    [last] = [r for r in body["resolutions"] if r["index"] == 1]
    assert last["resolved"] and last["entities"][0]["type"] == "device"


def test_erasing_a_user_removes_their_working_memory_only(api):
    open_session(api, "a-1", "alice")
    open_session(api, "b-1", "bob")
    append(api, say(("user", "打开客厅的灯"), ("assistant", "好的。"), ("user", "把它调亮")), session_id="a-1")
    append(api, say(("user", "Play Hotel California"), ("assistant", "Playing."), ("user", "Pause it")),
           session_id="b-1")
    exported = api.get("/api/v1/users/alice/export")
    assert exported.status_code == 200
    assert any(row.get("name") == "客厅的灯" for row in exported.json()["data"].get("transient.sessionentity", []))
    erased = api.delete("/api/v1/users/alice")
    assert erased.status_code == 200, erased.json()
    assert not SessionEntity.objects.filter(session__user_id="alice").exists()
    assert not EntityResolution.objects.filter(session__user_id="alice").exists()
    assert SessionEntity.objects.filter(session__user_id="bob").exists()
    assert EntityResolution.objects.filter(session__user_id="bob").count() == 1


def test_context_annotations_stay_within_their_tenant_and_user(api, other_api):
    # Two tenants with the same session id and user id, and a second user of the first tenant.
    open_session(api, "home-1", "alice")
    append(api, say(("user", "打开客厅的灯"), ("assistant", "客厅灯已打开。"), ("user", "把它调亮20%")))
    open_session(other_api, "home-1", "alice")
    body = append(other_api, say(("user", "Play Hotel California"), ("assistant", "Playing Hotel California."),
                                 ("user", "Pause it")))
    assert [e["name"] for e in body["resolutions"][0]["entities"]] == ["Hotel California"]
    open_session(api, "home-2", "bob")
    append(api, say(("user", "Turn on the porch light"), ("assistant", "Porch light is on."), ("user", "Dim it")),
           session_id="home-2")

    def session_block(client, user_id, session_id):
        response = client.post_json("/api/v1/context", {"user_id": user_id, "query": "light",
                                                        "session_id": session_id})
        assert response.status_code == 200, response.json()
        return next(b for b in response.json()["blocks"] if b["name"] == "session")["content"]

    mine, theirs = session_block(api, "alice", "home-1"), session_block(other_api, "alice", "home-1")
    bobs = session_block(api, "bob", "home-2")
    assert "它 = 客厅的灯" in mine and "Hotel California" not in mine and "porch light" not in mine
    assert "it = Hotel California" in theirs and "客厅" not in theirs
    assert "it = porch light" in bobs and "客厅" not in bobs
    # Another user's session is refused, not annotated with that user's entities.
    refused = api.post_json("/api/v1/context", {"user_id": "bob", "query": "灯", "session_id": "home-1"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "session_user_mismatch"
    assert other_api.get("/api/v1/sessions/home-2/entities").status_code == 404


def test_what_the_request_named_outranks_what_the_answer_added_across_appends(api):
    # The registry is stored between appends (layers/transient/services/entities.py) with the latest user turn
    # that named each entity, so the answer's aside (the fan) does not outrank the lamp the user asked about.
    open_session(api)
    append(api, say(("user", "Turn on the reading lamp"),
                    ("assistant", "The reading lamp is on. The ceiling fan is also running.")))
    body = append(api, say(("user", "Is it one of the smart ones?")))
    [it] = [r for r in body["resolutions"] if r["mention"] == "it"]
    assert [e["name"] for e in it["entities"]] == ["reading lamp"]
    lamp = next(e for e in api.get("/api/v1/sessions/home-1/entities").json()["results"] if e["name"] == "reading lamp")
    assert lamp["attributes"]["user_turn"] == 3  # referred to by the user just now
