"""Text folding shared by the safety detectors, with a map back to the original offsets.

Detectors match on a folded copy of the text: NFKC (full-width digits and letters, ligatures and
compatibility forms become plain ASCII) with invisible characters removed (zero-width space and
joiners, word joiner, BOM, soft hyphen), because those are the usual ways to slip a secret or an
instruction past a regular expression. Redaction must still cut the *original* text, so every
folded character remembers which original character it came from.

Public interface:
    fold(text) -> Folded          Folded.text (what detectors match on)
                                  Folded.span(start, end) -> (orig_start, orig_end)
    fold_text(text) -> str        just the folded text (for detectors that need no offsets)
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# Zero-width and other invisible characters used to split words so patterns miss them.
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u2061\u2062\u2063\u2064")


@dataclass(frozen=True)
class Folded:
    original: str
    text: str
    # origin[i] = index in `original` of the character that produced text[i]
    origin: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original [start, end) covering folded text[start:end] (end exclusive)."""
        if start >= end:
            pos = self.origin[start] if start < len(self.origin) else len(self.original)
            return pos, pos
        return self.origin[start], self.origin[end - 1] + 1


def fold(text: str) -> Folded:
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        if char in INVISIBLE:
            continue
        # Per character, so offsets stay exact; combining sequences are rare in secrets and
        # detectors never rely on composed forms.
        folded = unicodedata.normalize("NFKC", char) if not char.isascii() else char
        for piece in folded:
            if piece in INVISIBLE:
                continue
            out.append(piece)
            origin.append(index)
    return Folded(original=text, text="".join(out), origin=tuple(origin))


def fold_text(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", "".join(c for c in text if c not in INVISIBLE))
                   if ch not in INVISIBLE)
