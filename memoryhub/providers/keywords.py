"""The keyword tokeniser behind the long-term layer's full-text path (Chinese and English).

PostgreSQL's parsers neither segment Chinese nor stem the way recall on questions needs, so the app
tokenises itself and stores the tokens as literal lexemes (see `layers.long_term`):

- Chinese runs go through jieba's search mode (a long word also yields the shorter dictionary words
  inside it), plus the character bigrams of any word of three or more characters, so a query for
  `花生` still meets a document segmented as `花生酱`.
- Latin words are lowercased, stop words dropped, and reduced by a light suffix stemmer (plurals,
  -ing, -ed, a final -e) so `peanut` meets `peanuts` and `hiking` meets `hike`.

Tokens contain only lowercase ASCII letters/digits or CJK characters, so they are safe to quote as
tsquery lexemes without escaping.
"""
from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections import Counter

_WORD_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[a-z0-9]+(?:'[a-z]+)?")
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

ENGLISH_STOP_WORDS = frozenset("""
a about above after again against all am an and any are aren as at be because been before being
below between both but by can could did didn do does doesn doing don down during each few for from
further had hadn has hasn have haven having he her here hers herself him himself his how i if in into
is isn it its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up very was wasn we were weren what when where
which while who whom why will with won would you your yours yourself yourselves also ll re ve d s t m
""".split())

CHINESE_STOP_WORDS = frozenset(
    "的 了 是 在 和 与 及 也 就 都 而 着 吗 呢 吧 啊 哦 呀 嗯 这 那 这个 那个 一个 有 我 你 他 她 它 我们 你们 "
    "他们 她们 它们 对 把 被 给 让 从 向 又 还 很 最 更 么 什么 怎么 哪 哪里 哪儿 吗 之 其 或 但 却 如果 因为 所以".split()
)

_jieba = None
_jieba_lock = threading.Lock()


def _segmenter():
    """jieba, initialised once per process and without its start-up chatter on stderr."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                logging.getLogger("jieba").setLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return _jieba


def warm_up() -> None:
    """Load jieba's dictionary now (about a second of CPU per process) rather than in a request."""
    _segmenter()


def stem(word: str) -> str:
    """A light English stemmer: enough to join inflected forms, never so aggressive it merges meanings."""
    if word.endswith("'s"):
        word = word[:-2]
    word = word.replace("'", "")  # tokens never carry a quote into a tsquery
    if word.isdigit() or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("es") and len(word) > 4 and (word[-3] in "sxz" or word[-4:-2] in ("ch", "sh")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            # stopped -> stop, running -> run
            if len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]
            word = base
            break
    # make / making / maked all end as "mak"; applied to every word so both sides agree.
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _cjk_tokens(run: str) -> list[str]:
    out: list[str] = []
    for word in _segmenter().cut_for_search(run):
        if not word.strip() or word in CHINESE_STOP_WORDS:
            continue
        if len(word) >= 3:
            # search mode already emitted the dictionary words inside this one; add the other bigrams
            seen = set(out[-len(word):])
            out.extend(bigram for bigram in (word[i:i + 2] for i in range(len(word) - 1)) if bigram not in seen)
        out.append(word)
    return out


def tokenize(text: str) -> list[str]:
    """Keyword tokens of `text`, in order, with repeats (term frequencies count them)."""
    normalised = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")
    tokens: list[str] = []
    for match in _WORD_RE.finditer(normalised):
        piece = match.group(0)
        if _CJK_RE.match(piece):
            tokens.extend(_cjk_tokens(piece))
            continue
        if piece in ENGLISH_STOP_WORDS:
            continue
        stemmed = stem(piece)
        if stemmed and stemmed not in ENGLISH_STOP_WORDS:
            tokens.append(stemmed)
    return tokens


def term_frequencies(text: str) -> tuple[dict[str, int], int]:
    """({term: count}, document length in tokens) for BM25."""
    tokens = tokenize(text)
    return dict(Counter(tokens)), len(tokens)


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in first-seen order (BM25 scores each query term once)."""
    return list(dict.fromkeys(tokenize(text)))
