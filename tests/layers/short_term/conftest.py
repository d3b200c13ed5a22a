import pytest

from layers.short_term.services import session_open, turns_append
from memoryhub.core.actors import Actor
from tests.support.conversations import CONVERSATION, conversation_turns  # noqa: F401  (used below)


# Thirty turns of a mixed Chinese / English conversation, reused by several tests.
@pytest.fixture
def open_session(tenant):
    def open_(session_id="s-1", user_id="u-1", tenant_=None):
        session, _ = session_open(tenant=tenant_ or tenant, session_id=session_id, user_id=user_id,
                                  actor=Actor.system("tests"))
        return session
    return open_


@pytest.fixture
def append():
    def append_(session, *contents, role="user"):
        return turns_append(session=session, turns=[{"role": role, "content": c} for c in contents],
                            actor=Actor.system("tests"))
    return append_
