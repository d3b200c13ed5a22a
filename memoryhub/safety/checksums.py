"""Check digits that separate real card and identity numbers from look-alike digit runs.

A random 16-digit order number passes Luhn one time in ten, so card detection also requires an
issuer prefix and a length that issuer uses; identity numbers must carry a real birth date and
a GB 11643-1999 check character.
"""
from __future__ import annotations

import datetime


def luhn_valid(digits: str) -> bool:
    if not digits.isdigit() or len(digits) < 2:
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


# (prefix ranges, allowed lengths) for the networks people actually paste into chats.
_CARD_NETWORKS: tuple[tuple[tuple[tuple[str, str], ...], frozenset[int]], ...] = (
    ((("4", "4"),), frozenset({13, 16, 19})),  # Visa
    ((("51", "55"), ("2221", "2720")), frozenset({16})),  # Mastercard
    ((("34", "34"), ("37", "37")), frozenset({15})),  # American Express
    ((("6011", "6011"), ("644", "649"), ("65", "65")), frozenset({16, 19})),  # Discover
    ((("62", "62"),), frozenset({16, 17, 18, 19})),  # UnionPay
    ((("3528", "3589"),), frozenset({16, 19})),  # JCB
    ((("300", "305"), ("36", "36"), ("38", "39")), frozenset({14, 16, 19})),  # Diners
    ((("50", "50"), ("56", "58"), ("6304", "6304"), ("67", "67")), frozenset({12, 13, 16, 19})),  # Maestro
    ((("2200", "2204"),), frozenset({16, 17, 18, 19})),  # Mir
)


def card_number_valid(digits: str) -> bool:
    """A plausible payment card number: issuer prefix, issuer length and Luhn all agree."""
    if not digits.isdigit() or len(set(digits)) == 1:
        return False
    for ranges, lengths in _CARD_NETWORKS:
        if len(digits) not in lengths:
            continue
        for low, high in ranges:
            head = digits[: len(low)]
            if low <= head <= high:
                return luhn_valid(digits)
    return False


_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"


def cn_id_check_char(first17: str) -> str:
    return _CN_ID_CHECK[sum(int(d) * w for d, w in zip(first17, _CN_ID_WEIGHTS)) % 11]


def cn_id_valid(number: str) -> bool:
    """An 18-character resident identity number: region, birth date and check character valid."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    if number[0] not in "12345678":
        return False
    try:
        birth = datetime.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    if not (1880 <= birth.year <= 2100):
        return False
    return cn_id_check_char(number[:17]) == number[17].upper()
