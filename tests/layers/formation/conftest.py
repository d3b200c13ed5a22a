import pytest

from tests.stubs.openai_chat_stub import OpenAIChatStub


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
