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

Detection views (memoryhub.safety.injection; no offsets, every plausible reading of the text):
    strip_hidden(text)            NFKC with every invisible/format character removed (bidi controls,
                                  variation selectors, Unicode tag characters included)
    hidden_tag_text(text)         ASCII smuggled in Unicode tag characters, decoded
    fold_confusables(text)        Cyrillic/Greek/IPA look-alikes to Latin inside Latin-looking words only
    despace / deleet / deobfuscate(text)
                                  letter-by-letter spelling, leetspeak, punctuation and line breaks inside
                                  words undone (on case-folded text)
    looks_obfuscated(text)        cheap test whether deobfuscate could change anything
"""
from __future__ import annotations

import re
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


# --- Detection views (memoryhub.safety.injection) ----------------------------------------------
# The injection detector does not need offsets, only every plausible reading of the text. Each
# function below undoes one way of hiding words from a regular expression; none of them changes
# what `fold` / `fold_text` return (secrets and extraction rely on those staying as they are).

# Format characters NFKC keeps but a reader never sees: bidi controls (right-to-left override
# makes reversed text display forwards), variation selectors, fillers, and the Unicode "tag"
# block (U+E0020-E007E mirror ASCII one to one: "ASCII smuggling").
_FORMAT_CHARS = (set("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                     "\u2066\u2067\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f\u3164\uffa0")
                 | {chr(c) for c in range(0xFE00, 0xFE10)} | {chr(c) for c in range(0xE0000, 0xE0080)}
                 | {chr(c) for c in range(0xE0100, 0xE01F0)})
_HIDDEN = frozenset(INVISIBLE | _FORMAT_CHARS)
_DELETE_HIDDEN = {ord(c): None for c in _HIDDEN}
_TAG_RUN = re.compile("[\U000E0020-\U000E007E]{4,}")

# Look-alikes of Latin letters in Cyrillic, Greek and a few other scripts (after NFKC, which
# already maps full-width, mathematical and circled letters to ASCII). Only shapes a reader would
# take for the Latin letter; applied per token and only where the token is Latin-looking (below).
_CONFUSABLE_PAIRS = {
    # Cyrillic lower / upper
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "ɡ": "g", "ү": "y", "ь": "b", "ʏ": "y", "ѵ": "v", "п": "n", "г": "r", "д": "d",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ї": "I", "Ј": "J", "Һ": "H", "Ԁ": "D", "Ԛ": "Q",
    "Ԝ": "W", "Ӏ": "I", "Ү": "Y", "Ѵ": "V", "Ь": "b",
    # Greek lower / upper
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j", "μ": "u", "ς": "s", "ά": "a", "έ": "e",
    "ί": "i", "ό": "o", "ύ": "u", "ή": "n", "ώ": "w",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Armenian, Latin extensions and IPA that read as plain letters
    "օ": "o", "ս": "u", "ո": "n", "ɑ": "a", "ı": "i", "ȷ": "j", "ɩ": "i", "ʋ": "u", "ɪ": "i", "ᴀ": "a",
    "ʀ": "r", "ꜱ": "s", "ᴏ": "o", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ᴊ": "j", "ᴋ": "k",
    "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴘ": "p", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ᴢ": "z",
}
_CONFUSABLES = str.maketrans(_CONFUSABLE_PAIRS)
_NON_LATIN_LETTER = re.compile(r"[\u0250-\u02af\u0370-\u03ff\u0400-\u052f\u0530-\u058f\u1d00-\u1d2b\ua730-\ua7ff\u0131\u0237]")
# Small capitals, IPA and dotless i are Latin script themselves: a word spelt in them ("ɪɢɴᴏʀᴇ") reads as
# Latin even with no plain Latin letter around, unlike a word of Greek or Cyrillic look-alikes.
_LATIN_SCRIPT_LOOKALIKE = re.compile(r"[\u0250-\u02af\u1d00-\u1d2b\ua730-\ua7ff\u0131\u0237]")
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[a-zA-Z]")


def fold_confusables(text: str) -> str:
    """Latin look-alikes (Cyrillic, Greek, ...) to Latin, only where the word is meant to read as Latin.

    A word that mixes Latin letters with look-alikes ("раssword", "ιgnore") is folded. A word made
    only of look-alikes ("аll" in Cyrillic) is folded when the text around it is Latin. Real Russian,
    Ukrainian or Greek stays as it is: its words carry letters with no Latin twin (ф, и, λ, ή), and
    a text whose words are mostly such is not Latin context, so even "сок" or "Τι" are left alone.
    """
    if not _NON_LATIN_LETTER.search(text):
        return text
    latin_words = foreign_words = 0
    for word in _WORD.findall(text):
        if _LATIN.search(word) or _LATIN_SCRIPT_LOOKALIKE.search(word):
            latin_words += 1
        elif any(_NON_LATIN_LETTER.match(ch) and ch not in _CONFUSABLE_PAIRS for ch in word):
            foreign_words += 1
    latin_context = latin_words > foreign_words

    def fold_word(match: re.Match) -> str:
        word = match.group(0)
        if not _NON_LATIN_LETTER.search(word):
            return word
        if _LATIN.search(word) or _LATIN_SCRIPT_LOOKALIKE.search(word):
            return word.translate(_CONFUSABLES)
        if latin_context and all(ch in _CONFUSABLE_PAIRS for ch in word if _NON_LATIN_LETTER.match(ch)):
            return word.translate(_CONFUSABLES)
        return word

    return _WORD.sub(fold_word, text)


def strip_hidden(text: str) -> str:
    """NFKC with every invisible or format character removed (a superset of `fold_text`'s set)."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", text.translate(_DELETE_HIDDEN)).translate(_DELETE_HIDDEN)


def hidden_tag_text(text: str) -> list[str]:
    """ASCII written in Unicode tag characters (invisible when rendered), decoded."""
    return ["".join(chr(ord(c) - 0xE0000) for c in run) for run in _TAG_RUN.findall(text)]


# Letters written one by one with a constant separator: "i g n o r e", "i.g.n.o.r.e",
# "I-G-N-O-R-E", "忽·略·之·前". Three or more letters, the same separator between each pair; a wider
# gap (two spaces) ends the word, which is how spaced-out sentences keep their word breaks.
_SPACED_RUN = re.compile(r"(?<![^\W_])[^\W_](?P<sep>[ .\-_*|·•~+/:,'’・、丶‧∙⋅◦])[^\W_](?:(?P=sep)[^\W_]){1,}(?![^\W_])")
# Punctuation inside a word ("instructio-ns", "sy'stem", "prev|ious") and line breaks inside a word.
_INNER_PUNCT = re.compile(r"(?<=[^\W_])[_|\-'’*.·•~^+`\"]+(?=[^\W_])")
_INNER_BREAK = re.compile(r"(?<=[^\W\d_])[ \t]*\n[ \t]*(?=[^\W\d_])")
# Leetspeak: digits and symbols standing for letters inside a word that also has letters.
# "|" is left to the punctuation step: it is inserted inside words far more often than it stands for "l".
_LEET_WORD = re.compile(r"(?<![\w!@$])(?=[\w!@$]*[a-z])(?=[\w!@$]*[0134578@$!])[\w!@$]{2,}")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
                       "@": "a", "$": "s", "!": "i"})
_SPACES = re.compile(r"[ \t\f\v\u3000]+")


_SPACED_PAIR = re.compile(r"(?<![^\W_])[^\W_][ .\-_*|·•~+/:,'’・、丶‧∙⋅◦][^\W_](?![^\W_])")


def despace(text: str) -> str:
    if not _SPACED_RUN.search(text):
        return text
    # Once the text is known to be spelled out, two-letter words ("n o", "t-o") are joined as well.
    return _SPACED_PAIR.sub(lambda m: m.group(0)[::2], _SPACED_RUN.sub(lambda m: m.group(0)[::2], text))


# "4th", "10am", "5kg", "3x": a number with a unit or ordinal suffix, not leet.
_NUMBER_WITH_UNIT = re.compile(r"\d+[a-z]{1,3}")
_LEET_ONLY = re.compile(r"(?<![\w!@$.,:/-])[0134578@$!]{1,3}(?![\w!@$.,:/-])")


def deleet(text: str) -> str:
    """Leet folding on lower-case text: '1gn0r3' -> 'ignore', '5y573m' -> 'system'; plain numbers stay.

    Short all-symbol tokens ("4$" for "as", "70" for "to") are folded too, but only in a text where at
    least two mixed words were leet, so "call me at 7" keeps its number.
    """
    words = [w for w in _LEET_WORD.findall(text) if not _NUMBER_WITH_UNIT.fullmatch(w)]
    text = _LEET_WORD.sub(lambda m: m.group(0) if _NUMBER_WITH_UNIT.fullmatch(m.group(0)) else m.group(0).translate(_LEET), text)
    if len(words) >= 2:
        text = _LEET_ONLY.sub(lambda m: m.group(0).translate(_LEET), text)
    return text


def deobfuscate(folded: str) -> str:
    """Undo letter spacing, leetspeak, punctuation and line breaks inside words (on case-folded text)."""
    text = despace(folded)
    # A spaced-out "user ' s" or "collector . example" keeps its apostrophe and dot once the letters are joined.
    text = re.sub(r"(?<=[^\W_]) ?(['’]) ?(?=[st]\b)", r"\1", text)
    text = re.sub(r"(?<=[^\W_]) \. (?=[^\W_])", ".", text)
    text = deleet(text)
    text = _INNER_PUNCT.sub("", text)
    text = _INNER_BREAK.sub("", text)
    return _SPACES.sub(" ", text)


def collapse_spaces(text: str) -> str:
    return _SPACES.sub(" ", text)


_OBFUSCATION_SIGN = re.compile(
    r"(?<![^\W_])[^\W_](?P<sep>[ .\-_*|·•~+/:,'’・、丶‧∙⋅◦])[^\W_](?:(?P=sep)[^\W_]){1,}(?![^\W_])"  # letters one by one
    r"|(?<=[a-z])[0134578@$!|]+(?=[a-z])|\b(?=[a-z0-9]*[a-z])(?=[a-z0-9]*[0134578])[a-z0-9]{2,12}\b|(?<![\w])[0134578@$][a-z]{2,}|(?<=[a-z]{2})[0134578$]\b"  # leetspeak
    r"|(?<=[^\W_])[_|*·•~^+`\"]+(?=[^\W_])"  # odd punctuation inside a word
    r"|(?<=[^\W_])['’](?![st]\b|re\b|ll\b|ve\b|d\b|m\b)(?=[^\W_]{2,})"  # an apostrophe that is no contraction
    r"|(?<=[a-z]{2})-(?=[a-z]{1,2}\b)"  # a word cut by a hyphen near its end ("instructio-ns")
    r"|(?<=[a-z])[ \t]*\n[ \t]*(?=[a-z])"  # a line break inside a word
)


# Words hyphenated into syllables ("ig-nore", "in-struc-tions"): two of them in a text are a sign, one
# ("e-mail", "co-op") is ordinary spelling.
_SYLLABLE_HYPHEN = re.compile(r"(?<![\w-])[a-z]{1,4}-[a-z]{2,6}(?:-[a-z]{2,6})*(?![\w-])")


def looks_obfuscated(folded: str) -> bool:
    """Whether `deobfuscate` could reveal anything (cheap; spares a second reading of ordinary text)."""
    return bool(_OBFUSCATION_SIGN.search(folded)) or len(_SYLLABLE_HYPHEN.findall(folded)) >= 2
