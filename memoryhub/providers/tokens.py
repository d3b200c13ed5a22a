"""Token counting that works offline: a deterministic estimator shaped like a cl100k-style BPE.

Budgets (session windows, context assembly) need a token count on every write and read, with no
network and no model download. The estimator splits text the way a byte-level BPE pre-tokenizer
does (words carry their leading space, digits in groups of three, punctuation runs, whitespace
runs) and prices each piece:

* common English words are one token, longer ones one more per ~8 letters;
* CJK ideographs, kana and hangul: cl100k has under a thousand CJK tokens, so frequent characters
  are one token and the rest two or three byte-pieces; 1.35 tokens a character is the blended rate;
* other non-ASCII letters and symbols (emoji included) by their UTF-8 length.

It errs slightly high rather than low, since an underestimate overflows a model's context.
When `tiktoken` is installed *and* its cl100k data is already in the local cache, the real
tokenizer is used instead; nothing is ever downloaded.
"""
from __future__ import annotations

import functools
import hashlib
import math
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

ESTIMATOR_NAME = "mh-estimate-cl100k-v1"

# Tokens per CJK character (see module docstring).
CJK_TOKENS_PER_CHAR = 1.35
# ASCII words up to this length are one token (common vocabulary); longer ones are priced by length.
ONE_TOKEN_WORD_LETTERS = 8
LETTERS_PER_TOKEN = 6
# Digits are grouped in threes by cl100k's pre-tokenizer.
DIGITS_PER_TOKEN = 3
# ASCII punctuation merges in pairs on average ("()", "://", ".\n" …).
PUNCT_CHARS_PER_TOKEN = 2
# Non-ASCII letters and symbols: UTF-8 bytes a token covers on average.
NON_ASCII_LETTER_BYTES_PER_TOKEN = 4
NON_ASCII_SYMBOL_BYTES_PER_TOKEN = 3
# Whitespace runs (indentation, blank lines) merge into one token up to this length.
WHITESPACE_CHARS_PER_TOKEN = 16

_CJK = (
    "\u2e80-\u2fdf"  # radicals
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3100-\u312f\u31a0-\u31bf"  # bopomofo
    "\u3400-\u4dbf\u4e00-\u9fff"  # ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # compatibility ideographs
    "\U00020000-\U0003134f"  # extension B and later
)
_CJK_PUNCT = "\u3000-\u303f\uff00-\uffef"  # 、。「」… and full-width forms

# One alternative per piece kind, tried in this order. Letters are `[^\W\d_]`, minus CJK.
_PIECE = re.compile(
    rf"(?P<cjk> ?[{_CJK}])"
    rf"|(?P<cjkp> ?[{_CJK_PUNCT}])"
    r"|(?P<contraction>'(?:s|t|re|ve|m|ll|d)\b)"
    rf"|(?P<word> ?(?:(?![{_CJK}{_CJK_PUNCT}])[^\W\d_])+)"
    r"|(?P<digits>\d+)"
    rf"|(?P<symbols> ?(?:(?![{_CJK}{_CJK_PUNCT}])[^\w\s]|_)+)"
    # A space right before a word, symbol or CJK character belongs to that piece (as in cl100k).
    r"|(?P<space>\s+?(?= [^\s\d])|\s+)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Piece:
    start: int
    end: int
    tokens: float


def _word_tokens(word: str) -> float:
    letters = word.lstrip(" ")
    if letters.isascii():
        return 1 if len(letters) <= ONE_TOKEN_WORD_LETTERS else math.ceil(len(letters) / LETTERS_PER_TOKEN)
    ascii_count = sum(1 for ch in letters if ch.isascii())
    other_bytes = len(letters.encode("utf-8")) - ascii_count
    return max(1, math.ceil(ascii_count / LETTERS_PER_TOKEN + other_bytes / NON_ASCII_LETTER_BYTES_PER_TOKEN))


def _symbol_tokens(run: str) -> float:
    symbols = run.lstrip(" ") or run
    ascii_count = sum(1 for ch in symbols if ch.isascii())
    other_bytes = len(symbols.encode("utf-8")) - ascii_count
    return math.ceil(ascii_count / PUNCT_CHARS_PER_TOKEN) + math.ceil(other_bytes / NON_ASCII_SYMBOL_BYTES_PER_TOKEN)


def estimate_pieces(text: str) -> Iterator[Piece]:
    """The estimator's pieces of `text`, in order, each with its (possibly fractional) token price."""
    for match in _PIECE.finditer(text):
        kind, value = match.lastgroup, match.group()
        if kind == "cjk":
            tokens = CJK_TOKENS_PER_CHAR
        elif kind in ("cjkp", "contraction"):
            tokens = 1
        elif kind == "word":
            tokens = _word_tokens(value)
        elif kind == "digits":
            tokens = math.ceil(len(value) / DIGITS_PER_TOKEN)
        elif kind == "symbols":
            tokens = _symbol_tokens(value)
        else:
            tokens = 1 + (len(value) - 1) // WHITESPACE_CHARS_PER_TOKEN
        yield Piece(match.start(), match.end(), tokens)


def _round(total: float) -> int:
    return int(math.floor(total + 0.5 + 1e-9))


def estimate_tokens(text: str) -> int:
    """The estimator's count for `text` (never 0 for text with any non-space character)."""
    if not text:
        return 0
    total = sum(piece.tokens for piece in estimate_pieces(text))
    return max(1, _round(total)) if total > 0 else 0


# --- optional real tokenizer -------------------------------------------------------------------

_CL100K_URL = "https://openaipublic.blob.core.windows.net/encoding/cl100k_base.tiktoken"


@functools.lru_cache(maxsize=1)
def _local_tiktoken():
    """tiktoken's cl100k encoding if the package and its cached data are both present, else None."""
    if os.environ.get("MEMORYHUB_TOKENIZER", "").lower() == "estimate":
        return None
    try:
        import tiktoken  # noqa: PLC0415 — optional
    except ImportError:
        return None
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), "data-gym-cache")
    cached = os.path.join(cache_dir, hashlib.sha1(_CL100K_URL.encode()).hexdigest())
    if not os.path.isfile(cached):
        return None
    try:
        return tiktoken.get_encoding("cl100k_base")
    except Exception:  # a corrupt cache must not break counting; fall back to the estimator
        return None


def tokenizer_name() -> str:
    return "tiktoken-cl100k_base" if _local_tiktoken() is not None else ESTIMATOR_NAME


# --- the interface every layer uses ------------------------------------------------------------

def count_tokens(text: str) -> int:
    """Tokens in `text`: exact with a locally available tiktoken, else the offline estimate."""
    if not text:
        return 0
    encoding = _local_tiktoken()
    if encoding is not None:
        return len(encoding.encode(text, disallowed_special=()))
    return estimate_tokens(text)


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """The longest prefix of `text` whose count is at most `max_tokens` (cut on a piece boundary
    where possible, inside a long piece otherwise). `text` itself when it already fits."""
    if max_tokens <= 0 or not text:
        return ""
    encoding = _local_tiktoken()
    if encoding is not None:
        if count_tokens(text) <= max_tokens:
            return text
        prefix = encoding.decode(encoding.encode(text, disallowed_special=())[:max_tokens])
        # A cut inside a multi-byte character decodes to U+FFFD; drop it.
        return prefix.rstrip("\ufffd")

    total, cut = 0.0, 0
    for piece in estimate_pieces(text):
        if _round(total + piece.tokens) > max_tokens:
            room = max_tokens - total
            if room > 0 and piece.tokens > 1:
                # Keep the share of a long piece (a huge word, a run of symbols) that fits.
                cut = piece.start + int((piece.end - piece.start) * room / piece.tokens)
            break
        total += piece.tokens
        cut = piece.end
    else:
        return text
    prefix = text[:cut]
    # Re-pricing a cut piece may differ slightly from its share; step back until it fits.
    while prefix and count_tokens(prefix) > max_tokens:
        prefix = prefix[:-1]
    return prefix
