"""What a memory's derived columns are made from: normalised content hash, keyword terms, embedding."""
from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import timedelta

from django.utils import timezone

from memoryhub.providers.embeddings import Embedder, embed_or_unavailable, get_embedder
from memoryhub.providers.keywords import term_frequencies

_SPACES = re.compile(r"\s+")


def normalise_content(content: str) -> str:
    """The form two statements must share to count as the same memory (case, width and spacing aside)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", content)).strip().casefold()


def content_hash(content: str) -> str:
    return hashlib.sha256(normalise_content(content).encode("utf-8")).hexdigest()


# A token this long (a pasted hash, a blob; PostgreSQL's limit on a tsvector lexeme) is valid content but
# no query term can usefully match it, so the memory is stored and the token is left out of its term
# frequencies (its vector still finds the memory).
MAX_LEXEME_BYTES = 2047


def keyword_fields(content: str) -> dict:
    freqs, length = term_frequencies(content)
    freqs = {term: count for term, count in freqs.items() if len(term.encode("utf-8")) <= MAX_LEXEME_BYTES}
    return {"term_freqs": freqs, "doc_length": length}


def embed_contents(contents: list[str], embedder: Embedder | None = None) -> tuple[list[list[float]], str]:
    """Vectors for `contents` in one provider call, and the provider name to store beside them."""
    embedder = embedder or get_embedder()
    vectors = embed_or_unavailable(embedder, list(contents))
    return [row.tolist() for row in vectors], embedder.name


def apply_derived(memory, *, embedding: list[float], embedding_model: str, keywords: dict | None = None) -> None:
    """Fill the columns computed from the content (called whenever the content changes); `keywords`:
    `keyword_fields(memory.content)` when the caller computed it already."""
    memory.content_hash = content_hash(memory.content)
    for name, value in (keyword_fields(memory.content) if keywords is None else keywords).items():
        setattr(memory, name, value)
    memory.embedding = embedding
    memory.embedding_model = embedding_model


def expiry_for(policy, importance: float, now=None):
    days = policy.ttl_days(importance)
    return None if days is None else (now or timezone.now()) + timedelta(days=days)
