"""English first-person rules. Each takes one folded clause and returns Candidates.

Verbs match case-insensitively; names and places must be capitalised ("I live in Berlin", not
"I live in a flat"), which is what keeps precision up without a tagger. Negations never match
("I don't live in Paris anymore" has no "I live in"), and neither do past habits ("I used to").
"""
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
_IM = r"(?:^|(?<=[\s,;:]))(?i:i'm|i\s+am)"
_STOP_CAPS = {"I", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
              "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
              "December", "The", "A", "An", "My", "It"}
_CAP = r"[A-Z][\w'.&-]*"
_PLACE = rf"(?P<v>{_CAP}(?:\s+{_CAP}){{0,3}})"
_NAME = r"(?P<v>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+){0,2}|[\u4e00-\u9fff]{2,4})"
_OBJ = r"(?P<v>[^,.;!?]+)"
_LIST = r"(?P<v>[^.;!?]+)"  # allergens and foods come as lists: "peanuts, shellfish and milk"
_PRONOUN_OBJECT = re.compile(
    r"^(?:it|that|this|them|you|him|her|those|these|everything|nothing|your|it's|that's|to\s+know|to\s+ask|one|which|"
    r"the\s+(?:first|second|third|last|other|next|previous|latter|former|same)\b|(?:the\s+)?idea\b)", re.I)
# A list ends where a clause starts: "allergic to peanuts, please keep that in mind".
_NOT_A_LIST_ITEM = re.compile(
    r"^(?:please|so|but|because|since|which|that|thanks|thank|if|when|as|though|although|i|i'm|we|you|it|and\s+i|"
    r"keep|remember|note|don't|do|can|could|just|also)\b", re.I)
_TRAILING_FILLER = re.compile(
    r"\s+(?:a lot|very much|so much|too|as well|the most|a bit|these days|nowadays|now|though|anymore|in general|really|better|more)$", re.I)

_PROFESSIONS = (r"(?:engineer|developer|programmer|teacher|doctor|nurse|designer|student|manager|lawyer|accountant|"
                r"writer|chef|scientist|researcher|architect|analyst|consultant|pharmacist|dentist|journalist|"
                r"photographer|professor|driver|pilot|artist|musician|editor|translator|officer|technician|"
                r"entrepreneur|founder|freelancer|surgeon|therapist|librarian|mechanic|electrician|farmer)")
_CONDITIONS = (r"(?:type\s+[12]\s+diabetes|diabetes|asthma|hypertension|high\s+blood\s+pressure|celiac\s+disease|"
               r"coeliac\s+disease|epilepsy|heart\s+disease|a\s+heart\s+condition|migraines|gout|arthritis|"
               r"depression|an\s+anxiety\s+disorder|adhd|ibs|lactose\s+intolerance|kidney\s+disease|anemia|"
               r"sleep\s+apnea|high\s+cholesterol)")
_ADJ_CONDITIONS = {"diabetic": "diabetes", "pregnant": "pregnancy", "lactose intolerant": "lactose intolerance",
                   "gluten intolerant": "gluten intolerance", "asthmatic": "asthma", "epileptic": "epilepsy"}
_ROLES = {"wife": "wife", "husband": "husband", "son": "son", "daughter": "daughter", "mother": "mother",
          "mom": "mother", "mum": "mother", "father": "father", "dad": "father", "brother": "brother",
          "sister": "sister", "girlfriend": "girlfriend", "boyfriend": "boyfriend", "partner": "partner",
          "fiance": "fiance", "fiancé": "fiance", "fiancee": "fiancee", "fiancée": "fiancee", "boss": "boss",
          "grandma": "grandmother", "grandmother": "grandmother", "grandpa": "grandfather",
          "grandfather": "grandfather", "kid": "child", "child": "child", "baby": "baby"}
_PETS = {"dog": "dog", "cat": "cat", "puppy": "dog", "kitten": "cat"}
_ROLE = "(?P<role>" + "|".join(sorted(_ROLES, key=len, reverse=True)) + ")"
_PET = "(?P<role>" + "|".join(_PETS) + ")"
_NON_PLACES = {"Marketing", "Sales", "Finance", "Engineering", "IT", "HR", "Tech", "Retail", "Education", "Healthcare"}

_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)"
DATE_EN = re.compile(
    rf"\b(?:today|tonight|tomorrow(?:\s+(?:morning|afternoon|evening|night))?|the\s+day\s+after\s+tomorrow|"
    rf"this\s+(?:weekend|week|month|year|morning|afternoon|evening|{_WEEKDAY})|"
    rf"next\s+(?:week|month|year|weekend|{_WEEKDAY}|spring|summer|autumn|fall|winter)|"
    rf"on\s+{_WEEKDAY}|in\s+{_MONTH}|(?:on\s+)?{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|"
    rf"on\s+the\s+\d{{1,2}}(?:st|nd|rd|th)|\d{{4}}-\d{{2}}-\d{{2}}|in\s+(?:\d+|a|two|three)\s+(?:days|weeks|months))\b",
    re.IGNORECASE)
_PLAN_LEADS = [re.compile(rf"^(?i:{lead})\s+(?P<rest>.+)$") for lead in (
    r"i'm\s+going\s+to|i\s+am\s+going\s+to|i'm\s+gonna|i\s+will|i'll|i'm\s+planning\s+to|i\s+am\s+planning\s+to|"
    r"i\s+plan\s+to|i\s+intend\s+to", r"i'm|i\s+am", r"i")]
_PLAN_VERB = re.compile(
    r"^(?i:flying|travell?ing|visiting|moving|leaving|attending|going|driving|taking|starting|getting\s+married|"
    r"fly|travel|visit|move|leave|attend|go|drive|take|start|meet|see|have\s+an?\s+[\w\s]{0,30}?"
    r"(?:appointment|meeting|interview|exam|flight|trip|surgery|party|wedding)|"
    r"meeting|seeing|having\s+an?\s+[\w\s]{0,30}?(?:appointment|meeting|interview|exam|surgery|party)|"
    r"run|running|hike|hiking|join|joining)\b")


def _c(key: str, value: str, confidence: float = 1.0, **attributes) -> Candidate:
    return Candidate(key, value, confidence, attributes)


def _object(raw: str) -> str | None:
    value = tidy_value(raw)
    previous = None
    while previous != value:
        previous = value
        value = _TRAILING_FILLER.sub("", value)
    value = re.sub(r"^to\s+", "", value, flags=re.I)
    if not value or _PRONOUN_OBJECT.match(value) or len(value.split()) > 6:
        return None
    return value


def _items(raw: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\band\b|\bor\b|&|/)\s*", tidy_value(raw))
    out = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if _NOT_A_LIST_ITEM.match(part) or len(part.split()) > 4:
            break
        value = _object(re.sub(r"^(?:the|some|all|any)\s+", "", part, flags=re.I))
        if value:
            out.append(value.lower())
    return out


def _proper(raw: str) -> str | None:
    words = tidy_value(raw).split()
    while words and words[-1] in _STOP_CAPS:
        words.pop()
    if not words or words[0] in _STOP_CAPS:
        return None
    return " ".join(words)


_RULES: list[tuple[re.Pattern, str]] = [
    (re.compile(rf"(?:^|\b)(?i:my\s+name\s+is|my\s+name's|call\s+me|you\s+can\s+call\s+me|i\s+go\s+by)\s+{_NAME}"), "name"),
    (re.compile(rf"{_IM}\s+(?i:called)\s+{_NAME}"), "name"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:live|reside)\s+(?i:in)\s+{_PLACE}"), "home"),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:living|based|located|settled)\s+(?i:in)\s+{_PLACE}"), "home"),
    (re.compile(rf"(?:{_I}|(?i:i've|i\s+have))\s+{_ADV}(?i:moved|relocated)\s+(?:(?i:back)\s+)?(?:(?i:from)\s+{_CAP}(?:\s+{_CAP}){{0,3}}\s+)?(?i:to)\s+{_PLACE}"), "moved"),
    (re.compile(rf"(?:^|\b)(?i:my)\s+(?i:home|house|apartment|flat)\s+(?i:is)\s+(?i:in)\s+{_PLACE}"), "home"),
    (re.compile(rf"{_IM}\s+(?i:originally\s+)?(?i:from)\s+{_PLACE}"), "hometown"),
    (re.compile(rf"{_I}\s+(?i:grew\s+up|was\s+born)\s+(?i:in)\s+{_PLACE}"), "hometown"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:in)\s+{_PLACE}"), "work_city"),
    (re.compile(rf"(?:^|\b)(?i:my)\s+(?i:office|workplace)\s+(?i:is)\s+(?i:in)\s+{_PLACE}"), "work_city"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:at|for)\s+{_PLACE}"), "employer"),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?)\s+(?P<v>(?i:(?:[a-z-]+\s+){{0,2}}{_PROFESSIONS}))\b"), "occupation"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:at|for)\s+{_CAP}(?:\s+{_CAP}){{0,3}}\s+(?i:as)\s+(?i:an?)\s+(?P<v>(?i:(?:[a-z-]+\s+){{0,2}}{_PROFESSIONS}))\b"), "occupation"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:as)\s+(?i:an?)\s+(?P<v>(?i:(?:[a-z-]+\s+){{0,2}}{_PROFESSIONS}))\b"), "occupation"),
    (re.compile(rf"{_IM}\s+{_ADV}(?:(?i:severely|very|mildly|deathly|highly)\s+)?(?i:allergic)\s+(?i:to)\s+{_LIST}"), "allergy"),
    (re.compile(rf"(?:{_I}\s+(?i:have|got)|(?i:i've\s+got))\s+(?i:an?\s+)?(?:(?i:severe|mild|bad)\s+)?(?P<v>[\w -]+?)\s+(?i:allergy|allergies)\b"), "allergy"),
    (re.compile(rf"(?:^|\b)(?i:i\s+think\s+i'm|i\s+might\s+be|i\s+may\s+be|i\s+suspect\s+i'm)\s+(?i:allergic)\s+(?i:to)\s+{_LIST}"), "allergy_hedged"),
    (re.compile(rf"(?:{_I}\s+(?i:have|suffer\s+from|was\s+diagnosed\s+with)|(?i:i've\s+got))\s+(?P<v>(?i:{_CONDITIONS}))\b"), "health"),
    (re.compile(rf"{_IM}\s+{_ADV}(?P<v>(?i:diabetic|pregnant|lactose\s+intolerant|gluten\s+intolerant|asthmatic|epileptic))\b"), "health_adj"),
    (re.compile(rf"{_IM}\s+{_ADV}(?:(?i:a)\s+)?(?P<v>(?i:vegetarian|vegan|pescatarian))\b"), "diet_label"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:don't|do\s+not|never|can't|cannot)\s+(?i:eat|drink)\s+{_LIST}"), "diet_no"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:don't|do\s+not|really\s+don't)\s+(?i:like|enjoy|love)\s+{_OBJ}"), "dislike"),
    (re.compile(rf"{_I}\s+{_ADV}(?i:hate|dislike|detest|can't\s+stand|cannot\s+stand|loathe)\s+{_OBJ}"), "dislike"),
    (re.compile(rf"{_IM}\s+(?i:not\s+a\s+(?:big\s+|huge\s+)?fan\s+of)\s+{_OBJ}"), "dislike"),
    (re.compile(rf"{_I}\s+{_ADV}(?:(?i:really|absolutely|do)\s+)?(?i:like|love|enjoy|adore|prefer)\s+{_OBJ}"), "like"),
    (re.compile(rf"{_IM}\s+(?i:a\s+(?:big\s+|huge\s+)?fan\s+of)\s+{_OBJ}"), "like"),
    (re.compile(rf"(?:^|\b)(?i:my\s+(?:favou?rite)\s+(?P<cat>[a-z ]{{2,20}}?)\s+is)\s+{_OBJ}"), "favourite"),
    (re.compile(rf"{_I}\s+(?i:usually|often|always|normally|mostly)\s+(?i:order|eat|drink|buy|watch|listen\s+to|read|play)\s+{_OBJ}"), "habit"),
    (re.compile(rf"(?:^|\b)(?i:my)\s+{_ROLE}(?:(?i:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+named|\s+called)|,)?\s+{_NAME}"), "relation"),
    (re.compile(rf"{_I}\s+(?i:have)\s+(?i:a|an)\s+{_ROLE}\s+(?i:named|called)\s+{_NAME}"), "relation"),
    (re.compile(rf"(?:^|\b)(?i:my)\s+{_PET}(?:(?i:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+named|\s+called)|,)?\s+{_NAME}"), "pet"),
    (re.compile(rf"{_I}\s+(?i:have)\s+(?i:a|an)\s+{_PET}\s+(?i:named|called)\s+{_NAME}"), "pet"),
]


def _from_match(rule: str, match: re.Match) -> list[Candidate]:
    raw = match.group("v")
    if rule == "name":
        value = _proper(raw)
        return [_c("user.name", value)] if value else []
    if rule in ("home", "moved", "hometown", "work_city", "employer"):
        value = _proper(raw)
        if not value or (rule == "work_city" and value in _NON_PLACES):
            return []
        key = {"home": "user.home_city", "moved": "user.home_city", "hometown": "user.hometown",
               "work_city": "user.work_city", "employer": "user.employer"}[rule]
        return [_c(key, value, correction=True)] if rule == "moved" else [_c(key, value)]
    if rule == "occupation":
        return [_c("user.occupation", tidy_value(raw).lower())]
    if rule in ("allergy", "allergy_hedged"):
        confidence = 0.6 if rule == "allergy_hedged" else 1.0
        return [_c("user.allergies", item, confidence) for item in _items(raw) if item not in ("something", "it")]
    if rule == "health":
        return [_c("user.health_conditions", re.sub(r"^an?\s+", "", tidy_value(raw).lower()))]
    if rule == "health_adj":
        return [_c("user.health_conditions", _ADJ_CONDITIONS[re.sub(r"\s+", " ", raw.lower())])]
    if rule == "diet_label":
        return [_c("user.diet", raw.lower())]
    if rule == "diet_no":
        return [_c("user.diet", f"no {item}") for item in _items(raw)]
    if rule in ("like", "dislike", "habit"):
        value = _object(raw)
        if not value:
            return []
        key = "user.dislikes" if rule == "dislike" else "user.likes"
        return [_c(key, value, 0.7, inferred="habit")] if rule == "habit" else [_c(key, value)]
    if rule == "favourite":
        value = _object(raw)
        return [_c("user.likes", value, category=match.group("cat").strip().lower())] if value else []
    if rule in ("relation", "pet"):
        value = _proper(raw)
        if not value:
            return []
        role_key = match.group("role").lower()
        role = _ROLES.get(role_key) if rule == "relation" else _PETS[role_key]
        family = "user.relationship" if rule == "relation" else "user.pet"
        return [_c(f"{family}.{role}", value)]
    return []


def plan_candidate(clause: str) -> Candidate | None:
    date = DATE_EN.search(clause)
    if not date:
        return None
    if date.start() == 0:
        # "Tomorrow I'm meeting my accountant" reads as "I'm meeting my accountant tomorrow".
        rest = tidy_value(clause[date.end():])
        clause = f"{rest} {date.group().lower()}" if rest else clause
    # Try the longest subject + auxiliary first, then shorter ones: "I'm going to Hangzhou" reads as
    # "going to Hangzhou", "I'm going to visit" as "visit".
    for lead in _PLAN_LEADS:
        match = lead.match(clause)
        if not match:
            continue
        rest = tidy_value(match.group("rest"))
        if re.match(r"(?i)(?:not|never|no\s+longer)\b", rest):
            return None
        if _PLAN_VERB.match(rest):
            return _c("user.plan", rest, when=date.group())
    return None


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


def match_rules(clause: str, rules: list[tuple[re.Pattern, str]], build) -> list[Candidate]:
    found: list[Candidate] = []
    taken: list[tuple[int, int, str]] = []
    for pattern, rule in rules:
        for match in pattern.finditer(clause):
            span = match.span()
            candidates = build(rule, match)
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


def match_clause(clause: str) -> list[Candidate]:
    found: list[Candidate] = []
    for part in expand_shared_subject(clause):
        found.extend(match_rules(part, _RULES, _from_match))
    if not found:
        plan = plan_candidate(clause)
        if plan:
            found.append(plan)
    return found
