"""The top of the ranking under the profile floor (layers/context/policy.py `profile_fill_*`): the first matches by
rank are served down to the lower floor when the user's own words hold a query term and no other scene claims
them. The floor is raised here (governed policy) so that ordinary matches fall under it whatever their score."""
import pytest

pytestmark = pytest.mark.django_db
CONTEXT = "/api/v1/context"


def _items(api, query, user_id="alice"):
    response = api.post_json(CONTEXT, {"user_id": user_id, "query": query})
    assert response.status_code == 200, response.content
    (profile,) = [block for block in response.json()["blocks"] if block["name"] == "user_profile"]
    return {item["memory_id"]: item for item in profile["items"]}


@pytest.fixture
def high_floor(system_rule):
    system_rule("policy.context.profile_min_score", 0.99)
    return system_rule


@pytest.fixture
def episodes(remember):
    return {
        "fence": remember("[2024-05-04] user: I painted the garden fence last weekend, two coats of green.",
                          kind="episode").pk,
        "asked": remember('[2024-05-06] user: Mostly sleeping in. (answering "How was your weekend?")',
                          kind="episode").pk,
        "chess": remember("[2024-05-07] user: Chess club meets on Thursdays now.", kind="episode").pk,
    }


def test_a_match_under_the_floor_is_served_from_the_top_of_the_ranking(api, high_floor, episodes):
    items = _items(api, "what did I paint at the weekend?")
    assert episodes["fence"] in items, items
    assert items[episodes["fence"]]["below_floor"] is True and items[episodes["fence"]]["score"] < 0.99
    # its words are nowhere in the other two: the floor still keeps them out
    assert episodes["chess"] not in items


def test_a_match_only_in_a_spans_kept_question_is_not_served_under_the_floor(api, high_floor, episodes):
    items = _items(api, "how was my weekend?")
    assert episodes["asked"] not in items, items


@pytest.fixture
def runs(remember):
    return [remember(f"[2024-05-0{day}] user: went running along the river, {km} km", kind="episode").pk
            for day, km in ((1, 5), (2, 8), (3, 10))]


def test_the_fill_is_bounded_by_rank(api, high_floor, runs):
    assert set(runs) <= set(_items(api, "how far did I go running?"))
    high_floor("policy.context.profile_fill_matches", 1)
    items = _items(api, "how far did I go running?")
    assert len(items) == 1 and set(items) < set(runs)


def test_the_fill_is_governed_policy(api, high_floor, runs):
    high_floor("policy.context.profile_fill_matches", 0)
    assert _items(api, "how far did I go running?") == {}


def test_a_weather_question_gets_no_diet_from_under_the_floor(api, high_floor, remember):
    diet = remember("[2024-05-04] user: going vegetarian from tomorrow, no more steak", kind="episode").pk
    plan = remember("[2024-05-04] user: tomorrow I'm driving up to the lake", kind="episode").pk
    items = _items(api, "what's the weather tomorrow?")
    assert diet not in items and plan in items, items
    # the same memory under the same floor for a question of its own scene
    assert diet in _items(api, "can I eat steak tomorrow?")


def test_at_the_floor_nothing_is_marked(api, episodes):
    items = _items(api, "what did I paint at the weekend?")
    assert episodes["fence"] in items and "below_floor" not in items[episodes["fence"]]
