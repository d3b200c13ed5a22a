"""Numbers as people write them in times: Arabic digits, Chinese numerals (一…九十九, 两, 半) and English
words (one…sixty, a, an, a couple of, a few)."""
from __future__ import annotations

ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
             "九": 9}
ZH_NUMBER = r"[0-9零〇一二两三四五六七八九十]+"

EN_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90, "a couple of": 2, "a couple": 2, "couple of": 2,
    "a few": 3, "few": 3, "several": 3,
}
EN_NUMBER = (r"(?:\d+(?:\.\d+)?|a couple of|a couple|couple of|a few|several|forty-five|twenty-five|"
             r"thirty-five|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
             r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|ninety)")


def zh_int(text: str) -> int | None:
    """一 → 1, 十五 → 15, 二十 → 20, 二十三 → 23, 12 → 12; None when it is no number."""
    if not text:
        return None
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        if len(text.split("十")) > 2:
            return None
        tens_value = ZH_DIGITS.get(tens, None) if tens else 1
        ones_value = ZH_DIGITS.get(ones, None) if ones else 0
        if tens_value is None or ones_value is None:
            return None
        return tens_value * 10 + ones_value
    if all(char in ZH_DIGITS for char in text):
        value = 0
        for char in text:
            value = value * 10 + ZH_DIGITS[char]
        return value
    return None


def en_number(text: str) -> float | None:
    text = text.strip().lower()
    if text in EN_WORDS:
        return float(EN_WORDS[text])
    if text in ("twenty-five", "thirty-five"):
        return 25.0 if text.startswith("twenty") else 35.0
    try:
        return float(text)
    except ValueError:
        return None
