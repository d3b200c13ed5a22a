import pytest

from layers.long_term.services import memory_create
from memoryhub.core.actors import Actor


@pytest.fixture
def actor():
    return Actor.system("tests.long_term")


@pytest.fixture
def remember(tenant, actor):
    """Write a memory for `tenant` through the service; returns the Memory."""
    def write(content, *, user_id="u1", kind="fact", target_tenant=None, **fields):
        return memory_create(tenant=target_tenant or tenant, actor=actor, user_id=user_id, kind=kind,
                             content=content, **fields).memory
    return write


@pytest.fixture(autouse=True)
def _clear_access_buffer(settings):
    """Access hits are buffered in this test run's Redis database; start each test with none."""
    from redis import Redis

    from layers.long_term.services.access import LOG_KEY

    Redis.from_url(settings.REDIS_URL).delete(LOG_KEY)
    yield
