import pytest

from layers.long_term.services import memory_create
from layers.short_term.services import (
    session_open,
    session_summary_create,
    turns_append,
)
from layers.transient.services import task_start, task_type_create
from memoryhub.core.actors import Actor
from permanent.services import change_request_approve, change_request_propose

ACTOR = Actor.system("tests.context")


@pytest.fixture
def remember(tenant):
    def write(content, *, user_id="alice", kind="fact", target_tenant=None, **fields):
        return memory_create(tenant=target_tenant or tenant, actor=ACTOR, user_id=user_id, kind=kind,
                             content=content, **fields).memory
    return write


@pytest.fixture
def conversation(tenant):
    """Session `trip-1` of alice: 6 turns, a summary covering the first 2, and a booking task."""
    session, _ = session_open(tenant=tenant, session_id="trip-1", user_id="alice", actor=ACTOR)
    turns_append(session=session, actor=ACTOR, turns=[
        {"role": "user", "content": "我想订一张去上海的机票"},
        {"role": "assistant", "content": "好的，请问哪天出发？"},
        {"role": "user", "content": "Next Wednesday morning, window seat please."},
        {"role": "assistant", "content": "Noted: Wednesday morning, window seat."},
        {"role": "user", "content": "Also I am allergic to peanuts, please note it for the meal."},
        {"role": "assistant", "content": "已备注花生过敏。"},
    ])
    session_summary_create(session=session, covers_up_to=2, content="用户要订去上海的机票。", summariser="tests",
                           actor=ACTOR)
    booking = task_type_create(tenant=tenant, name="book_flight", required_slots=["destination", "date"],
                               actor=ACTOR)
    task_start(session=session, task_type_name=booking.name, slots={"destination": "Shanghai"}, actor=ACTOR)
    session.refresh_from_db()
    return session


@pytest.fixture
def system_rule(tenant, make_staff):  # noqa: F811
    """Make a global permanent entry live through the real four-eyes workflow."""
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")

    def make(key, value):
        request = change_request_propose(tenant=tenant, key=key, action="create", value=value, proposer_user=editor)
        return change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    return make
