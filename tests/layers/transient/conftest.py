import pytest

from layers.transient.services import task_type_create
from memoryhub.core.actors import Actor


@pytest.fixture
def booking_type(tenant):
    return task_type_create(tenant=tenant, name="book_flight", required_slots=["出发地", "目的地", "日期"],
                            optional_slots=["舱位"], actor=Actor.system("tests"))


@pytest.fixture
def weather_type(tenant):
    return task_type_create(tenant=tenant, name="check_weather", required_slots=["城市"], optional_slots=["日期"],
                            actor=Actor.system("tests"))


@pytest.fixture
def policy_type(tenant):
    return task_type_create(tenant=tenant, name="check_travel_policy", required_slots=["城市"],
                            actor=Actor.system("tests"))


@pytest.fixture
def session(api, booking_type, weather_type):
    response = api.post_json("/api/v1/sessions", {"session_id": "trip-1", "user_id": "alice"})
    assert response.status_code == 201
    return response.json()
