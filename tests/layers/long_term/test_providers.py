"""Embedding providers (local USE and OpenAI through the real SDK against a local stub) and the tokeniser."""
import numpy as np
import pytest
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from layers.long_term.apps import check_embedding_provider
from memoryhub.providers import embeddings
from memoryhub.providers.keywords import query_terms, stem, tokenize, tsquery_any
from tests.layers.long_term.openai_stub import EmbeddingStub, stub_vector


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


def test_mixed_text_and_tsquery():
    tokens = tokenize("我在Shanghai工作, working at 银行")
    assert "shanghai" in tokens and "work" in tokens and "银行" in tokens
    assert tsquery_any(["a1", "花生"]) == "'a1' | '花生'"
