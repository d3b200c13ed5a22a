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
    r"keep|remember|note|don't|do|can|could|just|also|for|otherwise|unless|except|at|after|before|in|on|like|to\s+be|"
    r"because|cause|cuz|which|though|ever\s+since|not|no|never|especially)\b", re.I)
_TRAILING_FILLER = re.compile(
    r"\s+(?:a lot|very much|so much|too|as well|the most|a bit|these days|nowadays|now|though|anymore|in general|really|better|more|"
    r"lol|lmao|haha|tbh|rn|btw|fyi|ngl|tho|unfortunately|honestly|sadly|obviously|apparently)$", re.I)

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
    raw = re.sub(r"(?i)\s+(?:lol|lmao|haha|tbh|rn|btw|fyi|ngl|tho|unfortunately|sadly|apparently|obviously|here)\b.*$", "", raw)
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
        value = _ADJ_CONDITIONS[re.sub(r"\s+", " ", raw.lower())]
        # FACTS.md: lactose intolerance is a food restriction ("lactose"), not a condition.
        return [_c("user.food_restrictions", "lactose")] if value == "lactose intolerance" else [_c("user.health_conditions", value)]
    if rule == "diet_label":
        return [_c("user.diet", raw.lower())]
    if rule == "diet_no":
        return [_c("user.food_restrictions", item) for item in _items(raw)]
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
            return _c("user.plan", rest, date=date.group())
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


# ---- issue 11: the personal-fact families (FACTS.md) -----------------------------------------
# Each rule is (pattern, builder). A pattern finds the predicate; `_user_said` then checks that
# what stands before it is the user as subject (or nothing: "live in Austin", "allergic to bees"),
# so "my friend works at Google" and "she's vegan" stay out without a rule for every other person.
from layers.formation.extractor import attrs as A  # noqa: E402

_SUBJECT_TAIL = re.compile(
    r"(?:^|[:—–?!(]\s*|\b(?:i|i'm|im|i\s+am|i've|ive|i\s+have|i\s+had|i'll|i\s+will|i'd|me|my|our)\s+)"
    r"(?:(?:just|finally|recently|currently|now|still|also|actually|basically|officially|really|totally|literally|"
    r"already|even|mostly|usually|always|normally|generally|typically|sometimes|often|got|been|have|had|was|"
    r"kinda|pretty\s+much|at\s+the\s+moment|these\s+days|right\s+now|honestly|tbh|ok|okay|yeah|well|plus|anyway|"
    r"absolutely|definitely|seriously|super|so|quite|pretty|very|truly|a\s+bit|personally|i\s+think|i\s+guess|"
    r"since|then|\d+\s+yrs?|years|ago|currently|not\s+gonna\s+lie|lately|a\s+huge|a\s+big|huge|big|a|work|working|"
    r"started|start|starting|landed|accepted|took|take|do|did|went|go|wedding|dating|first\s+date|engagement)\s+)*$",
    re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|me|my)\b", re.IGNORECASE)
_OTHER_SUBJECT = re.compile(r"\b(?:he|she|they|we|you|his|her|their|your|friend|buddy|neighbou?r|coworker|"
                            r"co-worker|teammate|client|landlord|barber|cousin|classmate|someone|somebody|people)\b", re.I)


_ROLE_IN_PREFIX = None  # set below, once the role table exists


def _no_one_else(clause: str, start: int) -> bool:
    """Looser than `_user_said`, for facts that only a person states of themselves in passing
    ("PhD candidate in marine biology at …", "soy allergy here"): fine unless someone else
    (a friend, "she", "my son") stands before the predicate."""
    prefix = clause[:start]
    if _OTHER_SUBJECT.search(prefix) or (_ROLE_IN_PREFIX and _ROLE_IN_PREFIX.search(prefix)):
        return False
    return not re.search(r"(?i)\b(?:is|are|was|were|has|does|says|said|told)\b", prefix)


def _user_said(clause: str, start: int) -> bool:
    prefix = clause[:start]
    # "I have asthma and take an inhaler": the second verb shares the first-person subject.
    if re.match(r"(?i)^(?:i|i'm|im|i've)\b", prefix) and re.search(r"(?i)\b(?:and|but|then|also|so)\s+$", prefix) \
            and not _OTHER_SUBJECT.search(prefix):
        return True
    if _OTHER_SUBJECT.search(prefix[-40:]) and not re.search(r"\bi\b|\bi'm\b|\bim\b", prefix[-12:], re.I):
        return False
    return bool(_SUBJECT_TAIL.search(prefix))


_ORG = r"(?P<v>(?:the\s+)?[A-Z][\w'.&-]*(?:\s+(?:[A-Z][\w'.&-]*|of|&|and|de|du)){0,4})"
_ANYPLACE = r"(?P<v>[A-Za-z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3})"
# Lower-case text ("moved to london last year"): a place is at most three words, ended by a time
# word or connective.
_LSTOP = (r"(?:last|next|this|for|with|and|but|now|since|because|so|the|a|an|to|in|at|on|from|rn|lol|tho|though|anymore|"
          r"again|already|too|as|soon|yet|with|by|area|though|haha|btw|tbh|which|where|who|is|was|are|it|i|my|of|"
          r"these|those|recently|ago|years?|months?|weeks?|days?)")
_LPLACE = rf"(?P<v>(?!{_LSTOP}\b)[a-z][\w'.-]*(?:\s+(?!{_LSTOP}\b)[a-z][\w'.-]*){{0,2}})(?=\s+{_LSTOP}\b|\s*$|\s*[,.;!?])"
_NOT_LPLACES = {"here", "there", "home", "town", "city", "the city", "a flat", "an apartment", "a house", "the suburbs",
                "the area", "the countryside", "hotel", "a hotel", "dorm", "a dorm", "school", "work", "bed", "office"}
_LANGS = ("English|Mandarin|Chinese|Cantonese|Spanish|French|German|Italian|Portuguese|Japanese|Korean|Russian|Arabic|"
          "Hindi|Marathi|Bengali|Urdu|Tamil|Telugu|Punjabi|Gujarati|Tagalog|Filipino|Thai|Vietnamese|Indonesian|Malay|"
          "Dutch|Swedish|Norwegian|Danish|Finnish|Polish|Czech|Greek|Turkish|Hebrew|Persian|Farsi|Swahili|Ukrainian|"
          "Romanian|Hungarian|Catalan|Basque|Irish|Welsh|Latin|ASL|sign\\s+language|Yoruba|Igbo|Hausa|Amharic|Zulu|"
          "Afrikaans|Serbian|Croatian|Bulgarian|Slovak|Lithuanian|Latvian|Estonian|Icelandic|Nepali|Sinhala|Khmer|"
          "Lao|Burmese|Mongolian|Tibetan|Uyghur|Hokkien|Hakka|Taiwanese|Shanghainese")
_LANG = rf"(?P<v>(?i:{_LANGS}))"
_CHANNELS = (r"e-?mail|emails|texts?|texting|sms|phone\s+calls?|calls?|calling|voice\s+notes?|voicemail|whatsapp|"
             r"wechat|telegram|signal|slack|teams|imessage|messenger|line|discord|zoom|dms?|instagram\s+dms?|"
             r"push\s+notifications?|calendar\s+invites?|messages?")
_PROF_EN = (r"(?:engineer|developer|dev|programmer|swe|sde|teacher|doctor|nurse|designer|manager|lawyer|attorney|accountant|"
            r"writer|chef|cook|scientist|researcher|architect|analyst|consultant|pharmacist|dentist|journalist|vet|"
            r"veterinarian|paramedic|illustrator|producer|barista|bartender|waiter|waitress|cashier|photographer|"
            r"professor|lecturer|driver|pilot|artist|musician|editor|translator|interpreter|officer|technician|"
            r"entrepreneur|founder|freelancer|surgeon|therapist|psychologist|librarian|mechanic|electrician|plumber|"
            r"farmer|firefighter|police\s+officer|cop|soldier|intern|recruiter|marketer|copywriter|"
            r"pm|product\s+manager|data\s+scientist|economist|banker|trader|realtor|agent|secretary|assistant|"
            r"clerk|tutor|coach|trainer|physio|physiotherapist|midwife|carpenter|welder|tailor|baker|butcher|"
            r"hairdresser|stylist|model|actor|actress|dancer|singer|animator|streamer|youtuber|sales\s+rep|"
            r"ceo|cto|cfo|vp|director|lead|supervisor|receptionist|caregiver|nanny|janitor|courier)")
_OCC = rf"(?P<v>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})s?\b"
_CONDITIONS_EN = (r"type\s+[12]\s+diabetes|diabetes|asthma|hypertension|high\s+blood\s+pressure|celiac\s+disease|"
                  r"coeliac\s+disease|epilepsy|heart\s+disease|migraines?|gout|arthritis|depression|anxiety|adhd|"
                  r"autism|ibs|crohn'?s(?:\s+disease)?|insomnia|sleep\s+apnea|high\s+cholesterol|hay\s?fever|eczema|"
                  r"psoriasis|pcos|endometriosis|lupus|fibromyalgia|hypothyroidism|hyperthyroidism|anemia|anaemia|"
                  r"chronic\s+[a-z]+\s+pain|chronic\s+pain|back\s+pain|a\s+broken\s+[a-z]+|broken\s+[a-z]+|tinnitus|"
                  r"glaucoma|ms|multiple\s+sclerosis|parkinson'?s|copd|bipolar(?:\s+disorder)?|ocd|ptsd|acid\s+reflux|"
                  r"gerd|kidney\s+stones|kidney\s+disease|a\s+heart\s+condition|scoliosis|vertigo|dyslexia|"
                  r"long\s+covid|celiac|coeliac|diabetic|pregnant|asthmatic|epileptic|lactose\s+intolerant")
_COND_NORMAL = {"diabetic": "diabetes", "pregnant": "pregnancy", "asthmatic": "asthma", "epileptic": "epilepsy",
                "celiac": "celiac disease", "coeliac": "coeliac disease", "lactose intolerant": "lactose intolerance"}
_DIETS_EN = (r"vegan|vegetarian|veggie|pescatarian|pescetarian|flexitarian|keto|paleo|low[- ]carb|low[- ]fodmap|"
             r"gluten[- ]free|dairy[- ]free|plant[- ]based|carnivore|halal|kosher|raw\s+vegan|intermittent\s+fasting|whole30")
_DRUG_SUFFIX = re.compile(
    r"(?:in|ol|ide|pam|ine|one|ate|statin|pril|sartan|mab|xib|vir|zole|pine|lam|fen|rin|lin|tan|done|ex|il|ium|"
    r"pills?|tablets?|inhaler|insulin|aspirin|vitamin\s+\w+|antidepressants?|antihistamines?|hrt|prep)$", re.I)
_SPECIES_EN = {"dog": "dog", "dogs": "dog", "puppy": "dog", "pup": "dog", "cat": "cat", "cats": "cat", "kitten": "cat",
               "kitty": "cat", "rabbit": "rabbit", "bunny": "rabbit", "parrot": "parrot", "bird": "bird",
               "hamster": "hamster", "fish": "fish", "goldfish": "fish", "turtle": "turtle", "tortoise": "turtle",
               "gecko": "gecko", "chinchilla": "chinchilla", "guinea pig": "guinea_pig", "snake": "snake",
               "ferret": "ferret", "horse": "horse", "lizard": "lizard"}
_BREEDS_EN = {"shiba": "dog", "shiba inu": "dog", "golden retriever": "dog", "retriever": "dog", "labrador": "dog",
              "lab": "dog", "pug": "dog", "beagle": "dog", "dachshund": "dog", "corgi": "dog", "poodle": "dog",
              "husky": "dog", "collie": "dog", "border collie": "dog", "terrier": "dog", "bulldog": "dog",
              "french bulldog": "dog", "frenchie": "dog", "chihuahua": "dog", "greyhound": "dog", "spaniel": "dog",
              "schnauzer": "dog", "doodle": "dog", "labradoodle": "dog", "german shepherd": "dog", "samoyed": "dog",
              "maltese": "dog", "rottweiler": "dog", "boxer": "dog", "budgie": "bird", "cockatiel": "bird",
              "canary": "bird", "parakeet": "bird", "lovebird": "bird", "betta": "fish", "betta fish": "fish",
              "siamese": "cat", "tabby": "cat", "ragdoll": "cat", "maine coon": "cat", "persian": "cat",
              "sphynx": "cat", "british shorthair": "cat", "bengal": "cat", "holland lop": "rabbit",
              "leopard gecko": "gecko", "cockatoo": "parrot", "macaw": "parrot", "african grey": "parrot"}
_PET_WORD = "|".join(sorted(list(_SPECIES_EN) + list(_BREEDS_EN), key=len, reverse=True))
_ROLES_EN = {**_ROLES, "stepdad": "father", "stepfather": "father", "stepmom": "mother", "stepmum": "mother",
             "mama": "mother", "papa": "father", "gran": "grandmother", "granny": "grandmother", "nana": "grandmother",
             "grandad": "grandfather", "granddad": "grandfather", "kids": "child", "children": "child",
             "little sister": "younger_sister", "little brother": "younger_brother", "big sister": "older_sister",
             "big brother": "older_brother", "older sister": "older_sister", "older brother": "older_brother",
             "younger sister": "younger_sister", "younger brother": "younger_brother", "best friend": "best_friend",
             "bestie": "best_friend", "bff": "best_friend", "roommate": "roommate", "flatmate": "roommate",
             "colleague": "colleague", "manager": "boss", "hubby": "husband", "wifey": "wife", "sons": "son",
             "daughters": "daughter", "parents": "parents", "toddler": "child", "grandson": "grandson",
             "granddaughter": "granddaughter", "fiance": "partner", "fiancé": "partner", "fiancee": "partner",
             "fiancée": "partner", "baby": "child"}
_PEOPLE_ROLE = "(?P<role>" + "|".join(sorted(_ROLES_EN, key=len, reverse=True)) + ")"
_PERSON = r"(?P<v>[A-Z][a-zà-ÿ'-]+(?:\s+[A-Z][a-zà-ÿ'-]+)?)"
_NOT_NAMES = {"I", "It", "The", "And", "But", "So", "He", "She", "They", "We", "Is", "Was", "Has", "Just", "Loves",
              "Who", "That", "This", "Not", "No", "Yes", "Lol", "Haha", "Ok", "Okay", "Oh", "Mr", "Mrs", "Dr"} | _STOP_CAPS


def _f(key: str, value: str, **attributes) -> Candidate:
    return Candidate(key, value, 1.0, {k: v for k, v in attributes.items() if v not in (None, "", [])})


def _clean_org(raw: str) -> str | None:
    value = re.sub(r"^(?:the)\s+", "", tidy_value(raw), flags=re.I)
    value = re.sub(r"\s+(?:of|and|&|de|du)$", "", value)
    words = value.split()
    while words and words[-1] in _STOP_CAPS:
        words.pop()
    if not words or words[0] in _NOT_NAMES or value.lower() in ("home", "a", "an"):
        return None
    return " ".join(words)


def _phrase(raw: str, limit: int = 6) -> str | None:
    if _PRONOUN_OBJECT.match(tidy_value(raw)):
        return None
    value = tidy_value(re.split(r"\s+(?:because|since|so|but|which|and\s+(?:it|i|they|he|she)|when|though|lol|haha|tbh|"
                                r"honestly|ngl|rn|btw|like\s+\w+ly)\b|[,;!?()—–]", raw, maxsplit=1, flags=re.I)[0])
    value = _TRAILING_FILLER.sub("", value)
    value = re.sub(r"^(?:a|an|the|my|some)\s+", "", value, flags=re.I)
    if not value or len(value.split()) > limit or _PRONOUN_OBJECT.match(value):
        return None
    return value


def _occupation(raw: str) -> str | None:
    value = tidy_value(raw)
    value = re.sub(r"^(?:a|an|the)\s+", "", value, flags=re.I)
    value = re.sub(r"^(?:professional|full[- ]time|part[- ]time|new|good|bad|huge|big|little|proud|total)\s+", "", value, flags=re.I)
    if re.match(r"(?i)(?:fan|bit|lot|mess|kid|person|type|morning|night|people)\b", value):
        return None
    return value or None


def _lang_level(clause: str) -> str | None:
    low = clause.lower()
    if re.search(r"native|first\s+language|mother\s+tongue|grew\s+up\s+speaking", low):
        return "native"
    if re.search(r"fluent|bilingual|\bc2\b|\bc1\b|\bn1\b|proficient", low):
        return "fluent"
    if re.search(r"learn|studying|classes|class|lessons|duolingo|grinding|practi[cs]ing|taking", low):
        return "learning"
    if re.search(r"a\s+bit|a\s+little|get\s+by|rusty|basic|some\s+\w+|few\s+words|beginner", low):
        return "basic"
    return None


def _b_employer(m, clause):
    role = m.groupdict().get("role") or ""
    if re.search(r"(?i)student|undergrad|freshman|sophomore|junior|senior|candidate|phd|postdoc", role):
        return []
    org = _clean_org(m.group("v"))
    if not org or org.lower() in ("work", "home", "school", "college", "uni", "university") or org in _NON_PLACES:
        return []
    out = [_f("user.employer", org)]
    role = m.groupdict().get("role")
    if role:
        occupation = _occupation(role)
        if occupation:
            out.append(_f("user.occupation", occupation))
    return out


def _b_former(m, clause):
    org = _clean_org(m.group("v"))
    return [_f("user.former_employer", org)] if org else []


def _b_occupation(m, clause):
    value = _occupation(m.group("v"))
    return [_f("user.occupation", value)] if value else []


def _b_teach(m, clause):
    subject = tidy_value(m.group("v"))
    return [_f("user.occupation", f"{subject} teacher")] if subject and len(subject.split()) <= 4 else []


def _b_education(m, clause):
    school = _clean_org(m.group("v"))
    if not school:
        return []
    groups = m.groupdict()
    degree = groups.get("deg")
    field_ = groups.get("field")
    status = "graduated" if re.search(r"graduat|\bdid\b|went\s+to|alum|finished|completed|got\s+my", clause, re.I) else \
        "studying" if re.search(r"studying|doing|enrolled|student|candidate|\bin\s+my\b|year|junior|senior|sophomore|freshman|currently|\bat\b", clause, re.I) else None
    if degree is None:
        found = re.search(r"(?i)\b(phd|master'?s|masters|mba|bachelor'?s|undergrad|ba|bs|bsc|msc|ma|llm|jd|md)\b", clause)
        degree = found.group(1) if found else None
    if field_ is None:
        found = re.search(r"(?i)\b(?:in|studying|majoring\s+in|degree\s+in)\s+([a-z][a-z ]{2,30}?)(?:\s+(?:at|from)\b|,|$)", clause)
        field_ = found.group(1) if found and not re.match(r"(?i)my\b|the\b|a\b", found.group(1)) else None
        if field_ is None:
            found = re.search(r"(?i)\b([a-z]+)\s+major\b", clause)
            field_ = found.group(1) if found else None
    if field_ is None and re.search(r"(?i)med\s+school", clause):
        field_ = "medicine"
    return [_f("user.education", school, degree=degree, field=field_, status=status)]


def _b_home(m, clause):
    value = _proper(m.group("v")) if m.group("v")[:1].isupper() else tidy_value(m.group("v"))
    if not value or value in _NON_PLACES or value.lower() in ("here", "there", "a", "the", "town", "the city", "home"):
        return []
    return [_f(m.re.groupindex and m.groupdict().get("key") or "user.home_city", value)]


def _b_place(key):
    def build(m, clause):
        build.key = key
        raw = m.group("v")
        value = _proper(raw) if raw[:1].isupper() else tidy_value(raw)
        if not value or value in _NON_PLACES or value.split()[0].lower() in ("here", "there", "a", "the", "home", "my", "an") \
                or value.lower() in _NOT_LPLACES or (not raw[:1].isupper() and len(value) < 2):
            return []
        return [_f(key, value)]
    return build


def _b_commute(m, clause):
    home, work = _proper(m.group("a")), _proper(m.group("b"))
    return [c for c in (home and _f("user.home_city", home), work and _f("user.work_city", work)) if c]


def _b_language(m, clause):
    lang = tidy_value(m.group("v"))
    level = m.groupdict().get("lvl") or _lang_level(clause)
    return [_f("user.languages", lang, level=level)]


def _b_allergy(m, clause):
    out = []
    for item in _items(m.group("v")):
        item = re.sub(r"^(?:to\s+)?", "", item)
        if item and not re.search(r"(?i)monday|work|nonsense|people|anything|something|everything|stuff|mornings?", item):
            out.append(_f("user.allergies", item))
    return out


def _b_allergy_noun(m, clause):
    value = tidy_value(m.group("v")).lower()
    value = re.sub(r"^(?:an?|severe|mild|bad|serious|my)\s+", "", value)
    return [_f("user.allergies", value)] if value and len(value.split()) <= 3 else []


def _b_condition(m, clause):
    raw = tidy_value(m.group("v")).lower()
    raw = re.sub(r"^an?\s+", "", raw)
    value = _COND_NORMAL.get(re.sub(r"\s+", " ", raw), raw)
    if value == "lactose intolerance":
        return [_f("user.food_restrictions", "lactose")]
    if value == "type 2 diabetic":
        value = "type 2 diabetes"
    out = [_f("user.health_conditions", value)]
    if re.search(r"c(?:o)?eliac", value):
        out.append(_f("user.food_restrictions", "gluten"))
    if value == "lactose intolerance":
        out.append(_f("user.food_restrictions", "lactose"))
    return out


_NOT_DRUGS = {"train", "rain", "plane", "line", "machine", "wine", "time", "phone", "mine", "online", "caffeine", "tan",
              "team", "plan", "plate", "date", "board", "vacation", "fire", "done", "one", "someone", "everyone", "gone",
              "alone", "none", "zone", "tone", "bone", "stone", "kitchen", "chicken", "protein", "cabin", "brain",
              "main", "chain", "drain", "again", "domain", "in", "it", "ex", "it", "lin", "il", "board", "rate", "late",
              "state", "update", "mate", "site", "debate", "climate", "chocolate", "pill", "call", "roll", "email",
              "pedal", "deal", "meal", "detail", "trail", "mail", "rail", "goal", "coal", "soul", "pool", "school",
              "tool", "wool", "evil", "april", "council", "until", "film", "hill", "skill", "will", "still", "till"}


def _b_medication(m, clause):
    drug = re.split(r"(?i)\s+(?:every|daily|twice|once|at|in|for|when|before|after|each|since|so|because|as|to|and|now|three|a\s+day)\b", tidy_value(m.group("v")))[0]
    drug = re.sub(r"^(?:a|an|the|my|some)\s+", "", drug, flags=re.I)
    if not drug or not _DRUG_SUFFIX.search(drug) or len(drug.split()) > 4 or drug.lower().split()[-1] in _NOT_DRUGS:
        return []
    dose = re.search(r"(?i)\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ml|g|iu|units?)\b|\b(?:half|one|two)\s+(?:a\s+)?(?:pill|tablet)s?\b", clause)
    schedule = A.frequency(clause) or (re.search(r"(?i)\bwhen\s+[a-z ]{3,20}$|\bat\s+night\b|\bin\s+the\s+morning\b|\bbefore\s+bed\b", clause) or [None])[0]
    return [_f("user.medications", drug, dose=dose.group() if dose else None, schedule=schedule)]


def _b_diet(m, clause):
    label = tidy_value(m.group("v")).lower()
    label = {"veggie": "vegetarian"}.get(label, label)
    if label.startswith("gluten"):
        return [_f("user.food_restrictions", "gluten")]
    if label.startswith("dairy"):
        return [_f("user.food_restrictions", "dairy")]
    return [_f("user.diet", label)]


def _b_restriction(m, clause):
    out = []
    raw = re.split(r"(?i)\s+(?:after|before|at|during|for|in|on|since|anymore|these\s+days|at\s+all|because|as)\b", m.group("v"))[0]
    for item in _items(raw):
        item = re.sub(r"^(?:any|eating|drinking)\s+", "", item)
        if item and not re.search(r"(?i)anything|everything|much|that|this|it$|them$|breakfast|lunch|dinner|out|\bme\b|call|text|restrictions", item):
            out.append(_f("user.food_restrictions", item))
    return out


def _b_like(key):
    def build(m, clause):
        value = _phrase(m.group("v"))
        if not value or re.match(r"(?i)(?:to\s+)?(?:know|ask|help|see|hear|get|have|try|go|be|do|make)\b", value) or re.fullmatch(r"(?i)[a-z]+ly", value):
            return []
        return [_f(key, value)]
    return build


def _b_habit(m, clause):
    activity = tidy_value(m.group("v"))
    activity = re.sub(r"(?i)^(?:i\s+|usually\s+|always\s+|go\s+to\s+|go\s+|do\s+|have\s+|=\s*)", "", activity)
    activity = A.EN_FREQ.sub("", activity)
    activity = A.EN_TIME.sub("", activity)
    activity = re.sub(r"(?i)\b(?:every|on|most|at|pretty\s+much|always|usually|each|=)\b", " ", activity)
    activity = re.sub(r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\bweekends?\b|\b(?:mon|tue|wed|thu|fri|sat|sun)(?:/\w+)*\b", " ", activity)
    activity = re.sub(r"(?i)\b(?:for\s+)?(?:half\s+an\s+hour|an\s+hour|\d+\s*(?:min(?:ute)?s?|hours?|hrs?))\b", " ", activity)
    activity = tidy_value(re.sub(r"\s+", " ", activity))
    activity = re.split(r"(?i)\s+(?:with|before|after|lol|haha)\b|,", activity)[0].strip() or activity
    if not activity or len(activity.split()) > 6:
        return []
    return [_f("user.habits", activity, time=A.time_of_day(clause), weekdays=A.weekdays(clause), frequency=A.frequency(clause))]


def _b_contact(m, clause):
    value = tidy_value(m.group("v"))
    return [_f("user.contact_preference", value)] if value else []


def _b_age(m, clause):
    age = A.plausible_age(A.en_int(m.group("v")), low=5)
    return [_f("user.age", str(age))] if age else []


def _b_date(key, **fixed):
    def build(m, clause):
        value = tidy_value(m.group("v"))
        if not value or not (A.en_date(value) or re.search(r"\d", value)):
            return []
        extra = dict(fixed)
        if key == "user.anniversary" and "type" not in extra and re.search(r"(?i)wedding|married", clause):
            extra["type"] = "wedding"
        return [_f(key, value, **extra)]
    return build


def _b_name(m, clause):
    value = _proper(m.group("v"))
    if not value or value in _NOT_NAMES or re.match(_LANGS, value):
        return []
    return [_f("user.name", value)]


def _b_pet(m, clause):
    word = m.group("sp").lower()
    species = _SPECIES_EN.get(word) or _BREEDS_EN.get(word)
    if not species:
        return []
    name = m.groupdict().get("v")
    name = name if name and name not in _NOT_NAMES else ""
    if not name:
        later = re.search(r"(?i:named|called|calling|call|name's|names|name\s+is|'s\s+name\s+is)\s+(?:(?i:him|her|it|them)\s+)?(?P<n>[A-Za-z][a-z]+)", clause[m.end() - 2:])
        if later and later.group("n") not in _NOT_NAMES:
            name = later.group("n")
    breed = word if word in _BREEDS_EN else None
    age = m.groupdict().get("age")
    return [_f(f"user.pet.{species}", name, breed=breed, age=A.en_int(age) if age else None)]


def _b_pets(m, clause):
    word = m.group("sp").lower()
    species = _SPECIES_EN.get(word) or _BREEDS_EN.get(word)
    names = [n for n in re.split(r"\s*,\s*|\s+and\s+|\s*&\s*", m.group("names")) if n]
    return [_f(f"user.pet.{species}", name) for name in names] if species else []


def _person_attrs(rest: str) -> dict:
    out: dict = {}
    age = re.search(rf"(?i)(?:\bis|'s|\bhes|\bshes|\bturns?|\bturned|\bjust\s+turned|,)\s+(?:now\s+)?(?P<n>{A.EN_NUMBER})\b(?!\s*(?:min|am|pm|kg|%|weeks|months|days))", rest)
    if age:
        value = A.plausible_age(A.en_int(age.group("n")), low=0)
        if value is not None:
            out["age"] = value
    occupation = re.search(rf"(?i)\b(?:is|'s|works\s+as)\s+(?:an?\s+)?{_OCC}", rest)
    if occupation:
        out["occupation"] = _occupation(occupation.group("v"))
    else:
        field = re.search(r"(?i)\bworks\s+in\s+(?P<v>[a-z]+(?:\s+[a-z]+)?)\b", rest)
        if field and not field.group("v")[:1].isupper() and field.group("v").lower() not in ("the", "a", "an"):
            out["occupation"] = field.group("v")
    likes = re.search(r"(?i)\b(?:loves|likes|plays|is\s+obsessed\s+with|is\s+into|enjoys|wants\s+to\s+learn)\s+(?P<v>[^,.;!?]+)", rest)
    if likes:
        value = _phrase(likes.group("v"), 4)
        if value:
            out["likes"] = re.sub(r"(?i)^(?:more\s+than\s+anything)$", "", value) or None
    birthday = re.search(r"(?i)birthday\s+is\s+(?:on\s+)?(?P<v>[^,.;!?]+)|\bturns?\s+\S+\s+(?:on\s+)?(?P<w>[^,.;!?]+)", rest)
    if birthday:
        out["birthday"] = tidy_value(birthday.group("v") or birthday.group("w"))
    school = re.search(r"(?i)\b(?:started|starts|goes\s+to|attends|is\s+at|in)\s+(?:[a-z]+\s+)?(?:at\s+)(?P<v>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,4})", rest)
    if school:
        out["school"] = school.group("v")
    return {k: v for k, v in out.items() if v not in (None, "")}


def _b_person(m, clause):
    role = _ROLES_EN.get(m.group("role").lower())
    if not role or role in ("parents", "grandson", "granddaughter"):
        return []
    if m.group("role").lower() == "manager" and not m.groupdict().get("v"):
        return []
    name = m.groupdict().get("v") or ""
    if name in _NOT_NAMES or (name and name.split()[0] in _NOT_NAMES):
        name = ""
    attributes = _person_attrs(clause[m.end():])
    if m.groupdict().get("age") and "month" not in m.group():
        attributes["age"] = int(m.group("age"))
    return [_f(f"user.relationship.{role}", name, **attributes)]


def _b_plan(m, clause):
    date = A.en_date(clause)
    if not date:
        return []
    body = tidy_value(m.group("v"))
    dest = re.search(r"\b(?:to|in|at|visit(?:ing)?)\s+(?P<d>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})", clause)
    destination = _proper(dest.group("d")) if dest else None
    if destination and (A.en_date(destination) or destination in _STOP_CAPS):
        destination = None
    return [_f("user.plan", body, date=date, destination=destination)]


_EN_FACT_RULES: list[tuple[re.Pattern, object]] = [
    # employment
    (re.compile(rf"(?i:work(?:ing)?|been)\s+(?:(?i:full[- ]time|part[- ]time|remotely|remote)\s+)?(?i:at|for)\s+{_ORG}"), _b_employer),
    (re.compile(rf"(?i:joined|joining|started\s+at|starting\s+at|start\s+at|switched\s+to|(?:a\s+)?(?:new\s+)?(?:job|position|role|gig|internship)\s+(?:at|with)|hired\s+by|hired\s+at|poached\s+by|"
                rf"got\s+(?:the|an)\s+offer\s+from|accepted\s+(?:an?\s+)?offer\s+(?:from|at)|signed\s+with|now\s+at|employed\s+(?:at|by))\s+{_ORG}"
                rf"(?:\s+(?i:as)\s+(?i:an?\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}[A-Za-z-]+))?"), _b_employer),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?\s+|the\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})\s+(?i:at|for|with)\s+{_ORG}"), _b_employer),
    (re.compile(r"(?i:work|working|job)\s+(?i:at|for)\s+(?P<v>(?!(?:a|an|the|home|night|nights|school|my|our|this|that|it|once|least|all|him|her|them|myself|some|two|three)\b)[a-z][a-z0-9&'-]{1,20})(?=\s*$|\s*[,.;!?]|\s+(?:now|as|since|and|but|in|rn|lol)\b)"), _b_employer),
    (re.compile(rf"(?i:officially\s+)?(?i:an?\s+)(?P<v>[A-Z][\w&'-]*)\s+(?i:employee)"), _b_employer),
    (re.compile(rf"(?i:as)\s+(?i:an?\s+|the\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})\s+(?i:at|for|with)\s+{_ORG}"), _b_employer),
    (re.compile(rf"(?i:left|quit|resigned\s+from|laid\s+off\s+(?:from|by)|let\s+go\s+from|fired\s+from|no\s+longer\s+(?:at|with|work\s+(?:at|for))|"
                rf"handed\s+in\s+my\s+notice\s+at|quit\s+my\s+job\s+at|left\s+my\s+job\s+at|gave\s+notice\s+at|leaving)\s+{_ORG}"), _b_former),
    (re.compile(rf"(?i:after)\s+\d+\s+(?i:yrs?|years|months)\s+(?i:at|with)\s+{_ORG}\s*,?\s+(?i:i\s+)?(?i:(?:finally\s+)?(?:left|quit|resigned))"), _b_former),
    (re.compile(rf"(?i:work(?:ing)?)\s+(?i:as)\s+(?i:an?\s+)?{_OCC}"), _b_occupation),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?|the)\s+{_OCC}"), _b_occupation),
    (re.compile(rf"(?i:my\s+job\??|job:|occupation:|by\s+profession\s+i'm\s+an?)\s+{_OCC}"), _b_occupation),
    (re.compile(rf"(?i:i\s+teach)\s+(?P<v>[a-z ]+?)\s+(?i:at|to|in|for)\b"), _b_teach),
    (re.compile(rf"(?i:doing|do)\s+(?:(?i:some\s+)?)(?P<v>(?i:freelance|contract)\s+[a-z]+(?:\s+work)?)"), _b_occupation),
    # education
    (re.compile(rf"(?i:graduated\s+from|alum(?:nus|na)?\s+of|went\s+to|studied\s+at|undergrad\s+at|did\s+my\s+(?:undergrad|degree|masters?|master's|phd|mba|bachelor'?s)\s+at|"
                rf"(?:an?\s+)?(?P<deg>mba|MBA|PhD|phd|master'?s|masters|bachelor'?s)\s+at|enrolled\s+(?:in|at)\s+(?:the\s+)?(?:[\w-]+\s+){{0,3}}at|"
                rf"(?:student|candidate|junior|senior|sophomore|freshman|year)\s+(?:in\s+[a-z ]+\s+)?at|studying\s+(?P<field>[a-z ]+?)\s+at|"
                rf"(?:master'?s|phd|degree|bachelor'?s)\s+(?:is\s+)?in\s+(?P<field2>[a-z ]+?)\s+(?:at|from)|school\s+at|in\s+(?:my\s+)?(?:\w+\s+)?year\s+at)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:currently\s+)?(?i:a\s+)?(?i:junior|senior|sophomore|freshman|student)\s+(?i:at)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:study|studied|studying|major\s+in|majored\s+in|majoring\s+in|read)\s+(?P<field>[a-z][a-z ]{{1,30}}?)\s+(?i:at|in|from)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:my\s+)?(?P<deg>(?i:phd|ph\.d\.|doctorate|master'?s|masters|mba|bachelor'?s|ba|bs|bsc|msc|ma|degree|diploma|mfa|jd|md))(?:\s+(?i:degree))?(?:\s+(?i:in)\s+(?P<field>[a-z][a-z ]{{1,30}}?))?\s+(?i:from|at)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:at|from)\s+(?P<v>[A-Z][\w'.&-]*(?:\s+[A-Z][\w'.&-]*){{0,4}}\s+(?:University|College|Institute|School|Academy|Polytechnic)(?:\s+of\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)?|(?:the\s+)?(?:University|College|Institute)\s+of\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)"), _b_education),
    (re.compile(r"(?i:did\s+an?|doing\s+an?|finished\s+an?|completed\s+an?)\s+(?P<v>[a-z]+\s+(?:apprenticeship|bootcamp|diploma))"), _b_education),
    (re.compile(rf"(?i:go\s+to|goes\s+to|attend|attending|attended|transferred\s+to|got\s+into|accepted\s+(?:to|into|at)|admitted\s+to)\s+(?P<v>[A-Z]{{2,6}}\b|(?:the\s+)?[A-Z][\w'.&-]*(?:\s+[A-Z][\w'.&-]*){{0,4}}\s+(?:University|College|Institute|School|Academy|Tech)(?:\s+of\s+[A-Z][\w'.-]*)?|(?:the\s+)?University\s+of\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)"), _b_education),
    (re.compile(rf"(?P<v>[A-Z][\w'.&-]*(?:\s+[A-Z][\w'.&-]*){{0,3}})\s+(?i:alum|alumnus|alumna|alumni|grad|graduate)\b"), _b_education),
    (re.compile(r"(?i:doing|pursuing|studying\s+for|working\s+on|finishing|starting|halfway\s+through)\s+(?i:an?|my)\s+(?P<v>(?P<deg>MBA|PhD|master'?s|masters|bachelor'?s|doctorate|law\s+degree|nursing\s+degree))"), _b_education),
    (re.compile(rf"(?i:did|do|doing|got|finished|completed)\s+(?i:my)\s+(?P<deg>(?i:masters?|master's|phd|mba|bachelor'?s|undergrad|degree|ba|bsc|msc))\s+(?i:in|at)\s+{_ORG}"), _b_education),
    (re.compile(r"(?i:a\s+)?(?P<v>(?i:high\s+school|college|grad\s+school|med\s+school|law\s+school|middle\s+school))\s+(?i:senior|junior|sophomore|freshman|student|grad|graduate|dropout)"), _b_education),
    # places
    (re.compile(rf"(?i:live|living|based|settled|reside|residing|located)\s+(?i:in|out\s+of)\s+{_ANYPLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:live|living|based|settled|reside|residing|moved|relocated)\s+(?i:in|out\s+of|to)\s+{_LPLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:grew\s+up|born\s+and\s+raised|was\s+born)\s+(?i:in)\s+{_LPLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?i:originally\s+from|i'm\s+from|im\s+from)\s+{_LPLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?i:moved|relocated|moving\s+back|moved\s+back)\s+(?:(?i:back)\s+)?(?:(?i:from)\s+{_CAP}(?:\s+{_CAP}){{0,3}}\s+)?(?i:to)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:greetings|hi|hello|hey)\s+(?i:from)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?P<v>{_CAP}(?:\s+{_CAP}){{0,2}})(?:'s|\s+is)\s+(?i:home)\b"), _b_place("user.home_city")),
    (re.compile(rf"(?i:home\s+is|my\s+home\s+(?:city|town)\s+is|home\s+base\s+is)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:commute)\s+(?i:from)\s+(?P<a>{_CAP}(?:\s+{_CAP}){{0,2}})\s+(?i:to|into)\s+(?P<b>{_CAP}(?:\s+{_CAP}){{0,2}})"), _b_commute),
    (re.compile(rf"(?i:work|working|office\s+is|job\s+is|commute)\s+(?i:in|to|into)\s+{_ANYPLACE}"), _b_place("user.work_city")),
    (re.compile(rf"(?i:in|up\s+in|down\s+in|into)\s+{_PLACE}\s+(?i:for\s+work)"), _b_place("user.work_city")),
    (re.compile(rf"(?i:originally\s+from|come\s+from|hail\s+from|am\s+from)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?i:from)\s+{_PLACE}\s+(?i:originally)"), _b_place("user.hometown")),
    (re.compile(rf"(?i:originally)\s+(?:(?i:i'm|i\s+am)\s+)?(?i:from)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?i:grew\s+up|born\s+and\s+(?:raised|bred)|was\s+born|raised)\s+(?i:in)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"{_IM}\s+(?i:from)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?P<v>{_CAP}(?:\s+{_CAP})?)\s+(?i:native|born\s+and\s+(?:raised|bred)|lad|lass|girl|boy)\b"), _b_place("user.hometown")),
    # languages
    (re.compile(rf"(?i:speak|speaks|speaking|learning|studying|know|learnt|learned|grinding|practi[cs]ing)\s+(?:(?i:basic|some|a\s+bit\s+of|a\s+little|fluent|conversational)\s+)?{_LANG}"), _b_language),
    (re.compile(rf"{_LANG}\s+(?i:is\s+my\s+(?:first|native|mother|second)\s+(?:language|tongue)|(?:is\s+)?my\s+(?:second|first))"), _b_language),
    (re.compile(rf"(?i:native|fluent)\s+{_LANG}(?:\s+(?i:speaker))?"), _b_language),
    (re.compile(rf"(?i:my\s+)?(?i:first|native|mother|second|home)\s+(?i:language|tongue)\s+(?i:is|was|'s)\s+{_LANG}"), _b_language),
    (re.compile(rf"(?i:my)\s+{_LANG}\s+(?i:is|'s)\s+(?:(?i:pretty\s+much|basically|really|quite|pretty)\s+)?(?P<lvl2>[a-z]+)"), _b_language),
    (re.compile(rf"(?i:get\s+by\s+in|classes\s+in|lessons\s+in|duolingo\s+for)\s+{_LANG}"), _b_language),
    (re.compile(rf"{_LANG}\s+(?i:classes|lessons|class)"), _b_language),
    # allergies and health
    (re.compile(rf"(?i:allergic)\s+(?i:to)\s+{_LIST}"), _b_allergy),
    (re.compile(r"(?P<v>[A-Za-z][a-z -]{1,25}?)\s+(?i:allergy|allergies)\b"), _b_allergy_noun),
    (re.compile(r"(?i:allergies|allergy)\s*[:：-]\s*(?P<v>[^.;!?]+)"), _b_allergy),
    (re.compile(r"(?i:rash|hives|react\s+badly|reaction)\s+(?i:from|to)\s+(?P<v>[a-z ]+)"), _b_allergy),
    (re.compile(r"(?P<v>[A-Za-z][a-z]+(?:\s[a-z]+)?)\s+(?i:gives\s+me\s+(?:hives|a\s+rash|an\s+allergic\s+reaction)|makes?\s+me\s+(?:break\s+out|swell\s+up|itch|sneeze|wheeze)|makes?\s+my\s+(?:throat|lips|face|skin|tongue)\s+(?:swell|itch|close))"), _b_allergy),
    (re.compile(rf"(?i:have|has|got|with|suffer\s+from|diagnosed\s+with|i'm|im|i\s+am|a|recovering\s+from|living\s+with)\s+(?:(?i:a|an|the|mild|severe|bad|chronic)\s+)?(?P<v>(?i:{_CONDITIONS_EN}))\b"), _b_condition),
    (re.compile(rf"^(?P<v>(?i:{_CONDITIONS_EN}))(?:\s+(?i:day|here|flare|flaring))?\b"), _b_condition),
    (re.compile(rf"(?i:i'm|im|i\s+am)\s+(?:\d+\s+(?i:weeks|months)\s+)?(?P<v>(?i:pregnant))"), _b_condition),
    (re.compile(r"(?i:on|take|taking|prescribed|started|takes)\s+(?:(?i:\d+(?:\.\d+)?\s*(?:mg|mcg|ml|iu)|a\s+daily|daily|one|two|half\s+a)\s+(?:(?i:of)\s+)?)?(?P<v>(?:[A-Za-z]+\s+){0,2}[A-Za-z]+)(?=\s|$|[,.;!?])"), _b_medication),
    # food
    (re.compile(rf"(?i:i'm|im|i\s+am|went|gone|go|going|been|doing|eat|do|strictly|mostly|fully)\s+(?:(?i:a|an|mostly|fully|strictly|now)\s+)?(?P<v>(?i:{_DIETS_EN}))\b"), _b_diet),
    (re.compile(rf"^(?P<v>(?i:{_DIETS_EN}))\b"), _b_diet),
    (re.compile(rf"(?i:on\s+an?)\s+(?P<v>(?i:{_DIETS_EN}))\s+(?i:diet)"), _b_diet),
    (re.compile(r"(?i:keep)\s+(?P<v>(?i:kosher|halal))"), _b_diet),
    (re.compile(r"(?i:don't|dont|do\s+not|can't|cant|cannot|never|won't|no\s+longer)\s+(?i:eat|drink|touch|tolerate|handle|deal\s+with|digest|have)\s+(?P<v>(?!any\b|a\b|an\b|much\b|time\b|kids\b|children\b|pets?\b)[^.;!?]+)"), _b_restriction),
    (re.compile(r"(?i:avoid|avoiding|cut\s+out|given\s+up|gave\s+up|off)\s+(?P<v>[^.;!?]+)"), _b_restriction),
    (re.compile(r"(?P<v>[a-z][a-z ]{2,20}?)\s+(?i:is\s+my\s+nemesis|doesn't\s+agree\s+with\s+me|makes\s+me\s+sick)"), _b_restriction),
    # likes and dislikes
    (re.compile(rf"(?i:love|adore|enjoy|like|prefer|into|obsessed\s+with|addicted\s+to|hooked\s+on|fan\s+of|passionate\s+about|crazy\s+about)\s+(?:(?i:a\s+good|good|a)\s+)?(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    (re.compile(r"(?P<v>[A-Za-z][\w' -]{1,30}?)\s+(?i:is\s+my\s+(?:favou?rite|comfort|guilty\s+pleasure)|is\s+life|is\s+my\s+jam|is\s+my\s+thing)"), _b_like("user.likes")),
    (re.compile(r"(?i:fave|favou?rite|guilty\s+pleasure)\s+(?:[a-z ]{0,15}\s+)?(?i:is|has\s+to\s+be|:)\s+(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    (re.compile(r"(?i:anything\s+by|anything\s+with)\s+(?P<v>[A-Z][^,.;!?]+?),?\s+(?i:i'm\s+there|count\s+me\s+in)"), _b_like("user.likes")),
    (re.compile(r"(?i:hate|dislike|detest|loathe|can't\s+stand|cant\s+stand|cannot\s+stand|not\s+a\s+(?:big\s+|huge\s+)?fan\s+of|not\s+into|can't\s+bear)\s+(?P<v>[^,.;!?]+)"), _b_like("user.dislikes")),
    (re.compile(r"(?i:don't|dont|do\s+not|really\s+don't)\s+(?i:like|enjoy|love)\s+(?P<v>[^,.;!?]+)"), _b_like("user.dislikes")),
    (re.compile(r"(?i:find)\s+(?P<v>[a-z ]+?)\s+(?i:unbearable|boring|annoying|awful|exhausting|overrated)"), _b_like("user.dislikes")),
    # contact
    (re.compile(rf"(?i:prefer|rather\s+get|rather|use|reach\s+me\s+(?:on|via|by)|contact\s+me\s+(?:on|via|by)|get\s+me\s+(?:on|via)|message\s+me\s+on|text\s+me\s+on|ping\s+me\s+on)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    (re.compile(rf"^(?P<v>(?i:{_CHANNELS}))(?:\s+(?i:for\s+[a-z ]+|please|only|pls))"), _b_contact),
    (re.compile(rf"(?P<v>(?i:{_CHANNELS}))\s+(?:(?i:on\s+\w+\s+)?)(?i:are|is|work|works)\s+(?:(?i:the\s+)?(?:fastest|best|easiest|better))"), _b_contact),
    (re.compile(rf"(?i:please|pls|just)\s+(?P<v>(?i:email|text|call|message|dm|whatsapp))\s+(?i:me)\b(?!\s+(?:[A-Z]|(?i:by|as)\b))"), _b_contact),
    (re.compile(r"(?P<v>(?i:no\s+calls|don't\s+call\s+me|avoid\s+calling\s+me|no\s+texts|don't\s+text\s+me|don't\s+ring\s+me)(?:\s+(?:on|after|before|during)\s+[\w ]+)?)"), _b_contact),
    (re.compile(rf"(?i:a|the)\s+(?P<v>(?i:phone\s+call|call|email|text))\s+(?i:beats|is\s+better|works\s+better)"), _b_contact),
    (re.compile(r"(?P<v>(?i:messages|texts|email|emails)\s+only)"), _b_contact),
    (re.compile(r"(?i:prefer|rather)\s+(?:(?i:you|it\s+if\s+you|that\s+you|people)\s+)?(?P<v>(?i:email|text|call|message|dm|whatsapp|ping))\s+(?i:me)\b"), _b_contact),
    (re.compile(r"(?i:just|only)\s+(?P<v>(?i:text|email|message|dm))(?:\s+(?i:me))?(?=\s*$|[,.;!?])"), _b_contact),
    (re.compile(r"^(?i:pls|please|plz|just)\s+(?P<v>(?i:text|email|message|dm|whatsapp|call))\b(?!\s+me\s+[A-Z])(?!\s+(?:me\s+)?(?:by|as)\b)"), _b_contact),
    (re.compile(r"(?P<v>(?i:don't|dont|do\s+not|never)\s+(?i:call|ring|phone)(?:\s+(?i:me))?)(?=\s*$|[,.;!?])"), _b_contact),
    (re.compile(r"^(?P<v>(?i:text|email|e-mail|call|message|dm|ping|whatsapp|slack|signal))\s+(?i:me)\b(?!\s+(?:[A-Z]|(?i:by|as)\b))"), _b_contact),
    (re.compile(rf"(?i:best|easiest|fastest|quickest)\s+(?i:way\s+)?(?i:to\s+)?(?i:reach|contact|get\s+hold\s+of|get)\s+(?i:me)\s+(?i:is)\s+(?:(?i:via|on|by|through)\s+)?(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    (re.compile(r"(?P<v>(?i:don't|do\s+not|never|no|please\s+don't|pls\s+don't)\s+(?i:call|text|ring|message|email|ping|calls|texts|messages|phone\s+calls)(?:\s+(?i:me))?\s+(?i:before|after|on|during|at|past)\s+[\w: ]+)"), _b_contact),
    (re.compile(r"(?i:rather\s+get)\s+(?P<v>[^,.;!?]+?)\s+(?i:than)"), _b_contact),
    # personal
    (re.compile(rf"(?i:i'm|im|i\s+am)\s+(?P<v>{A.EN_NUMBER})(?=\s*(?:,|$|\.|!|\s+and\b|\s+(?i:years?|yrs?|y/o|yo)\b|\s+(?i:now|this\s+year|today)\b))"), _b_age),
    (re.compile(rf"(?:^|,\s*)(?P<v>\d{{1,2}}|(?i:{A.EN_NUMBER}))\s+(?i:years?\s+(?:old|young)|yrs?\s+old|y/o)"), _b_age),
    (re.compile(rf"(?i:birthday|b-day|bday)\s*(?:'s|\s+is|:)?\s*(?:(?i:on)\s+)?(?P<v>(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+[A-Za-z]+|[A-Za-z]+\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}/\d{{1,2}})"), _b_date("user.birthday")),
    (re.compile(r"(?i:my\s+birthday)\s+(?P<v>(?i:today|tomorrow))|(?i:it's\s+(?:actually\s+)?my\s+birthday)\s+(?P<w>(?i:today))"), lambda m, c: [_f("user.birthday", (m.group("v") or m.group("w")).lower())]),
    (re.compile(r"(?i:anniversary)\s+(?i:is|'s|:)\s+(?:(?i:on)\s+)?(?P<v>[^,.;!?]+?)(?=\s*(?:,|$|\.|!|\s+(?:so|and|dont|don't|if)\b))"), _b_date("user.anniversary")),
    (re.compile(r"(?i:got\s+married|were\s+married|married)\s+(?i:on|in)\s+(?P<v>[^,.;!?]+)"), _b_date("user.anniversary", type="wedding")),
    (re.compile(rf"(?i:i'm|im|i\s+am)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)(?=\s*,\s*\d)"), _b_name),
    (re.compile(rf"^(?i:name\s+is|name's|the\s+name's)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)"), _b_name),
    # pets
    (re.compile(rf"(?i:my|our|a|the|got\s+a|have\s+a|adopted\s+a|rescued\s+a)\s+(?P<sp>(?i:{_PET_WORD}))(?:\s*\(?(?i:a\s+\w+\s+)?)?(?:,?\s*(?:(?i:named|called|calling\s+(?:him|her|it)|named\s+(?:him|her|it)|is\s+called|is\s+named|'s\s+name\s+is)\s+)?(?P<v>[A-Z][a-z]+)\b)?(?:[^.]{{0,20}}?\b(?i:is)\s+(?P<age>\d{{1,2}})\b)?"), _b_pet),
    (re.compile(rf"(?i:a)\s+(?P<sp>(?i:{_PET_WORD}))\s+(?i:named|called)\s+(?P<v>[A-Z][a-z]+)"), _b_pet),
    (re.compile(rf"(?i:have|got|own|adopted|with|ive\s+got|i've\s+got)\s+(?i:two|three|four|2|3|4|a\s+couple\s+of)\s+(?P<sp>(?i:{_PET_WORD}))(?:\s*[,:(-]\s*|\s+(?i:named|called)\s+)(?P<names>[A-Za-z][a-z]+(?:(?:\s*,\s*|\s+and\s+|\s*&\s*)[A-Za-z][a-z]+)+)"), _b_pets),
    # people
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+named|\s+called|,)?\s+{_PERSON}?"), _b_person),
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}(?:'s|s)?\s+(?i:name\s+is|name's|is\s+called|is\s+named)\s+(?P<v>[A-Za-z][a-z]+)"), _b_person),
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}(?='s\s)"), _b_person),
    (re.compile(rf"(?i:i\s+have|i've\s+got|i\s+got|mom\s+of|mum\s+of|dad\s+of|father\s+of|mother\s+of)\s+(?i:a|an|one|two|three|four|\d)\s+(?:(?P<age>\d{{1,2}})[- ](?i:year|yr|month)s?[- ](?i:old)\s+)?{_PEOPLE_ROLE}\b"), _b_person),
    (re.compile(rf"^{_PEOPLE_ROLE}(?:'s\s+name\s+is|\s+is\s+called|\s+named)\s+{_PERSON}"), _b_person),
    (re.compile(rf"(?i:grandma|grandpa|granny|nana|aunt|uncle)\s+(?P<v>[A-Z][a-z]+)"), lambda m, c: _b_person(m, c) if False else
     [_f("user.relationship." + ("grandmother" if re.match(r"(?i)gran|nana", m.group()) else "grandfather"), m.group("v"), **_person_attrs(c[m.end():]))]
     if re.match(r"(?i)grand|nana|granny", m.group()) else []),
    # plans
    (re.compile(rf"(?P<v>(?i:flying|fly|travell?ing|heading|going|off|driving|moving|leaving|visiting)\s+(?i:to|there|back\s+to)?\s*[^,.;!?]*)"), _b_plan),
    (re.compile(r"(?P<v>(?i:my\s+)?(?i:flight|trip|wedding|interview|exam|surgery|appointment|conference|marathon|race|move|holiday|vacation)\b[^,.;!?]*)"), _b_plan),
    (re.compile(r"(?P<v>(?i:starting|start|booked|getting\s+married|taking|sitting|attending|running|having)\s+[^,.;!?]+)"), _b_plan),
    (re.compile(r"(?P<v>(?i:parent-teacher\s+conference|dentist|doctor's\s+appointment|job\s+interview|going\s+camping|camping)[^,.;!?]*)"), _b_plan),
]

# Rules that need the clause's own subject to be the user (or dropped). Plans, pets and people use
# their own anchors ("my dog", "my flight").
_EN_SUBJECT_FREE = {_b_person, _b_pet, _b_pets}
# Statements people make about themselves without "I" in front; checked with `_no_one_else`.
_EN_LOOSE = {_b_education, _b_allergy, _b_allergy_noun, _b_condition, _b_diet, _b_language, _b_former, _b_employer,
             _b_medication, _b_restriction}
_ROLE_IN_PREFIX = re.compile(rf"(?i)\b(?:my|our)\s+{_PEOPLE_ROLE}(?:'s)?\b")


def _is_habit_clause(clause: str) -> bool:
    if re.search(r"(?i)\b(?:on|at|most|every)\s+weekends\b|\bweekend\s+mornings\b|\bevery\s+(?:morning|evening|night)\b", clause):
        return True
    usual = re.search(r"(?i)\b(?:usually|normally|typically|always|generally|tend\s+to|religiously|every\s+single)\b", clause)
    if usual and (A.EN_TIME.search(clause) or A.weekdays(clause)):
        return True
    return bool(A.EN_FREQ.search(clause) or re.search(
        r"(?i)\b(?:every|each)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|"
        r"\b(?:mon|tue|wed|thu|fri|sat|sun)/(?:mon|tue|wed|thu|fri|sat|sun)|\bmost\s+weekends\b|\b(?:satur|sun)day\s+mornings\b|"
        r"\bi\s+(?:cycle|bike|walk|run|jog|swim)\s+to\s+work\b|\bevery\s+(?:saturday|sunday|monday|tuesday|wednesday|thursday|friday)\b", clause))


_HABIT_EN = re.compile(
    r"(?P<v>(?:(?i:i)\s+)?(?:(?i:usually|always|normally|try\s+to|like\s+to)\s+)?(?:[a-z]+(?:\s+[a-z']+){0,4}))")


def en_fact_candidates(clause: str) -> list[Candidate]:
    found: list[Candidate] = []
    taken: list[tuple[int, int, str]] = []
    for pattern, build in _EN_FACT_RULES:
        for match in pattern.finditer(clause):
            # A household move ("we just relocated to Toronto") is the user's move too.
            household = getattr(build, "__qualname__", "").startswith("_b_place") and re.search(
                r"(?i)(?:^|\s)(?:we|we've|we're|we\s+have|we\s+are)\s+(?:just\s+|finally\s+|recently\s+|now\s+)*$", clause[:match.start()])
            if build in (_b_pet, _b_pets) and not re.match(r"(?i)my|our", match.group()) and not (
                    _user_said(clause, match.start()) or _no_one_else(clause, match.start())):
                continue
            if build not in _EN_SUBJECT_FREE and not household and not _user_said(clause, match.start()) and not (
                    build in _EN_LOOSE and _no_one_else(clause, match.start())):
                continue
            candidates = build(match, clause)
            if not candidates:
                continue
            family = candidates[0].memory_key.split(".")[1]
            span = match.span()
            if any(span[0] < end and start < span[1] and fam in (family, "*") for start, end, fam in taken):
                continue
            taken.append((*span, family))
            found.extend(candidates)
    if any(c.memory_key == "user.contact_preference" for c in found):
        found = [c for c in found if not (c.memory_key == "user.likes" and re.search(rf"(?i)\b(?:{_CHANNELS})\b", c.value))]
    if _is_habit_clause(clause) and not any(not c.memory_key.startswith(("user.relationship", "user.pet")) for c in found):
        body = re.sub(r"(?i)^(?:i\s+)?", "", clause)
        if _user_said(clause, 0):
            found.extend(_b_habit(re.match(r"(?P<v>.*)", body), clause))
    return found
