from contextlib import contextmanager

import pytest

from audit.actors import Actor
from layers.short_term.services import session_end, session_open, turns_append
from tests.stubs.openai_chat_stub import OpenAIChatStub

ACTOR = Actor.system("tests.formation_jobs")


@pytest.fixture
def talk(tenant):
    """talk(session_id, user_id, [("user", "text"), ...]) → the session, turns stored through the service."""
    def append(session_id, user_id, turns, *, end=False, target_tenant=None):
        session, _ = session_open(tenant=target_tenant or tenant, session_id=session_id, user_id=user_id,
                                  actor=ACTOR)
        if turns:
            turns_append(session=session, actor=ACTOR,
                         turns=[{"role": role, "content": content} for role, content in turns])
        if end:
            session_end(session=session, actor=ACTOR)
        session.refresh_from_db()
        return session
    return append


@pytest.fixture
def openai_stub():
    stub = OpenAIChatStub().start()
    yield stub
    stub.stop()


@pytest.fixture
def stub_provider(openai_stub):
    from memoryhub.providers.llm import OpenAIChatProvider

    return OpenAIChatProvider(base_url=openai_stub.base_url, api_key="test-key", model="stub-model",
                              timeout=5, max_retries=0)


@contextmanager
def formation_signals_muted():
    """Turns and session ends without the formation receivers: as if the request never reached the
    outbox (lost work), or so that the runs a test starts itself are the only ones."""
    from layers.formation import receivers
    from layers.short_term.signals import session_ended, turns_appended

    turns_appended.disconnect(dispatch_uid="formation.on_turns_appended")
    session_ended.disconnect(dispatch_uid="formation.on_session_ended")
    try:
        yield
    finally:
        turns_appended.connect(receivers.on_turns_appended, dispatch_uid="formation.on_turns_appended")
        session_ended.connect(receivers.on_session_ended, dispatch_uid="formation.on_session_ended")


@pytest.fixture
def quiet_signals():
    with formation_signals_muted():
        yield
