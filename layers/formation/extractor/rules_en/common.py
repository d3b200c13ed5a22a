"""Shared pieces of the English rules: the Candidate type, name/place/object readers and the rule loop."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from layers.formation.extractor.text import tidy_value


@dataclass(frozen=True)
class Candidate:
    memory_key: str
    value: str
    confidence: float = 1.0
    attributes: dict = field(default_factory=dict)


_ADV = r"(?:(?:currently|now|still|also|actually|really|just|recently|mostly|basically|definitely|absolutely|totally|honestly|finally|officially|kind\s+of|sort\s+of|kinda)\s+)?"


_I = r"(?:^|(?<=[\s,;:]))(?i:i)"


_IM = r"(?:^|(?<=[\s,;:]))(?i:i'm|i\s+am|im(?=\s+(?:an?|the|from|in|on|based|living|allergic|lactose|vegan|vegetarian|not|so|really|currently|now|still|also|just)\b))"


_STOP_CAPS = {"I", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
              "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
              "December", "The", "A", "An", "My", "It"}


_CAP = r"[A-Z][\w'.&-]*"


_PLACE = rf"(?P<v>{_CAP}(?:\s+{_CAP}){{0,3}})"


_NAME = r"(?P<v>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+){0,2}|[\u4e00-\u9fff]{2,4})"


_OBJ = r"(?P<v>[^,.;!?]+)"


_LIST = r"(?P<v>[^.;!?]+)"  # allergens and foods come as lists: "peanuts, shellfish and milk"


_PRONOUN_OBJECT = re.compile(
    r"^(?:it|that|this|them|you|him|her|those|these|everything|nothing|your|myself|yourself|each\s+other|one\s+another|it's|that's|to\s+know|to\s+ask|one|which|ever$|"
    r"the\s+(?:first|second|third|last|other|next|previous|latter|former|same)\b|(?:the\s+)?idea\b|"
    # "I love how you explain things": praise of the assistant is no taste.
    r"(?:how|that|when|what|the\s+way)\s+(?:you|u)\b)", re.I)


# A list ends where a clause starts: "allergic to peanuts, please keep that in mind".
_NOT_A_LIST_ITEM = re.compile(
    r"^(?:please|so|but|because|since|which|that|thanks|thank|if|when|as|though|although|i|i'm|we|you|it|and\s+i|"
    r"keep|remember|note|don't|do|can|could|just|also|for|otherwise|unless|except|at|after|before|in|on|like|to\s+be|"
    r"because|cause|cuz|which|though|ever\s+since|not|no|never|especially|"
    # an item that opens with a verb starts a new predicate: "allergic to bees, carry an epipen"
    r"they|he|she|that's|it's|these|all\s+of|both\s+of|any\s+of|each\s+of|carry|take|takes|have|has|need|needs|get|gets|got|found|find|make|makes|keep|keeps|use|uses)\b", re.I)


_TRAILING_FILLER = re.compile(
    r"\s+(?:a lot|very much|so much|too|as well|the most|a bit|these days|nowadays|now|though|anymore|in general|really|better|more|"
    r"lol|lmao|haha|tbh|rn|btw|fyi|ngl|tho|unfortunately|honestly|sadly|obviously|apparently|please|pls|plz|thanks|for\s+me|"
    r"at\s+the\s+moment|right\s+now|lately|recently|these\s+days)$", re.I)


_NON_PLACES = {"Marketing", "Sales", "Finance", "Engineering", "IT", "HR", "Tech", "Retail", "Education", "Healthcare"}


def _c(key: str, value: str, confidence: float = 1.0, **attributes) -> Candidate:
    return Candidate(key, value, confidence, attributes)


def value_rule(key: str, read, *, confidence: float = 1.0, **attributes):
    """A sentence rule's builder: the `v` group, read by `read` (None or "" = no fact), is the value of `key`."""
    def build(match: re.Match) -> list[Candidate]:
        value = read(match.group("v"))
        return [Candidate(key, value, confidence, dict(attributes))] if value else []
    return build


def _object(raw: str) -> str | None:
    value = tidy_value(raw)
    previous = None
    while previous != value:
        previous = value
        value = _TRAILING_FILLER.sub("", value)
    value = re.sub(r"^to\s+", "", value, flags=re.I)
    value = re.sub(r"(?i)^(?:(?:love|like|adore|hate)\s+)+", "", value)  # "I love love love it when…"
    if not value or _PRONOUN_OBJECT.match(value) or len(value.split()) > 6:
        return None
    return value


def _items(raw: str) -> list[str]:
    raw = re.split(r"(?i)\s+(?:which|who|that's|that\s+is|so|because|cause|cuz|since|but|though|when|if|as\s+far)\b|\s+[-—–]\s+", raw)[0]
    raw = re.sub(r"(?i)\s+(?:lol|lmao|haha|tbh|rn|btw|fyi|ngl|tho|unfortunately|sadly|apparently|obviously|here)\b.*$", "", raw)
    parts = re.split(r"\s*(?:,|\band\b|\bor\b|&|/)\s*", re.sub(r"(?i)^(?:both|either)\s+", "", tidy_value(raw)))
    out = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if _NOT_A_LIST_ITEM.match(part) or len(part.split()) > 4 or re.fullmatch(r"(?i)(?:really|very|so|pretty|quite)?\s*[a-z]+ly", part) \
                or _CLAUSE_ITEM.match(part):
            break
        value = _object(re.sub(r"^(?:the|some|all|any)\s+", "", part, flags=re.I))
        if value:
            out.append(value.lower())
    return out


# An item that is a clause of its own: "shellfish and the label's tiny", "nuts and the menu is in Thai" (a thing
# with "the" / "this" and then a verb, or a contracted "is").
_CLAUSE_ITEM = re.compile(r"(?i)^(?:the|this|that|these|those|it|its|which)\s+[\w-]+(?:['’]s\s+\w+|\s+(?:is|are|was|were|isn't|aren't|looks?|seems?|says?)\b)")


# Names that hold an "and" ("mac and cheese", 'Dungeons and Dragons') are one thing, not a list.
_ONE_THING = re.compile(
    r"(?i)(?:mac|macaroni)\s+(?:and|&|n)\s+cheese|rock\s+(?:and|&|n)\s+roll|fish\s+(?:and|&)\s+chips|salt\s+and\s+pepper|"
    r"r\s*&\s*b|pb\s*&\s*j|peanut\s+butter\s+and\s+jelly|black\s+and\s+white|dungeons\s+(?:and|&)\s+dragons|"
    r"law\s+(?:and|&)\s+order|sex\s+and\s+the\s+city|pride\s+and\s+prejudice|tom\s+and\s+jerry|bread\s+and\s+butter|"
    r"sweet\s+and\s+sour|hide\s+and\s+seek|drum\s+and\s+bass|surf\s+and\s+turf|rice\s+and\s+beans|"
    r"鱼香肉丝|酸甜")


def taste_items(value: str) -> list[str]:
    """"hiking and rock climbing" -> two likes; "猫和狗" -> 猫, 狗; a name with an "and" stays whole."""
    if _ONE_THING.search(value):
        return [value]
    if re.search(r"[\u4e00-\u9fff]", value):
        parts = [p for p in re.split(r"和|、|还有|以及", value) if p]
        return parts if len(parts) > 1 and all(1 <= len(p) <= 8 for p in parts) else [value]
    parts = [p.strip() for p in re.split(r"\s*(?:,|\band\b|&|\bor\b)\s*", value) if p.strip()]
    return parts if len(parts) > 1 and all(len(p.split()) <= 3 for p in parts) else [value]


def _proper(raw: str) -> str | None:
    words = tidy_value(raw).split()
    while words and words[-1] in _STOP_CAPS:
        words.pop()
    if not words or words[0] in _STOP_CAPS:
        return None
    return " ".join(words)


# "I live in Berlin and work in Munich": the second verb shares the first one's subject.
_SHARED_SUBJECT = re.compile(
    r"^(?i:i)\s.+?(?P<cut>(?:,\s*|\s+)(?i:and|but)\s+|,\s*)(?=(?i:work|live|love|like|hate|enjoy|prefer|have|am|"
    r"moved|grew)\b)")


def expand_shared_subject(clause: str) -> list[str]:
    match = _SHARED_SUBJECT.match(clause)
    if not match:
        return [clause]
    head, tail = clause[:match.start("cut")], clause[match.end("cut"):]
    return [head, *expand_shared_subject("I " + tail)]


def match_rules(clause: str, rules: list[tuple[re.Pattern, object]], build=None) -> list[Candidate]:
    """Every rule over `clause`; a rule is (pattern, builder(match)), or (pattern, name) read by
    `build(name, match)`."""
    found: list[Candidate] = []
    taken: list[tuple[int, int, str]] = []
    for pattern, rule in rules:
        for match in pattern.finditer(clause):
            span = match.span()
            candidates = build(rule, match) if build else rule(match)
            if not candidates:
                continue
            # One phrase, one reading per key: the favourite-colour rule and the generic "like"
            # rule must not both fire on "我最喜欢的颜色是蓝色".
            family = candidates[0].memory_key.split(".")[1]
            if any(span[0] < end and start < span[1] and family == fam for start, end, fam in taken):
                continue
            taken.append((*span, family))
            found.extend(candidates)
    return found


_ORG = r"(?P<v>(?:the\s+)?[A-ZÀ-ÖØ-Þ][\w'.&-]*(?:\s+(?:[A-ZÀ-ÖØ-Þ][\w'.&-]*|of|&|and|de|du)){0,4})"


_NOT_NAMES = {"I", "It", "The", "And", "But", "So", "He", "She", "They", "We", "Is", "Was", "Has", "Just", "Loves",
              "Who", "That", "This", "Not", "No", "Yes", "Lol", "Haha", "Ok", "Okay", "Oh", "Mr", "Mrs", "Dr"} | _STOP_CAPS


def _f(key: str, value: str, **attributes) -> Candidate:
    return Candidate(key, value, 1.0, {k: v for k, v in attributes.items() if v not in (None, "", [])})


def _clean_org(raw: str) -> str | None:
    value = re.sub(r"^(?:the)\s+", "", tidy_value(raw), flags=re.I)
    value = re.sub(r"'s$", "", value)  # "joined Deloitte's consulting arm"
    value = re.sub(r"\s+(?:of|and|&|de|du)$", "", value)
    words = value.split()
    while words and words[-1] in _STOP_CAPS:
        words.pop()
    # "I'll", "I've": the user speaking, never an organisation's name.
    if not words or words[0] in _NOT_NAMES or value.lower() in ("home", "a", "an") or re.match(r"I['’]", words[0]):
        return None
    return " ".join(words)


def _phrase(raw: str, limit: int = 6) -> str | None:
    if _PRONOUN_OBJECT.match(tidy_value(raw)):
        return None
    value = tidy_value(re.split(r"\s+(?:because|since|so|but|which|if|and\s+(?:it|i|they|he|she|her|his|their|my)\b|when|though|lol|haha|tbh|"
                                r"honestly|ngl|rn|btw|like\s+\w+ly)\b|[,;!?()—–]", raw, maxsplit=1, flags=re.I)[0])
    value = _TRAILING_FILLER.sub("", value)
    value = re.sub(r"^(?:a|an|the|my|some)\s+", "", value, flags=re.I)
    if not value or len(value.split()) > limit or _PRONOUN_OBJECT.match(value):
        return None
    return value
