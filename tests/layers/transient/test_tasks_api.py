"""Task state over HTTP: slot filling, the transition table, the sub-task stack, TTL, isolation."""
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from layers.transient.models import TaskState, TaskStatus
from layers.transient.services import task_type_create
from memoryhub.core.actors import Actor

pytestmark = pytest.mark.django_db

TASKS = "/api/v1/sessions/trip-1/tasks"


def start(api, task_type="book_flight", **body):
    return api.post_json(TASKS, {"task_type": task_type, **body})


def patch(api, task_id, body):
    return api.patch_json(f"/api/v1/tasks/{task_id}", body)


def test_booking_slots_fill_to_ready_then_run_to_done(api, session):
    created = start(api, slots={"出发地": "北京"})
    assert created.status_code == 201, created.json()
    task = created.json()
    assert task["status"] == "collecting"
    assert task["missing_slots"] == ["目的地", "日期"]
    assert task["required_slots"] == ["出发地", "目的地", "日期"]

    step = patch(api, task["id"], {"slots": {"目的地": "上海"}}).json()
    assert step["status"] == "collecting" and step["missing_slots"] == ["日期"]
    step = patch(api, task["id"], {"slots": {"日期": "下周三"}}).json()
    assert step["status"] == "ready" and step["missing_slots"] == []
    assert step["slots"] == {"出发地": "北京", "目的地": "上海", "日期": "下周三"}

    # Clearing a required slot goes back to collecting; refilling returns to ready.
    assert patch(api, task["id"], {"slots": {"日期": None}}).json()["status"] == "collecting"
    assert patch(api, task["id"], {"slots": {"日期": "周四"}}).json()["status"] == "ready"
    assert patch(api, task["id"], {"status": "executing"}).json()["status"] == "executing"
    assert patch(api, task["id"], {"status": "done"}).json()["status"] == "done"
    assert api.get(TASKS).json()["results"] == []

    # The finished task moved up into the session as one tool turn.
    turns = api.get("/api/v1/sessions/trip-1/turns").json()["results"]
    assert [(t["role"], t["tool_name"]) for t in turns] == [("tool", "task:book_flight")]
    assert json.loads(turns[0]["content"]) == {"task": "book_flight", "status": "done",
                                               "slots": {"出发地": "北京", "目的地": "上海", "日期": "周四"}}


def test_filling_the_last_slot_and_executing_in_one_request(api, session):
    task = start(api, slots={"出发地": "北京", "目的地": "上海"}).json()
    response = patch(api, task["id"], {"slots": {"日期": "明天"}, "status": "executing"})
    assert response.status_code == 200 and response.json()["status"] == "executing"


def test_all_required_slots_at_start_means_ready(api, session):
    task = start(api, slots={"出发地": "北京", "目的地": "上海", "日期": "明天", "舱位": "经济舱"}).json()
    assert task["status"] == "ready" and task["missing_slots"] == []


@pytest.mark.parametrize("steps, final, code", [
    ([{"status": "executing"}], "collecting", "illegal_transition"),
    ([{"status": "done"}], "collecting", "illegal_transition"),
    ([{"status": "ready"}], "collecting", "slots_missing"),
    ([{"status": "suspended"}], "collecting", "illegal_transition"),
    ([{"status": "flying"}], "collecting", "invalid"),
    ([{"status": "cancelled"}, {"status": "collecting"}], "cancelled", "task_finished"),
    ([{"slots": {"出发地": "a", "目的地": "b", "日期": "c"}, "status": "executing"}, {"status": "ready"}],
     "executing", "illegal_transition"),
])
def test_illegal_transitions_are_409_and_change_nothing(api, session, steps, final, code):
    task = start(api).json()
    for body in steps[:-1]:
        assert patch(api, task["id"], body).status_code == 200
    response = patch(api, task["id"], steps[-1])
    assert response.status_code in (400, 409)
    assert response.json()["error"]["code"] == code
    assert TaskState.objects.get(pk=task["id"]).status == final


def test_unknown_slots_are_400_and_store_nothing(api, session):
    task = start(api, slots={"出发地": "北京"}).json()
    response = patch(api, task["id"], {"slots": {"目的地": "上海", "座位偏好": "靠窗"}})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "unknown_slots" and error["details"]["unknown"] == ["座位偏好"]
    assert TaskState.objects.get(pk=task["id"]).slots == {"出发地": "北京"}

    refused = start(api, slots={"hotel": "x"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unknown_slots"
    assert TaskState.objects.count() == 1


@pytest.mark.parametrize("body, status, code", [
    ({"task_type": "no_such_type"}, 400, "unknown_task_type"),
    ({"task_type": "book_flight", "slots": ["not", "a", "dict"]}, 400, "invalid"),
    ({"task_type": "book_flight", "slots": {"出发地": "北" * 5000}}, 413, "slot_value_too_large"),
    ({"task_type": "book_flight", "parent_id": 999999}, 404, "task_not_found"),
    ({"task_type": "book_flight", "parent_id": "abc"}, 400, "invalid"),
    ({}, 400, "invalid"),
])
def test_bad_starts_are_refused_and_store_nothing(api, session, body, status, code):
    response = api.post_json(TASKS, body)
    assert response.status_code == status, response.json()
    assert response.json()["error"]["code"] == code
    assert not TaskState.objects.exists()


def test_empty_patch_is_400(api, session):
    task = start(api).json()
    response = patch(api, task["id"], {})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"


def test_weather_subtask_suspends_and_resumes_the_booking(api, session, policy_type):
    """While booking, check the weather; while checking the weather, check the travel policy."""
    booking = start(api, slots={"出发地": "北京", "目的地": "上海"}).json()
    assert booking["status"] == "collecting"

    weather = start(api, "check_weather", parent_id=booking["id"], slots={"城市": "上海"}).json()
    assert weather["status"] == "ready" and weather["parent_id"] == booking["id"] and weather["depth"] == 1
    stack = api.get(TASKS).json()
    assert stack["current_task_id"] == weather["id"]
    assert [(t["id"], t["status"]) for t in stack["results"]] == [(weather["id"], "ready"),
                                                                  (booking["id"], "suspended")]
    assert stack["results"][1]["resume_status"] == "collecting"

    # A second sub-task under the same parent is refused while the first runs.
    busy = start(api, "check_weather", parent_id=booking["id"])
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "parent_busy"
    # A suspended task cannot be driven directly, but can take slot values meanwhile.
    refused = patch(api, booking["id"], {"status": "executing"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "task_suspended"
    noted = patch(api, booking["id"], {"slots": {"日期": "下周三"}}).json()
    assert noted["status"] == "suspended" and noted["resume_status"] == "ready"

    # Nested: the policy check under the weather check.
    policy = start(api, "check_travel_policy", parent_id=weather["id"], slots={"城市": "上海"}).json()
    assert [t["id"] for t in api.get(TASKS).json()["results"]] == [policy["id"], weather["id"], booking["id"]]
    patch(api, policy["id"], {"status": "executing"})
    popped = patch(api, policy["id"], {"status": "done"}).json()
    assert popped["resumed_parent"]["id"] == weather["id"] and popped["resumed_parent"]["status"] == "ready"

    patch(api, weather["id"], {"status": "executing"})
    popped = patch(api, weather["id"], {"status": "done"}).json()
    assert popped["resumed_parent"]["id"] == booking["id"]
    assert popped["resumed_parent"]["status"] == "ready"  # it left collecting; its last slot arrived meanwhile
    stack = api.get(TASKS).json()
    assert stack["current_task_id"] == booking["id"]
    assert [t["status"] for t in stack["results"]] == ["ready"]


def test_cancelling_a_subtask_resumes_the_exact_state_left(api, session):
    booking = start(api, slots={"出发地": "北京", "目的地": "上海", "日期": "明天"}).json()
    patch(api, booking["id"], {"status": "executing"})
    weather = start(api, "check_weather", parent_id=booking["id"]).json()
    assert TaskState.objects.get(pk=booking["id"]).status == TaskStatus.SUSPENDED
    resumed = patch(api, weather["id"], {"status": "cancelled"}).json()["resumed_parent"]
    assert resumed["status"] == "executing"


def test_cancelling_a_suspended_parent_cancels_its_subtasks(api, session):
    booking = start(api).json()
    weather = start(api, "check_weather", parent_id=booking["id"]).json()
    assert patch(api, booking["id"], {"status": "cancelled"}).json()["status"] == "cancelled"
    assert TaskState.objects.get(pk=weather["id"]).status == TaskStatus.CANCELLED
    assert api.get(TASKS).json()["results"] == []


def test_a_subtask_cannot_start_under_a_finished_task(api, session):
    booking = start(api).json()
    patch(api, booking["id"], {"status": "cancelled"})
    response = start(api, "check_weather", parent_id=booking["id"])
    assert response.status_code == 409 and response.json()["error"]["code"] == "task_finished"


def test_expired_tasks_are_gone_and_never_served(api, session):
    booking = start(api).json()
    TaskState.objects.filter(pk=booking["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    for response in (api.get(f"/api/v1/tasks/{booking['id']}"), patch(api, booking["id"], {"status": "cancelled"})):
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "task_expired"
    assert api.get(TASKS).json() == {"current_task_id": None, "results": []}
    assert start(api, "check_weather", parent_id=booking["id"]).json()["error"]["code"] == "task_expired"


def test_every_update_renews_expiry(api, session):
    booking = start(api).json()
    TaskState.objects.filter(pk=booking["id"]).update(expires_at=timezone.now() + timedelta(seconds=30))
    renewed = patch(api, booking["id"], {"slots": {"出发地": "北京"}}).json()
    remaining = (TaskState.objects.get(pk=booking["id"]).expires_at - timezone.now()).total_seconds()
    assert 29 * 60 < remaining <= 30 * 60
    assert renewed["expires_at"]


def test_tasks_need_an_active_session(api, session):
    api.post("/api/v1/sessions/trip-1/end")
    response = start(api)
    assert response.status_code == 409 and response.json()["error"]["code"] == "session_ended"


def test_another_tenants_tasks_are_404_on_every_path(api, other_api, session, other_tenant):
    booking = start(api).json()
    other_api.post_json("/api/v1/sessions", {"session_id": "trip-1", "user_id": "eve"})
    for response in (other_api.get(f"/api/v1/tasks/{booking['id']}"),
                     other_api.patch_json(f"/api/v1/tasks/{booking['id']}", {"status": "cancelled"})):
        assert response.status_code == 404 and response.json()["error"]["code"] == "task_not_found"
    # Their session with the same client id is theirs alone; our task type does not exist for them.
    assert other_api.get("/api/v1/sessions/trip-1/tasks").json()["results"] == []
    refused = other_api.post_json("/api/v1/sessions/trip-1/tasks", {"task_type": "book_flight"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unknown_task_type"
    task_type_create(tenant=other_tenant, name="book_flight", required_slots=["x"], actor=Actor.system("tests"))
    sneaky = other_api.post_json("/api/v1/sessions/trip-1/tasks", {"task_type": "book_flight",
                                                                   "parent_id": booking["id"]})
    assert sneaky.status_code == 404 and sneaky.json()["error"]["code"] == "task_not_found"
    assert TaskState.objects.filter(tenant=other_tenant).count() == 0
    assert other_api.get("/api/v1/sessions/nope/tasks").status_code == 404
    assert TaskState.objects.get(pk=booking["id"]).status == TaskStatus.COLLECTING


def test_a_task_finishes_after_its_session_ended_without_a_turn(api, session):
    booking = start(api, slots={"出发地": "北京", "目的地": "上海", "日期": "明天"}).json()
    patch(api, booking["id"], {"status": "executing"})
    api.post("/api/v1/sessions/trip-1/end")
    assert patch(api, booking["id"], {"status": "done"}).json()["status"] == "done"
    assert api.get("/api/v1/sessions/trip-1/turns").json()["results"] == []


def test_task_work_keeps_the_session_alive_and_an_idle_session_takes_no_new_task(api, session):
    from layers.short_term.models import Session

    booking = start(api).json()
    Session.objects.filter(session_id="trip-1").update(last_activity_at=timezone.now() - timedelta(minutes=30))
    patch(api, booking["id"], {"slots": {"出发地": "北京"}})
    assert Session.objects.get(session_id="trip-1").last_activity_at > timezone.now() - timedelta(minutes=1)

    idle_since = timezone.now() - timedelta(days=2)
    Session.objects.filter(session_id="trip-1").update(last_activity_at=idle_since)
    refused = start(api, "check_weather")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "session_expired"
    assert TaskState.objects.count() == 1
    # Finishing work already under way is allowed, but does not revive the session.
    assert patch(api, booking["id"], {"status": "cancelled"}).status_code == 200
    assert Session.objects.get(session_id="trip-1").last_activity_at == idle_since
