"""Health: allergies, conditions, medications (dose, schedule)."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import (
    _ADV,
    _I,
    _IM,
    _LIST,
    Candidate,
    _c,
    _f,
    _items,
)
from layers.formation.extractor.text import is_request, tidy_value

_CONDITIONS = (r"(?:type\s+[12]\s+diabetes|diabetes|asthma|hypertension|high\s+blood\s+pressure|celiac\s+disease|"
               r"coeliac\s+disease|epilepsy|heart\s+disease|a\s+heart\s+condition|migraines|gout|arthritis|"
               r"depression|an\s+anxiety\s+disorder|adhd|ibs|lactose\s+intolerance|kidney\s+disease|anemia|"
               r"sleep\s+apnea|high\s+cholesterol)")


_ADJ_CONDITIONS = {"diabetic": "diabetes", "pregnant": "pregnancy", "lactose intolerant": "lactose intolerance",
                   "gluten intolerant": "gluten intolerance", "asthmatic": "asthma", "epileptic": "epilepsy"}


_CONDITIONS_EN = (r"type\s+[12]\s+diabetes|diabetes|asthma|hypertension|high\s+blood\s+pressure|celiac\s+disease|"
                  r"coeliac\s+disease|epilepsy|heart\s+disease|migraines?|gout|arthritis|depression|anxiety|adhd|"
                  r"autism|ibs|crohn'?s(?:\s+disease)?|insomnia|sleep\s+apnea|high\s+cholesterol|hay\s?fever|eczema|"
                  r"psoriasis|pcos|endometriosis|lupus|fibromyalgia|hypothyroidism|hyperthyroidism|anemia|anaemia|"
                  r"chronic\s+[a-z]+\s+pain|chronic\s+pain|back\s+pain|a\s+broken\s+[a-z]+|broken\s+[a-z]+|tinnitus|"
                  r"glaucoma|ms|multiple\s+sclerosis|parkinson'?s|copd|bipolar(?:\s+disorder)?|ocd|ptsd|acid\s+reflux|"
                  r"reflux|gerd|a\s+bad\s+back|bad\s+back|bad\s+knees?|a\s+bad\s+knee|sciatica|a\s+slipped\s+disc|kidney\s+stones|kidney\s+disease|a\s+heart\s+condition|scoliosis|vertigo|dyslexia|"
                  r"(?:an\s+)?(?:underactive|overactive)\s+thyroid|long\s+covid|hard\s+of\s+hearing|deaf|colou?r-?blind|visually\s+impaired|celiac|coeliac|diabetic|pregnant|asthmatic|epileptic|lactose\s+intolerant")


_COND_NORMAL = {"type 2": "type 2 diabetes", "type 1": "type 1 diabetes", "type 2 diabetic": "type 2 diabetes",
                "type 1 diabetic": "type 1 diabetes", "diabetic": "diabetes", "pregnant": "pregnancy", "asthmatic": "asthma", "epileptic": "epilepsy",
                "celiac": "celiac disease", "coeliac": "coeliac disease", "lactose intolerant": "lactose intolerance"}


_DRUG_SUFFIX = re.compile(
    r"(?:in|ol|ide|pam|ine|one|ate|statin|pril|sartan|mab|xib|vir|zole|pine|lam|fen|rin|lin|tan|done|ex|il|ium|pram|xetine|"
    r"azepam|olol|prazole|mycin|cillin|cycline|floxacin|triptan|tidine|afil|gliptin|formin|xaban|parin|"
    r"pills?|tablets?|inhaler|insulin|aspirin|vitamin\s+\w+|antidepressants?|antihistamines?|hrt|prep|meds|medication|medicine|"
    r"blood\s+thinners|beta[- ]blockers|statins|steroids|birth\s+control)$", re.I)


def _b_allergy(m, clause):
    out = []
    raw = re.sub(r"(?i)^(?:is|are)\s+|^(?:pretty\s+much|basically|literally|almost|most)\s+(?:all\s+)?", "", tidy_value(m.group("v")))
    raw = re.sub(r"(?i)\s+(?:last\s+(?:year|month|week)|yesterday|as\s+a\s+(?:kid|child|baby)|since\s+\w+)\b.*$", "", raw)
    for item in _items(raw):
        item = re.sub(r"^(?:to\s+)?", "", item)
        if item and not re.search(r"(?i)monday|work|nonsense|people|anything|something|everything|stuff|mornings?|effort|adulting|responsibilit|exercise|homework|housework|sunlight|life\b", item):
            out.append(_f("user.allergies", item))
    return out


def _b_allergy_noun(m, clause):
    # "I use an EpiPen for my bee allergy": the allergen is what stands right before "allergy".
    value = re.split(r"(?i)\b(?:my|for|of|with|to|an?|the|i|have|got|has)\b", tidy_value(m.group("v")).lower())[-1].strip()
    value = re.sub(r"^(?:an?|severe|mild|bad|serious|my)\s+", "", value)
    # "I don't have any allergies", "zero allergies", "it's an allergy thing": no allergen named.
    if re.search(r"(?i)\b(?:no|any|zero|none|don't|dont|not|never|without)\b|'s\s|^(?:s|it|its|that|this)\b", value) or \
            re.search(r"(?i)\b(?:no|any|zero|don't\s+have\s+any)\s+$", clause[:m.start("v")]):
        return []
    if value in ("my", "your", "his", "her", "no", "any", "the", "food", "seasonal", "some", "an", "a", "bad", "severe", "mild", "slight",
                 "serious", "minor", "major", "life-threatening", "deadly", "little"):
        return []
    return [_f("user.allergies", value)] if value and len(value.split()) <= 3 else []


# "my deaf nephew", "my diabetic cat", "our asthmatic son": a condition said as the adjective of a person or an
# animal is theirs.
_SOMEONE_WITH_IT = re.compile(
    r"(?i)\s+(?:[a-z]+\s+)?(?:nephew|niece|cousin|son|daughter|kid|kids|child|children|boy|girl|baby|toddler|brother|sister|"
    r"mum|mom|mother|dad|father|parents?|grandma|grandpa|gran|nan|grandmother|grandfather|uncle|aunt|auntie|husband|wife|partner|"
    r"boyfriend|girlfriend|friend|mate|neighbou?r|colleague|coworker|boss|student|pupil|patient|client|cat|dog|puppy|kitten|pet|"
    r"rabbit|horse)s?\b")


def _b_condition(m, clause):
    if _SOMEONE_WITH_IT.match(clause, m.end()):
        return []
    raw = tidy_value(m.group("v")).lower()
    raw = re.sub(r"^an?\s+", "", raw)
    value = _COND_NORMAL.get(re.sub(r"\s+", " ", raw), raw)
    if value == "lactose intolerance":
        return [_f("user.food_restrictions", "lactose")]
    if value == "type 2 diabetic":
        value = "type 2 diabetes"
    out = [_f("user.health_conditions", value)]
    # "asthma and eczema": a list of conditions shares the verb.
    rest = clause[m.end():]
    more = re.match(rf"(?i)\s*(?:,|and|&)\s*(?:an?\s+)?(?P<c>{_CONDITIONS_EN})\b", rest)
    while more:
        out.append(_f("user.health_conditions", _COND_NORMAL.get(more.group("c").lower(), more.group("c").lower())))
        rest = rest[more.end():]
        more = re.match(rf"(?i)\s*(?:,|and|&)\s*(?:an?\s+)?(?P<c>{_CONDITIONS_EN})\b", rest)
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
              "tool", "wool", "evil", "april", "council", "until", "film", "hill", "skill", "will", "still", "till",
              # everyday words with a drug's "-ide" ending: "learning Italian on the side", "on the ride home"
              "side", "inside", "outside", "ride", "guide", "pride", "tide", "bride", "wide", "slide", "decide"}


def _b_medication(m, clause):
    # "I'm not on any meds", "no medication": a denial names no drug.
    if re.match(r"(?i)(?:any|no|none)\b", m.group("v")) or re.search(r"(?i)\b(?:not|never|no\s+longer)\s+(?:\w+\s+)?$", clause[:m.start()]):
        return []
    drug = re.split(r"(?i)\s+(?:every|daily|twice|once|at|in|for|when|before|after|each|since|so|because|as|to|and|now|three|a\s+day|most|some|on|nightly)\b", tidy_value(m.group("v")))[0]
    drug = re.sub(r"^(?:a|an|the|my|some)\s+", "", drug, flags=re.I)
    # "I'm on antidepressants, sertraline, 100mg": the named drug after its class.
    if re.fullmatch(r"(?i)antidepressants?|antihistamines?|meds|medication|medicine|pills|tablets|painkillers|antibiotics|steroids", drug or ""):
        named = re.search(r",\s*(?P<d>[A-Za-z]+(?:in|ol|ide|pam|ine|one|ate|statin|pril|sartan|mab|zole|pine|lam|fen|done|xetine|pram))\b", clause[m.end():])
        if named:
            drug = named.group("d")
    # "I'm on the pill": the contraceptive pill, the one pill said with "the".
    if drug and drug.lower() == "pill" and re.search(r"(?i)\bon\s+the\s+pill\b", clause):
        return [_f("user.medications", "pill")]
    # "pineapple on pizza is fine": a drug's name holds no verb.
    if not drug or not _DRUG_SUFFIX.search(drug) or len(drug.split()) > 4 or drug.lower().split()[-1] in _NOT_DRUGS \
            or re.search(r"(?i)\b(?:is|are|was|were|isn't|aren't)\b", drug):
        return []
    dose = re.search(r"(?i)\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ml|g|iu|units?)\b|\b(?:half|one|two)\s+(?:a\s+)?(?:pill|tablet)s?\b", clause) \
        or re.match(rf"\s*(?P<d>{_BARE_DOSE})", clause[m.end():])
    schedule = A.frequency(clause) or (re.search(r"(?i)\bwhen\s+[a-z ]{3,20}$|\bat\s+night\b|\bin\s+the\s+mornings?\b|\bbefore\s+bed\b", clause) or [None])[0] \
        or when_taken(clause[m.end():])
    return [_f("user.medications", drug, dose=(dose.groupdict().get("d") or dose.group()) if dose else None, schedule=schedule)]


def _b_my_pregnancy(m, clause):
    return [_f("user.health_conditions", "pregnancy")]


def _b_dose_of(m, clause):
    drug = m.group("v")
    if drug.split()[0] in ("The", "My", "It", "This", "That"):
        return []
    schedule = A.frequency(clause) or when_taken(clause[m.end():])
    return [_f("user.medications", drug, dose=tidy_value(m.group("dose")), schedule=schedule)]


# A dose as said after a drug: "50mg", "75 mcg", "2 units".
_DOSE = r"\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ml|iu|units?)\b"
# A number with no unit right after a drug and before when it is taken is its dose: "metformin 500 twice daily".
_BARE_DOSE = r"\d{2,4}(?=\s+(?:twice|once|three\s+times|daily|nightly|every|a\s+day|in\s+the|at|with|before|after)\b)"


def _b_dose_changed(m, clause):
    """"doc bumped my sertraline up to 100mg", "they've upped my propranolol to 40mg": the drug, at its new dose."""
    drug = m.group("v")
    # "my" says whose drug it is, whoever changed the dose (the caller checks no subject: rules_en _EN_SUBJECT_FREE).
    if drug.lower() in _NOT_DRUGS or not _DRUG_SUFFIX.search(drug) or not re.search(r"(?i)\bmy\b", m.group()):
        return []
    rest = clause[m.end():]
    return [_f("user.medications", drug, dose=tidy_value(m.group("dose")), schedule=A.frequency(clause) or when_taken(rest))]


def _b_drug_not_working(m, clause):
    """"the antihistamines aren't touching it", "my inhaler isn't helping": a drug the user takes, said by how it works."""
    drug = tidy_value(m.group("v"))
    if drug.lower() in _NOT_DRUGS or not _DRUG_SUFFIX.search(drug):
        return []
    return [_f("user.medications", drug)]


def _b_named_drug(m, clause):
    drug = m.group("v")
    if drug.split()[0] in ("The", "My", "It", "This", "That", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"):
        return []
    rest = clause[m.end():]
    # "started on Monday", "put on Spotify": a capitalised word is a drug only with a dose, a drug's
    # ending or talk of a diagnosis or prescription around it.
    if not (_DRUG_SUFFIX.search(drug) or re.match(rf"(?i)\s*,?\s*{_DOSE}", rest)
            or re.search(r"(?i)diagnos|prescri|\bdoctor|psychiatrist|\bgp\b|\bmeds\b|medication", clause)):
        return []
    dose = re.match(rf"(?i)\s*,?\s*(?P<d>{_DOSE})", rest) or re.search(rf"(?i),\s*(?P<d>{_DOSE})", rest)
    schedule = A.frequency(rest) or when_taken(rest)
    return [_f("user.medications", drug, dose=dose.group("d") if dose else None, schedule=schedule)]


# When a drug is taken, as said after it: "every morning with my oatmeal", "first thing before breakfast", "before runs",
# "at 9pm daily", "twice a day with meals".
_WHEN_TAKEN = re.compile(
    r"(?i)(?:(?:first\s+thing\s+)?(?:before|after|with)\s+(?:breakfast|lunch|dinner|meals|food|bed|runs?|workouts?|exercise|flights?)|"
    r"first\s+thing(?:\s+in\s+the\s+morning)?|at\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?(?:\s+(?:daily|every\s+day|each\s+day))?|"
    r"around\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?|every\s+(?:other\s+)?(?:morning|evening|night|day|week|month)|(?:once|twice|three\s+times)\s+(?:a\s+(?:day|week|month)|daily|weekly|nightly)"
    r"(?:\s+with\s+(?:meals|food))?|daily|nightly|weekly|monthly|mornings|at\s+night|in\s+the\s+(?:morning|evening)s?|at\s+bedtime|"
    # taken only when needed: "when I need it", "as needed", "if I need to"
    r"when\s+(?:i\s+)?need(?:ed)?(?:\s+(?:it|them|to))?|as\s+(?:and\s+when\s+)?needed|if\s+(?:i\s+)?need(?:ed)?(?:\s+(?:it|them|to))?|as\s+and\s+when)\b")


def when_taken(rest: str) -> str | None:
    said = _WHEN_TAKEN.search(rest)
    return tidy_value(said.group()) if said else None


def _b_drug_first(m, clause):
    """"sertraline, 50mg, every morning", "levothyroxine 75mcg swallowed first thing", "on metformin: 500 twice a day":
    a drug's name (by its ending) with the dose or the schedule said right after it."""
    drug = m.group("v")
    if drug.lower() in _NOT_DRUGS or not _DRUG_SUFFIX.search(drug):
        return []
    rest = clause[m.end():]
    dose = re.match(rf"(?i)\s*[,:]?\s*(?P<d>{_DOSE}|\d{{2,4}}(?=\s+(?:twice|once|daily|every|a\s+day|in\s+the|at)\b))", rest)
    schedule = when_taken(rest)
    if not dose and not schedule:
        return []
    return [_f("user.medications", drug, dose=tidy_value(dose.group("d")) if dose else None, schedule=schedule)]


def _b_shot(m, clause):
    schedule = A.frequency(clause) or when_taken(clause[m.end():])
    return [_f("user.medications", tidy_value(m.group("v")), schedule=schedule)] if schedule else []


def _b_medication_list(m, clause):
    out = []
    for part in re.split(r"\s*(?:,|&|\band\b|\bplus\b|\+)\s*", m.group("v")):
        part = tidy_value(part)
        if part and _DRUG_SUFFIX.search(part.split()[0]) and part.lower().split()[0] not in _NOT_DRUGS:
            dose = re.search(r"(?i)\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ml|iu)\b", part)
            out.append(_f("user.medications", part.split()[0], dose=dose.group() if dose else None))
    return out


def _legacy_allergy_at(confidence: float):
    def build(match: re.Match) -> list[Candidate]:
        return [_c("user.allergies", item, confidence) for item in _items(match.group("v")) if item not in ("something", "it")
                and not re.search(r"(?i)effort|adulting|responsibilit|exercise|homework|housework|sunlight|mondays?\b|\bwork\b|nonsense|people", item)]
    return build


_legacy_allergy = _legacy_allergy_at(1.0)
_legacy_allergy_hedged = _legacy_allergy_at(0.6)


def _legacy_health(match: re.Match) -> list[Candidate]:
    return [_c("user.health_conditions", re.sub(r"^an?\s+", "", tidy_value(match.group("v")).lower()))]


def _legacy_health_adj(match: re.Match) -> list[Candidate]:
    value = _ADJ_CONDITIONS[re.sub(r"\s+", " ", match.group("v").lower())]
    # FACTS.md: lactose intolerance is a food restriction ("lactose"), not a condition.
    return [_c("user.food_restrictions", "lactose")] if value == "lactose intolerance" else [_c("user.health_conditions", value)]


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"{_IM}\s+{_ADV}(?:(?i:severely|very|mildly|deathly|highly)\s+)?(?i:allergic)\s+(?i:to)\s+{_LIST}"), _legacy_allergy),
    (re.compile(rf"(?:{_I}\s+(?i:have|got)|(?i:i've\s+got))\s+(?i:an?\s+)?(?:(?i:severe|mild|bad)\s+)?(?P<v>[\w -]+?)\s+(?i:allergy|allergies)\b"), _legacy_allergy),
    (re.compile(rf"(?:^|\b)(?i:i\s+think\s+i'm|i\s+might\s+be|i\s+may\s+be|i\s+suspect\s+i'm)\s+(?i:allergic)\s+(?i:to)\s+{_LIST}"), _legacy_allergy_hedged),
    (re.compile(rf"(?:{_I}\s+(?i:have|suffer\s+from|was\s+diagnosed\s+with)|(?i:i've\s+got))\s+(?P<v>(?i:{_CONDITIONS}))\b"), _legacy_health),
    (re.compile(rf"{_IM}\s+{_ADV}(?P<v>(?i:diabetic|pregnant|lactose\s+intolerant|gluten\s+intolerant|asthmatic|epileptic))\b"), _legacy_health_adj),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?i:my\s+)?(?i:allergy|allergies)\s+(?:(?i:is|are)\s+)?(?i:to)\s+{_LIST}"), _b_allergy),
    # "I react to penicillin", "I'm anaphylactic to peanuts", "I carry an epipen for peanuts": an allergy by its reaction.
    (re.compile(rf"(?i:react|reacts|reacted\s+badly|anaphylactic)\s+(?i:to)\s+{_LIST}"), _b_allergy),
    # "I carry an EpiPen because of shellfish", "epipen in case of wasps": the allergen the pen is carried for.
    (re.compile(rf"(?i:epi-?pens?)\s+(?:(?i:everywhere|with\s+me|on\s+me|always)\s+)?(?i:for|because\s+of|in\s+case\s+of|due\s+to)\s+(?:(?i:my|the)\s+)?{_LIST}"), _b_allergy),
    # "my eyes itch like mad around cats", "I sneeze my head off near dogs": the body reacting to what is near.
    (re.compile(r"(?i:eyes|nose|skin|throat|face|lips)\s+(?i:itch|itches|swell|swells|stream|streams|burn|burns|close|closes)\s+(?:(?i:up)\s+)?(?:(?i:like\s+\w+|so\s+bad|badly|instantly|straight\s+away)\s+)?(?i:around|near|from|with|whenever\s+i'm\s+near)\s+(?P<v>[a-z]+(?:\s+[a-z]+)?)"), _b_allergy),
    (re.compile(rf"(?i:allergic|alergic|allergic|allerigc)\s+(?:(?i:af|as\s+hell|af\s+tbh|like\s+crazy)\s+)?(?i:to)\s+{_LIST}"), _b_allergy),
    # "dust mites trigger my asthma", "my IBS flared up": a condition the user calls theirs.
    (re.compile(rf"(?i:my)\s+(?P<v>(?i:{_CONDITIONS_EN}))\b(?!\s+(?i:is\s+(?:gone|over|cured)|went\s+away))"), _b_condition),
    (re.compile(r"(?P<v>[A-Za-z][a-z -]{1,25}?)\s+(?i:allergy|allergies)\b"), _b_allergy_noun),
    (re.compile(r"(?i:allergies|allergy)\s*(?:[:：]|\s-|-(?=\s))\s*(?P<v>[^.;!?]+)"), _b_allergy),
    (re.compile(r"(?i:rash|hives|react\s+badly|reaction)\s+(?i:from|to)\s+(?P<v>[a-z ]+)"), _b_allergy),
    (re.compile(r"(?P<v>[A-Za-z][\w-]+(?:\s[a-z]+)?)\s+(?i:gives?\s+me\s+(?:hives|a\s+rash|an\s+allergic\s+reaction)|makes?\s+me\s+(?:break\s+out|swell\s+up|itch|sneeze|wheeze)|makes?\s+my\s+(?:throat|lips|face|skin|tongue)\s+(?:swell|itch|close))"), _b_allergy),
    (re.compile(rf"(?:(?<='ve\s)|(?<=have\s))(?i:had)\s+(?:(?i:a|an|mild|severe|bad|chronic)\s+)?(?P<v>(?i:{_CONDITIONS_EN}))\b"), _b_condition),
    (re.compile(rf"(?i:have|has|got|get|getting|with|suffer\s+from|diagnosed\s+with|i'm|im|i\s+am|a|recovering\s+from|living\s+with)\s+(?:(?i:a|an|the|mild|severe|bad|chronic)\s+)?(?P<v>(?i:{_CONDITIONS_EN}))\b"), _b_condition),
    # "I get really bad hayfever in spring", "I have pretty severe asthma": a degree before the condition.
    (re.compile(rf"(?i:have|has|got|get|getting|suffer\s+from|suffer\s+with)\s+(?:(?i:really|pretty|quite|very|super|so|such)\s+)?(?:(?i:bad|severe|terrible|awful|horrible|mild|chronic|seasonal|crippling|debilitating)\s+)(?P<v>(?i:{_CONDITIONS_EN}))\b"), _b_condition),
    # "asthma here", "ugh, migraine day": a condition opening a clause stands alone ("vertigo is my fav" is a film).
    (re.compile(rf"(?:^|(?<=,)\s*|(?<=^ugh\s)|(?<=^argh\s)|(?<=^omg\s))(?P<v>(?i:{_CONDITIONS_EN}))(?:\s+(?i:day|here|flare|flaring))?\b"
                r"(?=\s*(?:$|[,.;!?:()-])|\s+(?i:day|here|flare|flaring|again|today|season|attack|attacks|episode|(?:is|are|'s)\s+(?:(?i:really|so|just|absolutely)\s+)?(?:killing|wrecking|destroying|acting|playing|bad|awful|brutal|flaring|back)|kicking|sucks|means|so|and|but|since|for|"
                # "gout flared up again", "IBS playing up today": the condition flaring is the user's own.
                r"flared|playing\s+up|acting\s+up|kicked\s+in|has\s+(?:flared|been\s+(?:bad|awful|terrible|brutal)))\b)"), _b_condition),
    (re.compile(r"(?i:i'm|im|i\s+am)\s+(?:\d+\s+(?i:weeks|months)\s+)?(?P<v>(?i:pregnant))"), _b_condition),
    # "20 weeks pregnant and craving sushi", "T1 diabetic here": the state opens the clause.
    (re.compile(r"^(?:(?i:about|almost|nearly|now|at|over)\s+)?\d{1,2}\s+(?i:weeks|months)\s+(?P<v>(?i:pregnant))\b"), _b_condition),
    (re.compile(r"^(?P<v>(?i:t[12]|type\s+[12])\s+(?i:diabetic))\b"), lambda m, c: [_f("user.health_conditions", m.group("v"))]),
    # "bee stings send me straight to the ER", "peanuts = hospital for me": what the body reacts to that badly.
    (re.compile(r"^(?P<v>[a-z][a-z ]{2,25}?)\s+(?i:sends?|put|puts|land|lands)\s+me\s+(?:(?i:straight|right)\s+)?(?i:in|into|to)\s+(?:(?i:the)\s+)?(?i:er|a&e|hospital|emergency|icu)\b"), _b_allergy),
    (re.compile(r"^(?P<v>[a-z][a-z ]{2,25}?)\s*=\s*(?i:hospital|the\s+er|a&e|epipen|anaphylaxis)\b"), _b_allergy),
    (re.compile(r"(?P<v>(?i:insulin|oxygen|steroid))[- ](?i:dependent|dependant)"), lambda m, c: [_f("user.medications", m.group("v").lower())]),
    # "I'm on propranolol for anxiety", "metformin for my type 2", "a low-FODMAP diet because of IBS": the reason is a condition.
    (re.compile(rf"(?i:for|because\s+of|bc\s+of|cause\s+of|due\s+to|thanks\s+to)\s+(?:(?i:my|an?)\s+)?(?:(?i:exercise|exercise-induced|seasonal|allergic|chronic|mild|bad)\s+)?(?P<v>(?i:type\s+[12](?:\s+diabetes)?|{_CONDITIONS_EN}))\b"), _b_condition),
    (re.compile(r"(?i:i'm|im|i\s+am)\s+(?i:an?\s+)?(?P<v>(?i:type\s+[12]\s+diabetic))"), _b_condition),
    (re.compile(r"(?i:diagnosed\s+with|suffer\s+from|suffering\s+from|i\s+have|i've\s+got)\s+(?P<v>[A-Z]{2,6})\b"), _b_condition),
    # "Diagnosed coeliac in 2020", "got diagnosed ADHD at 30": the condition right after the verb.
    (re.compile(rf"(?i:diagnosed|diagnosed\s+as)\s+(?:(?i:a|an)\s+)?(?P<v>(?i:{_CONDITIONS_EN}))\b"), _b_condition),
    # "halfway through my pregnancy", "my second pregnancy": pregnant now (FACTS.md).
    (re.compile(r"(?i:through|into|in)\s+(?i:my)\s+(?:(?i:first|second|third)\s+)?(?i:pregnancy)\b(?!\s+(?i:was|with))"), _b_my_pregnancy),
    # "doc bumped my sertraline up to 100mg", "upped my dose of lamotrigine to 200mg": a dose changed is a drug taken.
    (re.compile(rf"(?i:bumped|upped|increased|raised|lowered|dropped|reduced|cut|doubled|halved|changed|moved)\s+(?:(?i:me|my)\s+)?(?:(?i:dose\s+of)\s+)?(?P<v>[A-Za-z]{{4,}})\s+(?:(?i:up|down|back)\s+)?(?i:to)\s+(?P<dose>{_DOSE})"), _b_dose_changed),
    # "the antihistamines aren't touching it", "my inhaler isn't doing anything": the user's drug, by how it works.
    (re.compile(r"(?i:the|my)\s+(?P<v>[A-Za-z]{4,}(?:\s+(?i:inhaler|tablets|pills|spray|drops|cream))?)\s+(?i:aren't|are\s+not|isn't|is\s+not|don't|doesn't|do\s+not|does\s+not|are\s+barely|are|is|have\s+stopped|has\s+stopped|stopped)\s+(?:(?i:really|even|actually|just)\s+)?(?i:working|helping|touching\s+it|doing\s+(?:anything|much|a\s+thing|nothing)|cutting\s+it|making\s+a\s+dent)\b"), _b_drug_not_working),
    # "two puffs of salbutamol when I need it": a drug in lower case by its dose, known by a drug's ending.
    (re.compile(r"(?P<dose>(?:\d+(?:\.\d+)?|(?i:one|two|three|four|half\s+a))\s*(?i:puffs?|tablets?|pills?|capsules?|drops?|sprays?|mg|mcg|ml|units?))\s+(?i:of)\s+(?P<v>[a-z]{5,})\b"),
     lambda m, c: _b_dose_of(m, c) if _DRUG_SUFFIX.search(m.group("v")) and m.group("v") not in _NOT_DRUGS else []),
    # "two puffs of Symbicort twice a day", "10mg of Lexapro every morning": the drug by its dose.
    (re.compile(r"(?P<dose>(?:\d+(?:\.\d+)?|(?i:one|two|three|four|half\s+a))\s*(?i:puffs?|tablets?|pills?|capsules?|drops?|sprays?|mg|mcg|ml|units?))\s+(?i:of)\s+(?P<v>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b"), _b_dose_of),
    # "started on Vyvanse, 30mg in the mornings", "was put on Lexapro": a named drug after being started on it.
    (re.compile(r"(?i:started\s+on|put\s+on|prescribed|started\s+taking)\s+(?P<v>[A-Z][a-z]{3,}(?:\s+[A-Z][a-z]+)?)\b"), _b_named_drug),
    # "sertraline, 50mg, every morning", "doc has me on metformin: 500 twice a day", "levothyroxine 75mcg first thing".
    (re.compile(r"(?:^|(?<=\bon\s)|(?<=:\s)|(?<=\bmy\s))(?P<v>(?:(?i:birth\s+control)|[A-Za-z][a-z]{4,})(?:\s+(?i:inhaler|tablets?|pills?|patch))?)(?=\s*[,:]?\s*(?:\d|(?i:at)\s+\d|(?i:every|once|twice|daily|nightly|first\s+thing|before|after|with)\b))"), _b_drug_first),
    # "started lisinopril last month", "just started sertraline": a drug started, in lower case.
    (re.compile(r"(?i:started|starting|began|prescribed)\s+(?:(?i:on|taking)\s+)?(?P<v>[a-z]{5,}(?:in|ol|ide|pam|ine|one|ate|statin|pril|sartan|mab|zole|pine|lam|fen|done|xetine|pram|formin|triptan|afil))\b"), _b_named_drug),
    # "I get a B12 shot once a month", "weekly allergy shots", "my Ozempic injection on Sundays": a jab on a schedule.
    (re.compile(r"(?P<v>(?:[A-Z][\w-]*|(?i:allergy|b12|vitamin\s+[a-z]\d*|insulin|testosterone|hormone|iron))\s+(?i:shots?|injections?|jabs?|infusions?))\b"),
     _b_shot),
    # "my meds: metformin and lisinopril": a heading, then the drugs.
    (re.compile(r"^(?:(?i:my)\s+)?(?i:meds|medications?|prescriptions?|tablets)\s*[:=–-]\s*(?P<v>[^.;!?]+)"), _b_medication_list),
    # "daily dose of vitamin D", "a dose of amoxicillin": the drug by its dose.
    (re.compile(r"(?i:dose\s+of)\s+(?P<v>(?:[A-Za-z]+\s+){0,1}[A-Za-z]+)(?=\s|$|[,.;!?])"), _b_medication),
    (re.compile(r"\b(?i:on|take|taking|prescribed|started|takes|use|using|carry|inject|injecting)\s+(?:(?i:(?:a\s+)?\d+(?:\.\d+)?\s*(?:mg|mcg|ml|iu)|a\s+daily|daily|one|two|half\s+a)\s+(?:(?i:of)\s+)?)?(?P<v>(?:[A-Za-z]+\s+){0,2}[A-Za-z]+)(?=\s|$|[,.;!?])"), _b_medication),
]


# "I can't have anything with sesame, I'm allergic", "Anything with penicillin or amoxicillin, I react badly",
# "bees - I'm deathly allergic": the allergen first, the allergy said after it, in a part of its own.
_ALLERGEN_FIRST = re.compile(
    r"^(?:(?i:i\s+can't\s+have|i\s+cannot\s+have|i\s+can't\s+eat|i\s+can't\s+take|no)\s+)?(?:(?i:anything\s+with|any)\s+)?"
    r"(?P<x>(?![Ii]\b)(?!(?i:worries|problem|idea|way|thanks|thank|sorry|ok|okay|yes|yeah|yep|no|honestly|sadly|unfortunately|well|so|also|btw|"
    r"lol|haha|hmm|um|oh|ah|ugh|careful|heads|fyi|note|and|but|because|since|apparently|turns|actually)\b)[A-Za-z][a-z]+(?:(?:\s+|\s*,\s*|\s+(?:or|and)\s+)[a-z]+){0,4}?)\s*(?:,|-|—|–)\s*"
    r"(?:(?i:i'm|im|i\s+am)\s+(?:(?i:so|really|very|severely|seriously|deathly|super)\s+)?(?i:allergic)|(?i:i\s+react\s+badly|i\s+have\s+a\s+reaction))"
    r"\s*[.!]*$")


# "I can't eat shellfish, my throat swells up", "no peanuts - I break out in hives", "cats make my eyes swell up, I'm
# really allergic": a food refused or a thing named, then the body's allergic reaction to it.
_REACTION = (r"(?:my\s+(?:throat|lips|face|tongue|mouth|skin|eyes)\s+(?:swells?|closes?|itch(?:es)?|tingles?|blows?\s+up|puffs?\s+up)|"
             r"i\s+(?:swell\s+up|break\s+out|come\s+out\s+in\s+hives|get\s+hives|go\s+into\s+anaphyla\w+|need\s+my\s+epi-?pen|"
             r"end\s+up\s+in\s+(?:the\s+)?(?:hospital|er|a&e)|stop\s+breathing)|i(?:'ll|\s+will|'d|\s+would)\s+(?:literally\s+)?(?:end\s+up\s+in\s+(?:the\s+)?(?:hospital|er|a&e)|swell\s+up|die))")
_REFUSED_THEN_REACTION = re.compile(
    r"(?i)^(?:i\s+can't|i\s+cannot|i\s+can\s+not|can't)\s+(?:eat|have|touch|take)\s+(?:anything\s+with\s+|any\s+)?(?P<x>[a-z]+(?:\s+[a-z]+)?)\s*"
    rf"(?:,|-|—|–|;|\s+because|\s+cause|\s+or|\s+as)\s*(?:else\s+)?{_REACTION}\b")
_REACTION_THEN_ALLERGIC = re.compile(
    r"(?i)^(?P<x>[a-z]+(?:\s+[a-z]+)?)\s+(?:make|makes|give|gives|set\s+off|sets\s+off|trigger|triggers)\s+(?:me|my)\b[^,;.]{1,40}[,;—–-]\s*"
    r"(?:(?:pretty\s+sure|i\s+think|apparently|turns\s+out)\s+)?(?:i'm|im|i\s+am)\s+(?:(?:so|really|very|super|severely|seriously|deathly|properly)\s+)?allergic\b")


def allergen_first(sentence: str) -> str:
    """The sentence with its allergy said the usual way round ("I'm allergic to sesame"), or as it was."""
    stripped = sentence.strip()
    if is_request(stripped):
        return sentence  # "suggest a dessert without nuts, I'm allergic": text.drop_request_part reads the allergen
    match = _ALLERGEN_FIRST.match(stripped) or _REFUSED_THEN_REACTION.match(stripped) or _REACTION_THEN_ALLERGIC.match(stripped)
    return f"I'm allergic to {match.group('x')}" if match else sentence
