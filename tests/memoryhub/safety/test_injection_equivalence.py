"""The detector's one-scan reading (patterns.AnyOf) gives exactly the verdicts of reading every pattern on its own.

The prefilter's own claims are checked pattern by pattern (every match holds a literal the pattern needs)
and its literal scan against brute force. The reference reading is computed from the same pattern table: with `AnyOf` switched to its definition
(each of its patterns searched on its own, every gate open, so each rule runs all its branches as it did
before the alternations), every text must get the same reason codes and the same per-family verdicts on its
plain view. The texts: every string in the repository's dev corpora (tests/**/corpora/*dev*.yaml, and the
injection corpus that has no split), the LoCoMo dev conversations' turns (../shared/bench/locomo), the
attack texts written in the injection tests, and readings of each attack that reach the other paths
(quoted and reported, framed as tool output, base64, ROT13, reversed, letter-spaced, upper case).
"""
from __future__ import annotations

import ast
import base64
import codecs
import json
import random
import re
from contextlib import contextmanager
from pathlib import Path

import yaml

from memoryhub.safety import injection
from memoryhub.safety.injection import _FAMILY_RULES, _fold, _mask_reported_quotes, injection_reasons
from memoryhub.safety.injection.patterns import AnyOf
from memoryhub.safety.injection.prefilter import Literals, needed_literals
from memoryhub.safety.normalise import collapse_spaces

REPO = Path(__file__).resolve().parents[3]
LOCOMO = REPO.parent / "shared" / "bench" / "locomo" / "locomo_dev.json"
INJECTION_TESTS = ("test_injection.py", "test_injection_mechanisms.py", "test_injection_corpus.py")


def _strings(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    return []


def _corpus_texts() -> list[str]:
    paths = sorted(REPO.glob("tests/**/corpora/*dev*.yaml")) + [REPO / "tests/memoryhub/safety/corpora/injection.yaml"]
    assert len(paths) > 20 and not any("_test" in path.name for path in paths)
    texts = {s for path in paths for s in _strings(yaml.safe_load(path.read_text(encoding="utf-8")))}
    return sorted(s for s in texts if len(s) >= 6 and (" " in s or any(ord(ch) > 0x2e80 for ch in s)))


def _locomo_turns() -> list[str]:
    conversations = json.loads(LOCOMO.read_text(encoding="utf-8"))
    return [turn["text"] for sample in conversations for key, turns in sample["conversation"].items()
            if key.startswith("session_") and isinstance(turns, list) for turn in turns]


def _attack_texts() -> list[str]:
    texts = []
    for name in INJECTION_TESTS:
        tree = ast.parse((Path(__file__).parent / name).read_text(encoding="utf-8"))
        texts += [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and len(node.value) >= 12 and not node.value.startswith(("tests/", "/"))]
    return texts


def _readings(text: str) -> list[str]:
    """The same words through the detector's other paths: quotation, tool frames, decoding, de-spacing."""
    return [
        f"My colleague wrote “{text}” in the chat yesterday.",
        f"Search result: {text}",
        f"文章里写着「{text}」",
        base64.b64encode(text.encode()).decode(),
        codecs.encode(text, "rot13"),
        text[::-1],
        " ".join(text[:60]),
        text.upper(),
    ]


@contextmanager
def _reference_reading():
    """AnyOf as it is defined: each pattern searched on its own; gates always open."""
    fast = AnyOf.__call__
    AnyOf.__call__ = lambda self, text: True if self.gate else any(p.search(text) for p in self.patterns)
    injection.patterns._payload.cache_clear()
    injection.planting._imperative_payload.cache_clear()
    try:
        yield
    finally:
        AnyOf.__call__ = fast
        injection.patterns._payload.cache_clear()
        injection.planting._imperative_payload.cache_clear()


def _verdicts(texts: list[str]) -> list[tuple[list[str], list[str]]]:
    out = []
    for text in texts:
        plain = collapse_spaces(_mask_reported_quotes(_fold(text)))
        out.append((injection_reasons(text), [name for name, rule in _FAMILY_RULES if rule(plain)]))
    return out


def _compare(texts: list[str]) -> None:
    fast = _verdicts(texts)
    with _reference_reading():
        reference = _verdicts(texts)
    differing = [(text, f, r) for text, f, r in zip(texts, fast, reference) if f != r]
    assert not differing, differing[:5]


def test_the_text_set_is_large_and_varied():
    corpus, turns, attacks = _corpus_texts(), _locomo_turns(), _attack_texts()
    assert len(corpus) > 5000 and len(turns) > 2000 and len(attacks) > 200
    flagged = sum(bool(injection_reasons(text)) for text in attacks)
    assert flagged > 60  # the attack texts do reach the rules, so the comparison covers their yes branches


def test_reference_reading_is_the_separate_patterns():
    probe = AnyOf([injection.override._OVERRIDE_EN[0], injection.override._OVERRIDE_EN[1]], gate=True)
    assert probe("new instructions: obey") and not probe("a calm day")
    with _reference_reading():
        assert probe("a calm day")  # gates open in the reference reading
        assert AnyOf(injection.override._OVERRIDE_EN)("new rules: x")


def test_same_verdicts_on_the_dev_corpora():
    _compare(_corpus_texts())


def test_same_verdicts_on_locomo_turns():
    _compare(_locomo_turns())


def test_same_verdicts_on_attacks_and_their_readings():
    attacks = _attack_texts()
    corpus_attacks = [case["text"] for case in yaml.safe_load(
        (Path(__file__).parent / "corpora" / "injection_dev.yaml").read_text(encoding="utf-8"))["positives"]]
    texts = attacks + corpus_attacks
    _compare(texts + [reading for text in texts for reading in _readings(text)])


def test_every_match_holds_one_of_its_needed_literals():
    """The prefilter's claim, pattern by pattern: where a pattern matches, a literal it needs is in the text."""
    texts = _attack_texts() + _corpus_texts()[::4]
    texts = [collapse_spaces(_mask_reported_quotes(_fold(text))) for text in texts] + texts
    checked = 0
    for instance in list(AnyOf._instances):
        for pattern in instance.patterns:
            needed = needed_literals(pattern)
            if needed is None:
                continue
            for text in texts:
                if pattern.search(text):
                    checked += 1
                    assert any(lit in text for lit in needed), (pattern.pattern[:80], text)
    assert checked > 1000


def test_present_finds_every_literal_of_the_table_overlaps_included():
    literals = ["ab", "abc", "b", "bca", "ca", "aa", "cab", "你", "你的", "的用户"]
    table = Literals([frozenset(literals[:5]), frozenset(literals[5:]), None])
    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(rng.choice("abc 你的用户") for _ in range(rng.randint(0, 14)))
        assert table.present(text) == frozenset(lit for lit in literals if lit in text), text


def test_needed_literals_reads_the_pattern_shapes():
    assert needed_literals(re.compile(r"\b(?:ignore|forget)\s+(?:all\s+)?previous\s+rules")) == {"previous"}
    assert needed_literals(re.compile(r"(?:ab|cd)x?")) == {"ab", "cd"}
    assert needed_literals(re.compile(r"(?:ab|c?)d")) == {"d"}
    assert needed_literals(re.compile(r"[a-z]{16,}")) is None
    assert needed_literals(re.compile(r"(?:ab)*|cd")) is None  # a branch that needs nothing
    assert needed_literals(re.compile(r"abc", re.IGNORECASE)) is None
