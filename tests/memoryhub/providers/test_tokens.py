"""The offline token estimator: close to cl100k on Chinese, English and mixed text; exact on edges."""
import json
from pathlib import Path

import pytest

from memoryhub.providers import tokens
from memoryhub.providers.tokens import count_tokens, estimate_tokens, truncate_to_tokens

FIXTURE = json.loads((Path(__file__).resolve().parent / "fixtures" / "tokens" / "zh_en_counts.json").read_text())


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["text"][:24])
def test_estimate_is_close_to_cl100k(case):
    reference = case["cl100k"]
    tolerance = max(FIXTURE["abs_tolerance"], FIXTURE["rel_tolerance"] * reference)
    assert abs(estimate_tokens(case["text"]) - reference) <= tolerance


@pytest.mark.parametrize("lang", ["en", "zh", "mixed"])
def test_estimate_over_each_language_is_close_in_total(lang):
    cases = [c for c in FIXTURE["cases"] if c["lang"] == lang]
    estimated = sum(estimate_tokens(c["text"]) for c in cases)
    reference = sum(c["cl100k"] for c in cases)
    assert abs(estimated - reference) <= FIXTURE["total_rel_tolerance"] * reference


def test_count_uses_the_estimator_when_tiktoken_is_absent():
    assert tokens.tokenizer_name() == tokens.ESTIMATOR_NAME
    assert count_tokens("今天北京的天气怎么样？") == estimate_tokens("今天北京的天气怎么样？")


@pytest.mark.parametrize("text, expected", [
    ("", 0),
    (" ", 1),
    ("\n\n", 1),
    ("   \t\n  ", 1),
    (" " * 40, 3),
    ("a", 1),
    ("的", 1),
    ("你好", 3),
    ("😀", 2),
    ("👍🏽", 3),
    ("Hi 😀!", 4),
    ("1234567", 3),
    ("don't", 2),
])
def test_edge_cases_are_exact(text, expected):
    assert count_tokens(text) == expected


def test_counting_is_deterministic_and_additive_in_scale():
    chunk = "我对花生过敏 and I like 上海 weather.\n"
    one = count_tokens(chunk)
    assert count_tokens(chunk) == one == 17
    # Long text costs n times one chunk's unrounded price: no hidden caps, no blow-ups.
    price = sum(piece.tokens for piece in tokens.estimate_pieces(chunk))
    assert count_tokens(chunk * 2000) == round(2000 * price)


def test_very_long_text_counts_and_truncates():
    text = "长" * 200_000 + " tail"
    assert count_tokens(text) == round(200_000 * tokens.CJK_TOKENS_PER_CHAR) + 1
    cut = truncate_to_tokens(text, 1000)
    assert count_tokens(cut) <= 1000
    assert text.startswith(cut)
    assert count_tokens(cut) >= 998  # as much as fits, not a crude cut


@pytest.mark.parametrize("text", [
    "Please book a flight from Beijing to Shanghai next Wednesday.",
    "帮我订一张下周三从北京到上海的机票。",
    "Meeting at 3pm 在会议室 B2，记得带 laptop。",
    "x" * 5000,
    "😀" * 50,
], ids=["en", "zh", "mixed", "long-word", "emoji"])
@pytest.mark.parametrize("budget", [1, 2, 5, 9, 50])
def test_truncation_is_a_prefix_within_budget(text, budget):
    cut = truncate_to_tokens(text, budget)
    assert text.startswith(cut)
    assert count_tokens(cut) <= budget
    if count_tokens(text) <= budget:
        assert cut == text
    else:
        assert cut != text
        # Only an emoji (two tokens) cannot fit a one-token budget; everything else keeps a prefix.
        assert cut or (budget == 1 and text.startswith("😀"))


def test_truncation_of_text_that_fits_returns_it_unchanged():
    assert truncate_to_tokens("你好 world", 100) == "你好 world"
    assert truncate_to_tokens("anything", 0) == ""
    assert truncate_to_tokens("", 5) == ""
