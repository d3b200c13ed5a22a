"""Secret detection against the labelled corpus, plus the redaction contract (offsets in the
original text even when full-width forms or zero-width characters were used to hide a secret)."""
from __future__ import annotations

from pathlib import Path

import pytest

from memoryhub.safety.checksums import card_number_valid, cn_id_valid, luhn_valid
from memoryhub.safety.normalise import fold
from memoryhub.safety.secrets import (
    SECRET_KINDS,
    SecretFinding,
    contains_secret,
    find_secrets,
    redact_secrets,
)
from tests.support.corpus_metrics import Scores, load_corpus

CORPUS = load_corpus(Path(__file__).parent / "corpora" / "secrets.yaml")


def test_corpus_is_big_enough_in_both_languages():
    positives, negatives = CORPUS["positives"], CORPUS["negatives"]
    for lang in ("en", "zh"):
        assert sum(case["lang"] == lang for case in positives) >= 20
        assert sum(case["lang"] == lang for case in negatives) >= 20
    assert {kind for case in positives for kind in case["kinds"]} == set(SECRET_KINDS)


def test_secret_detection_precision_and_recall_per_kind(capsys):
    positives = Scores()
    for case in CORPUS["positives"]:
        positives.add(case["text"], case["kinds"], [f.kind for f in find_secrets(case["text"])])
    negatives = Scores()
    for case in CORPUS["negatives"]:
        negatives.add(case["text"], [], [f.kind for f in find_secrets(case["text"])])
    with capsys.disabled():
        print("\n" + positives.table(f"secrets: positive set ({len(CORPUS['positives'])} texts)"))
        print(f"secrets: negative set ({len(CORPUS['negatives'])} texts): "
              f"{len(negatives.false_alarms)} false positives")
    # Thresholds: every labelled secret found, with the right kind; nothing flagged in the negatives.
    assert positives.misses == [], positives.misses
    assert positives.false_alarms == [], positives.false_alarms
    for kind in SECRET_KINDS:
        assert positives.kinds[kind].recall == 1.0
        assert positives.kinds[kind].precision == 1.0
    assert negatives.false_alarms == [], negatives.false_alarms


@pytest.mark.parametrize("case", CORPUS["positives"], ids=lambda case: case["text"][:40])
def test_redaction_removes_every_secret_and_keeps_the_rest(case):
    text = case["text"]
    redacted, findings = redact_secrets(text)
    assert len(findings) == len(case["kinds"])
    assert find_secrets(redacted) == []
    for finding in findings:
        assert f"[REDACTED:{finding.kind}]" in redacted
    # Everything outside the findings survives unchanged and in order.
    kept = []
    last = 0
    for finding in findings:
        kept.append(text[last:finding.start])
        last = finding.end
    kept.append(text[last:])
    position = 0
    for piece in kept:
        position = redacted.index(piece, position) + len(piece)


@pytest.mark.parametrize("case", CORPUS["negatives"], ids=lambda case: case["text"][:40])
def test_negatives_are_left_untouched(case):
    assert redact_secrets(case["text"]) == (case["text"], [])


def test_only_the_value_of_a_password_is_redacted():
    assert redact_secrets("my password is hunter2, don't tell")[0] == "my password is [REDACTED:password], don't tell"
    assert redact_secrets("我的密码是Abc@12345，别告诉别人")[0] == "我的密码是[REDACTED:password]，别告诉别人"


def test_offsets_map_back_through_zero_width_and_full_width_characters():
    text = "卡号4111\u200b1111\u200b1111\u200b1111，谢谢"
    (finding,) = find_secrets(text)
    assert finding == SecretFinding("card_number", 2, 2 + 19)
    assert text[finding.start:finding.end] == "4111\u200b1111\u200b1111\u200b1111"
    assert redact_secrets(text)[0] == "卡号[REDACTED:card_number]，谢谢"

    wide = "key ｓｋ－ｐｒｏｊ－ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖ end"
    (finding,) = find_secrets(wide)
    assert wide[finding.start:finding.end].startswith("ｓｋ")
    assert wide[finding.start:finding.end].endswith("ｖ")
    assert redact_secrets(wide)[0] == "key [REDACTED:api_key] end"


def test_fold_keeps_an_origin_for_every_character():
    folded = fold("a\u200bｂ\ufeffc")
    assert folded.text == "abc"
    assert folded.origin == (0, 2, 4)
    assert folded.span(0, 3) == (0, 5)


def test_checksums():
    assert luhn_valid("79927398713") and not luhn_valid("79927398710")
    assert card_number_valid("4111111111111111")
    assert not card_number_valid("4111111111111112")  # Luhn fails
    assert not card_number_valid("9111111111111116")  # no issuer uses 9 with Luhn alone
    assert not card_number_valid("0000000000000000")
    assert cn_id_valid("11010519491231002X") and cn_id_valid("11010519491231002x")
    assert not cn_id_valid("110105194912310021")  # wrong check character
    assert not cn_id_valid("110105194902300023")  # 30 February


def test_contains_secret_and_empty_text():
    assert contains_secret("my password is hunter2")
    assert not contains_secret("I forgot my password")
    assert find_secrets("") == [] and redact_secrets("") == ("", [])


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _with_zero_width(text: str, rng) -> str:
    out = []
    for char in text:
        out.append(char)
        if rng.random() < 0.3:
            out.append(rng.choice("\u200b\u200c\u200d\u2060\ufeff"))
    return "".join(out)


@pytest.mark.parametrize("disguise", ["zero_width", "full_width", "both"])
def test_every_positive_survives_disguise(disguise):
    import random

    rng = random.Random(20261129)
    for case in CORPUS["positives"]:
        text = case["text"]
        if disguise in ("full_width", "both"):
            text = _full_width(text)
        if disguise in ("zero_width", "both"):
            text = _with_zero_width(text, rng)
        findings = find_secrets(text)
        assert sorted(f.kind for f in findings) == sorted(case["kinds"]), (disguise, text)
        redacted, _ = redact_secrets(text)
        assert find_secrets(redacted) == []
        for finding in findings:
            # Spans start and end on real characters, never on an invisible one.
            assert text[finding.start] not in "\u200b\u200c\u200d\u2060\ufeff"
            assert text[finding.end - 1] not in "\u200b\u200c\u200d\u2060\ufeff"
