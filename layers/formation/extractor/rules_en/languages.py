"""Languages, with a level (native, fluent, learning, basic)."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import _f
from layers.formation.extractor.text import tidy_value

_LANGS = ("English|Mandarin|Chinese|Cantonese|Spanish|French|German|Italian|Portuguese|Japanese|Korean|Russian|Arabic|"
          "Hindi|Marathi|Bengali|Urdu|Tamil|Telugu|Punjabi|Gujarati|Tagalog|Filipino|Thai|Vietnamese|Indonesian|Malay|"
          "Dutch|Swedish|Norwegian|Danish|Finnish|Polish|Czech|Greek|Turkish|Hebrew|Persian|Farsi|Swahili|Ukrainian|"
          "Romanian|Hungarian|Catalan|Basque|Irish|Welsh|Latin|ASL|BSL|Auslan|sign\\s+language|Yoruba|Igbo|Hausa|Amharic|Zulu|"
          "Afrikaans|Serbian|Croatian|Bulgarian|Slovak|Lithuanian|Latvian|Estonian|Icelandic|Nepali|Sinhala|Khmer|"
          "Lao|Burmese|Mongolian|Tibetan|Uyghur|Hokkien|Hakka|Taiwanese|Shanghainese|"
          # code-switched turns name the language in Chinese ("I'm learning 中文", "my 粤语 is rusty")
          "中文|汉语|普通话|粤语|英语|英文|日语|日文|韩语|法语|德语|西班牙语|意大利语|俄语|葡萄牙语|阿拉伯语|泰语|越南语")


_LANG = rf"(?P<v>(?i:{_LANGS}))"


def _lang_level(clause: str) -> str | None:
    low = clause.lower()
    if re.search(r"native|first\s+language|mother\s+tongue|grew\s+up\s+speaking", low):
        return "native"
    if re.search(r"fluent|bilingual|\bc2\b|\bc1\b|\bn1\b|proficient", low):
        return "fluent"
    if re.search(r"learn|studying|classes|class|lessons|duolingo|babbel|memrise|busuu|pimsleur|grinding|practi[cs]ing|taking", low):
        return "learning"
    if re.search(r"a\s+bit|a\s+little|get(?:ting)?\s+by|rusty|basic|some\s+\w+|few\s+words|beginner", low):
        return "basic"
    return None


_LANG_MENTION = re.compile(rf"(?i)\b(?:{_LANGS})\b")


def _own_part(clause: str, start: int, end: int) -> str:
    """The words that belong to the language at [start, end): from the end of the language named before it
    to the start of the one named after it. "Fluent in Portuguese …, and Dutch is my mother tongue": the
    mother tongue is Dutch's, fluency Portuguese's."""
    before = [m.end() for m in _LANG_MENTION.finditer(clause, 0, start)]
    after = _LANG_MENTION.search(clause, end)
    left, right = before[-1] if before else 0, after.start() if after else len(clause)
    # Between two languages the words up to a comma or "and" are the earlier one's ("French fluently and a
    # bit of German"), the words after it the later one's.
    cuts = list(_PART_CUT.finditer(clause, left, start))
    if before and cuts:
        left = cuts[-1].end()
    cut = _PART_CUT.search(clause, end, right)
    if after and cut:
        right = cut.start()
    return clause[left:right]


_PART_CUT = re.compile(r"(?i)[,;(]|\s(?:and|but|while|plus|whereas|though)\b")


def _own_level(clause: str, start: int, end: int) -> str | None:
    # A clause naming one language lends it every level word; with several, each reads its own part first.
    if len(_LANG_MENTION.findall(clause)) > 1:
        return _lang_level(_own_part(clause, start, end)) or _lang_level(clause)
    return _lang_level(clause)


def _b_language(m, clause):
    # "I don't speak French", "can't speak a word of Greek": a denial, no language.
    if re.search(r"(?i)\b(?:don't|dont|do\s+not|can't|cant|cannot|never|not)\s+(?:really\s+)?(?:speak|know|read|understand)\s*(?:a\s+word\s+of\s+|any\s+)?$", clause[:m.start("v")]):
        return []
    lang = tidy_value(m.group("v"))
    level = m.groupdict().get("lvl") or _lang_level(m.group()) or _own_level(clause, m.start("v"), m.end("v"))
    out = [_f("user.languages", lang, level=level)]
    # "English and Spanish", "French, German & Dutch": the list shares the verb and the level.
    rest = m.string[m.end():]
    more = re.match(rf"\s*(?:,|and|&|or|/)\s*(?:(?i:some|a\s+bit\s+of|basic)\s+)?(?P<l>(?i:{_LANGS}))\b", rest)
    while more:
        # "fluent in Korean and getting by in Japanese": a level said between two languages is the later one's.
        own = _lang_level(rest[:more.start("l")]) if re.search(r"[a-z]{3}", rest[:more.start("l")].replace("and", "")) else None
        out.append(_f("user.languages", tidy_value(more.group("l")), level=own or level))
        rest = rest[more.end():]
        more = re.match(rf"\s*(?:,|and|&|or|/)\s*(?:(?i:some|a\s+bit\s+of|basic)\s+)?(?P<l>(?i:{_LANGS}))\b", rest)
    return out


_EXAMS = {"JLPT": "Japanese", "HSK": "Chinese", "DELF": "French", "DALF": "French", "DELE": "Spanish", "TOPIK": "Korean",
          "TestDaF": "German", "Goethe": "German", "CILS": "Italian", "TOEFL": "English", "IELTS": "English"}


def _b_exam(m, clause):
    # Passing or holding the exam says the language; its top grades say fluent, sitting it says learning.
    if not re.search(r"(?i)\b(?:passed|got|have|hold|cleared|aced|sitting|taking|studying\s+for|prepping\s+for|preparing\s+for|revising\s+for)\b", clause[:m.start()]):
        return []
    grade = (m.group("grade") or "").upper()
    if re.search(r"(?i)\b(?:sitting|taking|studying|prepping|preparing|revising)\b", clause[:m.start()]):
        level = "learning"
    else:
        level = "fluent" if grade in ("N1", "N2", "C1", "C2", "5", "6") else None
    return [_f("user.languages", _EXAMS[m.group("exam")], level=level)]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "…growing up, so I grew up speaking Tagalog", "I was raised on Cantonese": the language one was raised in is
    # native; the "I" in the match is its subject whatever stands before (subject.self_anchored).
    (re.compile(rf"(?:^|(?<=\s))(?i:i)\s+(?:(?i:was)\s+)?(?i:grew\s+up|raised|brought\s+up)\s+(?i:speaking|with|on|in)\s+{_LANG}"),
     lambda m, c: [_f("user.languages", tidy_value(m.group("v")), level="native")]),
    (re.compile(rf"(?i:bilingual|trilingual|fluent|conversational|proficient|native|basic|rusty)\s+(?i:in)\s+{_LANG}"), _b_language),
    (re.compile(rf"(?i:speak|speaks|speaking|learning|studying|know|learnt|learned|grinding|practi[cs]ing)\s+(?:(?i:basic|some|a\s+bit\s+of|a\s+little|fluent|conversational|bits\s+of)\s+){{0,2}}{_LANG}"), _b_language),
    (re.compile(rf"(?i:bilingual|trilingual)\s*(?:,|:|-|–)\s*{_LANG}"), _b_language),
    # "Bilingual French/English", "bilingual in Hindi and English": each language is fluent.
    (re.compile(rf"(?i:bilingual|trilingual)\s+(?:(?i:in)\s+)?(?P<a>(?i:{_LANGS}))\s*(?:/|&|,|-|(?i:and))\s*(?P<b>(?i:{_LANGS}))\b"),
     lambda m, c: [_f("user.languages", tidy_value(m.group("a")), level="fluent"), _f("user.languages", tidy_value(m.group("b")), level="fluent")]),
    (re.compile(rf"{_LANG}\s*(?i:(?:is|'s)\s+my\s+(?:first|native|mother|second|home)\s+(?:language|tongue)|(?:is\s+)?my\s+(?:second|first))"), _b_language),
    (re.compile(rf"(?i:words|phrases|bits|bit)\s+(?i:of)\s+{_LANG}"), _b_language),
    # "I speak Italian fluently and a little Greek": a second language with its own level after the first one's.
    (re.compile(rf"(?:,|(?i:and|plus|&))\s+(?i:a\s+little|a\s+bit\s+of|a\s+bit|a\s+little\s+bit\s+of|some|basic|conversational|passable|decent|rusty|broken|very\s+basic)\s+{_LANG}"), _b_language),
    (re.compile(rf"(?i:native|fluent)\s+{_LANG}(?:\s+(?i:speaker))?"), _b_language),
    (re.compile(rf"(?i:my\s+)?(?i:first|native|mother|second|home)\s+(?i:language|tongue)\s+(?i:is|was|'s)\s+{_LANG}"), _b_language),
    (re.compile(rf"(?i:my)\s+{_LANG}(?:\s+(?i:is)|(?i:'s|’s))\s+(?:(?i:pretty\s+much|basically|really|quite|pretty)\s+)?(?P<lvl2>[a-z]+)"), _b_language),
    (re.compile(rf"(?i:get\s+by\s+in|classes\s+in|lessons\s+in|duolingo\s+for)\s+{_LANG}"), _b_language),
    # "slowly crawling through Duolingo Spanish", "my Babbel German": a language named by the app it is learnt on.
    (re.compile(rf"(?i:duolingo|babbel|memrise|busuu|pimsleur|rosetta\s+stone)(?:'s)?\s+{_LANG}\b"), _b_language),
    (re.compile(rf"(?i:trying\s+to\s+learn|started\s+learning|starting\s+to\s+learn|picking\s+up|brushing\s+up\s+on|working\s+on\s+my)\s+{_LANG}"), _b_language),
    (re.compile(rf"{_LANG}\s+(?i:classes|lessons|class)"), _b_language),
    # "day 212 of my Korean streak on duolingo", "my Spanish duolingo streak": learning, by the app.
    (re.compile(rf"{_LANG}\s+(?:(?i:duolingo)\s+)?(?i:streak|course)\b(?=[^.;!?]*(?i:duolingo|app|babbel|streak))"), lambda m, c: [_f("user.languages", tidy_value(m.group("v")), level="learning")]),
    # "been doing Japanese on Duolingo", "Korean with a tutor": a language learnt through an app or a teacher.
    (re.compile(rf"(?i:doing|practi[cs]ing|studying|grinding)\s+{_LANG}\s+(?i:on|with|via|through)\s+(?i:duolingo|babbel|memrise|busuu|an?\s+app|an?\s+tutor|italki|rosetta\s+stone)\b"),
     lambda m, c: [_f("user.languages", tidy_value(m.group("v")), level="learning")]),
    # "I dream in English these days": a language lived in.
    (re.compile(rf"(?i:dream)\s+(?i:in)\s+{_LANG}"), _b_language),
    # "Passed the JLPT N1", "got my HSK 6", "DELF B2": the exam names the language and the level.
    (re.compile(r"(?P<exam>JLPT|HSK|DELF|DALF|DELE|TOPIK|TestDaF|Goethe|CILS|TOEFL|IELTS)\s*(?P<grade>N[1-5]|[1-6]|[ABC][12])?\b"), _b_exam),
]
