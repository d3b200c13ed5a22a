"""Embedding providers (local USE and OpenAI through the real SDK against a local stub) and the tokeniser."""
import numpy as np
import pytest
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from layers.long_term.apps import check_embedding_provider
from memoryhub.providers import embeddings
from memoryhub.providers.keywords import query_terms, stem, tokenize
from tests.support.openai_embeddings_stub import EmbeddingStub, stub_vector


def test_local_provider_is_512_normalised_and_multilingual():
    embedder = embeddings.build_embedder("local")
    vectors = embedder.embed(["I am allergic to peanuts", "我对花生过敏", "The train leaves at noon"])
    assert vectors.shape == (3, 512) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    # the Chinese paraphrase is much closer than an unrelated English sentence
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.3


def test_get_embedder_is_one_instance_per_process():
    assert embeddings.get_embedder() is embeddings.get_embedder()


def test_openai_provider_through_the_sdk_batches_and_decodes_base64(settings):
    with EmbeddingStub() as stub:
        settings.OPENAI_BASE_URL = stub.base_url
        settings.OPENAI_API_KEY = "sk-test-not-real"
        settings.OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"
        settings.OPENAI_MAX_RETRIES = 0
        embedder = embeddings.build_embedder("openai")
        texts = [f"memory number {i}" for i in range(embeddings.OPENAI_BATCH_SIZE + 3)]
        vectors = embedder.embed(texts)
    assert embedder.name == "openai/text-embedding-3-small" and embedder.dimensions == 512
    assert vectors.shape == (len(texts), 512)
    assert np.allclose(vectors[5], stub_vector("memory number 5", 512), atol=1e-6)
    assert len(stub.requests) == 2  # one request per batch of OPENAI_BATCH_SIZE
    first = stub.requests[0]["body"]
    assert first["dimensions"] == 512 and first["model"] == "text-embedding-3-small"
    assert len(first["input"]) == embeddings.OPENAI_BATCH_SIZE
    assert stub.requests[0]["authorization"] == "Bearer sk-test-not-real"


def test_openai_provider_refuses_vectors_of_the_wrong_width(settings):
    with EmbeddingStub(force_dimensions=256) as stub:
        settings.OPENAI_BASE_URL = stub.base_url
        settings.OPENAI_MAX_RETRIES = 0
        embedder = embeddings.build_embedder("openai")
        with pytest.raises(RuntimeError, match="256 dimensions"):
            embedder.embed(["hello"])


def test_startup_refuses_a_provider_of_another_dimension(settings):
    settings.EMBEDDING_PROVIDER = "openai"
    settings.OPENAI_EMBEDDING_DIMENSIONS = 1536
    with pytest.raises(ImproperlyConfigured, match="1536"):
        embeddings.build_embedder()
    errors = check_embedding_provider()
    assert [e.id for e in errors] == ["long_term.E001"] and errors[0].level == checks.ERROR
    settings.EMBEDDING_PROVIDER = "nonsense"
    assert [e.id for e in check_embedding_provider()] == ["long_term.E001"]
    settings.EMBEDDING_PROVIDER = "local"
    assert check_embedding_provider() == []


@pytest.mark.parametrize("word, expected", [
    ("peanuts", "peanut"), ("allergies", "allergy"), ("boxes", "box"), ("running", "run"),
    ("stopped", "stop"), ("hiking", "hik"), ("hike", "hik"), ("class", "class"), ("2023", "2023"),
])
def test_stemmer(word, expected):
    assert stem(word) == expected


def test_apostrophes_never_reach_a_token():
    tokens = tokenize("I'm sure it's Caroline's cat, y'all won't mind")
    assert tokens and all("'" not in token for token in tokens)


def test_english_tokens_drop_stop_words_and_stem():
    assert tokenize("I am allergic to Peanuts!") == ["allergic", "peanut"]
    assert query_terms("peanut peanuts PEANUT") == ["peanut"]


def test_chinese_tokens_segment_words_and_add_bigrams():
    assert "花生" in tokenize("我对花生过敏")
    assert "过敏" in tokenize("我对花生过敏")
    # a long word still yields its inner bigrams, so a shorter query word meets it
    assert "花生" in tokenize("我喜欢花生酱")
    assert "我" not in tokenize("我对花生过敏")


def test_mixed_text():
    tokens = tokenize("我在Shanghai工作, working at 银行")
    assert "shanghai" in tokens and "work" in tokens and "银行" in tokens


class _GatedEmbedder:
    """Records each model call's batch; the first call waits at a gate, so concurrent queries pile up."""

    name = "test/gated"
    dimensions = 512

    def __init__(self, fail: bool = False):
        import threading

        self.calls: list[list[str]] = []
        self.gate = threading.Event()
        self.fail = fail

    def embed(self, texts):
        self.calls.append(list(texts))
        if len(self.calls) == 1:
            assert self.gate.wait(10), "the test never opened the gate"
        if self.fail:
            raise ConnectionError("provider down")
        return np.stack([stub_vector(text, 512) for text in texts])


def _embed_concurrently(embedder, texts):
    import threading

    results, errors = {}, {}

    def run(text):
        try:
            results[text] = embeddings.embed_query(text, embedder)
        except Exception as exc:  # collected for the assertions
            errors[text] = exc

    first = threading.Thread(target=run, args=(texts[0],))
    first.start()
    from tests.support.processes import wait_for

    wait_for(lambda: len(embedder.calls) == 1, message="first query reaches the model")
    others = [threading.Thread(target=run, args=(text,)) for text in texts[1:]]
    for thread in others:
        thread.start()
    # every other query is queued behind the running batch before the gate opens
    wait_for(lambda: len(embeddings._batcher(embedder)._queue) == len(texts) - 1, message="queries queue up")
    embedder.gate.set()
    for thread in [first, *others]:
        thread.join(10)
    return results, errors


def test_queries_arriving_during_a_model_call_are_embedded_together():
    embedder = _GatedEmbedder()
    texts = [f"concurrent query {i}" for i in range(6)]
    results, errors = _embed_concurrently(embedder, texts)
    assert not errors
    # one call for the first query, one for the five that arrived while it ran
    assert len(embedder.calls) == 2 and embedder.calls[0] == texts[:1]
    assert sorted(embedder.calls[1]) == sorted(texts[1:])
    for text in texts:  # each caller gets its own query's vector
        assert np.allclose(results[text], stub_vector(text, 512))


def test_a_failed_batch_fails_every_query_in_it_and_the_next_query_runs_again():
    embedder = _GatedEmbedder(fail=True)
    texts = [f"doomed query {i}" for i in range(4)]
    results, errors = _embed_concurrently(embedder, texts)
    assert not results and set(errors) == set(texts)
    assert all(isinstance(exc, embeddings.EmbeddingUnavailable) for exc in errors.values())
    embedder.fail = False
    assert np.allclose(embeddings.embed_query("after the outage", embedder), stub_vector("after the outage", 512))


def test_warm_up_loads_every_model_before_any_request():
    from memoryhub import providers
    from memoryhub.providers import keywords

    providers.warm_up()
    assert embeddings.get_embedder()._model is not None
    assert keywords._jieba is not None
