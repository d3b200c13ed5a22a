import pytest

from layers.short_term.services import session_end, session_open, turns_append
from memoryhub.core.actors import Actor
from tests.support.formation import formation_signals_muted
from tests.support.openai_chat_stub import OpenAIChatStub

ACTOR = Actor.system("tests.formation")


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
    from layers.formation.llm import OpenAIChatProvider

    return OpenAIChatProvider(base_url=openai_stub.base_url, api_key="test-key", model="stub-model",
                              timeout=5, max_retries=0)


@pytest.fixture
def quiet_signals():
    with formation_signals_muted():
        yield
