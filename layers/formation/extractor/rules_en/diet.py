"""Food: diet style and foods avoided or not tolerated."""
from __future__ import annotations

import re

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
from layers.formation.extractor.rules_en.health import _CONDITIONS_EN
from layers.formation.extractor.text import is_no_value, tidy_value

_DIETS_EN = (r"vegan|vegetarian|macrobiotic|veggie|pescatarian|pescetarian|flexitarian|keto|paleo|low[- ]carb|low[- ]fodmap|"
             r"gluten[- ]free|dairy[- ]free|plant[- ]based|carnivore|halal|kosher|raw\s+vegan|intermittent\s+fasting|whole30")


def _b_diet(m, clause):
    label = tidy_value(m.group("v")).lower()
    label = {"veggie": "vegetarian"}.get(label, label)
    if label.startswith("gluten"):
        return [_f("user.food_restrictions", "gluten")]
    if label.startswith("dairy"):
        return [_f("user.food_restrictions", "dairy")]
    return [_f("user.diet", label)]


_FOOD_GROUPS = (r"(?i)dairy|meat|red\s+meat|gluten|wheat|carbs|sugar|alcohol|booze|caffeine|coffee|spicy(?:\s+food)?|pork|beef|"
                r"fish|seafood|shellfish|eggs?|nuts|soy|onions?|garlic|fried\s+food|junk\s+food|fast\s+food|sweets")


# A reaction that is an allergy ("I can't eat shellfish, my throat swells up"): FACTS.md files it under allergies.
_ALLERGIC_REACTION = re.compile(r"(?i)throat\s+(?:swells|closes|gets\s+tight)|swells?\s+up|\bhives\b|anaphyla|epi-?pen|break\s+out\s+in|allergic\s+reaction")


# What rules a food out for the user: a diet they keep, a condition of eating, a pregnancy, a doctor's word ("bad back so
# no heavy lifting" rules out no food).
_REASON_BEFORE = re.compile(rf"(?i)\b(?:{_DIETS_EN})\b|\b(?:diabet\w*|coeliac|celiac|gout|ibs|crohn'?s|reflux|gerd|high\s+cholesterol|"
                            r"cholesterol|high\s+blood\s+pressure|hypertension|kidney\s+stones?|gallstones?|gastritis|pregnant)\b|"
                            r"\b(?:doctor|gp|dietitian|nutritionist)\b|\bflared\s+up\b")
# A food a diet rules out by its very name ("I'm vegan so no dairy or honey") says nothing the diet does not (FACTS.md
# labels the diet alone).
_IMPLIED_BY_DIET = {"vegan": r"meat|dairy|milk|cheese|butter|eggs?|honey|fish|seafood|gelatine?|animal\s+\w+",
                    "vegetarian": r"meat|fish|seafood|gelatine?|chicken|beef|pork", "pescatarian": r"meat|chicken|beef|pork"}


def _b_restriction(m, clause):
    out = []
    if _ALLERGIC_REACTION.search(clause):
        return [_f("user.allergies", item) for item in _items(m.group("v"))]
    # "I don't drink myself", "I don't drink": drinking, said alone, is alcohol.
    if re.search(r"(?i)\bdrink\s*$", m.string[:m.start("v")]) and re.match(r"(?i)\s*(?:myself|at\s+all|anymore|though|tho|really|lol|$)", m.group("v")):
        return [_f("user.food_restrictions", "alcohol")]
    if re.match(r"(?i)been\b", m.group("v")):
        return []  # "never have been (married)"
    # "gave up dairy about a year ago": how long ago is not part of the food.
    raw = re.split(r"(?i)\s+(?:after|before|at|during|for|in|on|since|anymore|these\s+days|at\s+all|because|as|about|around|roughly|almost|nearly|"
                   r"over\s+a|last|ago|a\s+(?:year|month|week|while)|\d+\s+(?:years?|months?|weeks?))\b", m.group("v"))[0]
    for item in _items(raw):
        item = re.sub(r"^(?:any|eating|drinking)\s+", "", item)
        # "I don't do dairy" is about food, "I don't do mornings" is not: after "do" only foods count.
        if re.search(r"(?i)\bdo\s+$", m.string[:m.start("v")]) and not re.fullmatch(_FOOD_GROUPS, item):
            continue
        if item and re.fullmatch(rf"(?i:{_CONDITIONS_EN})", item):
            continue  # "can't have gluten, coeliac": the second item is the reason, a condition
        if item and not re.search(r"(?i)anything|everything|much|that|this|it$|them$|breakfast|lunch|dinner|out|\bme\b|call|text|restrictions", item):
            out.append(_f("user.food_restrictions", item))
    return out


def _b_restriction_for_reason(m, clause):
    before = clause[:m.start()]
    # "I keep kosher, so no mixing meat and dairy": an act ruled out ("mixing") rules out no food on its own.
    if not _REASON_BEFORE.search(before) or is_no_value("user.food_restrictions", m.group("v").split()[0]):
        return []
    implied = "|".join(words for diet, words in _IMPLIED_BY_DIET.items() if re.search(rf"(?i)\b{diet}\b", before))
    return [c for c in _b_restriction(m, clause) if not (implied and re.match(rf"(?i)(?:{implied})\b", c.value))]


def _legacy_diet_label(match: re.Match) -> list[Candidate]:
    return [_c("user.diet", match.group("v").lower())]


def _legacy_diet_no(match: re.Match) -> list[Candidate]:
    return [_c("user.food_restrictions", item) for item in _items(match.group("v"))]


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"{_IM}\s+{_ADV}(?:(?i:a)\s+)?(?P<v>(?i:vegetarian|vegan|pescatarian))\b"), _legacy_diet_label),
    (re.compile(rf"{_I}\s+{_ADV}(?i:don't|do\s+not|never|can't|cannot)\s+(?i:eat|drink)\s+{_LIST}"), _legacy_diet_no),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?i:i'm|im|i\s+am|went|gone|go|going|been|doing|eat|eating|do|strictly|mostly|fully)\s+(?:(?i:a|an|mostly|fully|strictly|now)\s+)?(?P<v>(?i:{_DIETS_EN}))\b"), _b_diet),
    # "I'm a lifelong vegetarian", "I'm a strict vegan": how long or how strictly, then the diet.
    (re.compile(rf"(?i:i'm|im|i\s+am|been)\s+(?i:an?)\s+(?:(?i:lifelong|life-long|strict|proud|long-time|longtime|committed|devout|part-time|full-time|recovering|practising|practicing|lapsed-ish)\s+)(?P<v>(?i:{_DIETS_EN}))\b"), _b_diet),
    (re.compile(rf"^(?:(?i:strict|strictly|lifelong|proud|full[- ]time|mostly|fully)\s+)?(?P<v>(?i:{_DIETS_EN}))\b"), _b_diet),
    (re.compile(rf"(?i:on\s+an?|follow\s+an?|following\s+an?|stick\s+to\s+an?|doing\s+an?|trying\s+an?)\s+(?P<v>(?i:{_DIETS_EN}))\s+(?i:diet|thing|lifestyle|plan|regime|eating\s+plan)"), _b_diet),
    (re.compile(rf"(?i:as\s+an?|being\s+an?|i've\s+been|ive\s+been|been)\s+(?:(?i:strict|lifelong|long-time|mostly)\s+)?(?P<v>(?i:{_DIETS_EN}))\b"), _b_diet),
    (re.compile(r"(?i:keep)\s+(?P<v>(?i:kosher|halal))"), _b_diet),
    (re.compile(rf"(?i:a|an)\s+(?P<v>(?i:{_DIETS_EN}))\s+(?i:household|family|home|house)"), _b_diet),
    (re.compile(r"^(?i:no)\s+(?P<v>[a-z][a-z -]{2,20}?)\s+(?i:for\s+me)\b"), _b_restriction),
    (re.compile(r"(?i:don't|dont|do\s+not|never)\s+(?i:drink)(?P<v>(?:\s+myself|\s+at\s+all|\s+anymore)?\s*$)"), _b_restriction),
    # The thing ruled out is the subject of its own clause: "so mornings are off limits" cuts at "so".
    (re.compile(r"(?:^|(?<=,\s)|(?<=;\s)|(?<=\bso\s)|(?<=\band\s)|(?<=\bbut\s))(?P<v>[a-z][a-z ]{2,30}?)\s+(?i:are|is)\s+(?i:out|off\s+the\s+menu|off\s+limits|a\s+no-go)(?=\s*$|[,.;!]|\s+(?:for\s+me|too|as\s+well))"), _b_restriction),
    (re.compile(r"(?i:don't|dont|do\s+not|can't|cant|cannot|never|won't|no\s+longer)\s+(?i:eat|drink|touch|tolerate|handle|deal\s+with|digest|have|do)\s+(?P<v>(?!any\b|a\b|an\b|much\b|time\b|kids\b|children\b|pets?\b)[^.;!?]+)"), _b_restriction),
    (re.compile(r"(?i:avoid|avoiding|cut\s+out|given\s+up|gave\s+up|cut\s+down\s+on|steer\s+clear\s+of|stopped\s+eating|quit\s+eating|stopped\s+drinking|quit\s+drinking|no\s+longer\s+eat)\s+(?P<v>[^.;!?]+)"), _b_restriction),
    # "spicy food destroys my stomach so i avoid it": the food is the one the pronoun stands for.
    (re.compile(r"^(?P<v>[a-z][a-z ]{2,25}?)\s+(?:[a-z]+\s+){1,5}?(?:so\s+)?(?i:i\s+avoid\s+(?:it|them)|i\s+stay\s+away|i\s+can't\s+have\s+(?:it|them))"), _b_restriction),
    # "I'm off sugar", "been off booze": not "laid off", "day off", "off to Paris".
    (re.compile(r"(?i:i'm|im|i\s+am|been|gone|went|staying|stay)\s+(?:(?i:totally|completely|mostly)\s+)?(?i:off)\s+(?!to\b|from\b|work\b|today\b)(?P<v>[^.;!?]+)"), _b_restriction),
    # "gluten makes me really sick", "dairy gives me stomach cramps": what the body does not tolerate.
    # ("note that pork is off the table for me", "fyi gluten makes me ill": the words that hand the fact over are not the food.)
    (re.compile(r"(?<![\w'])(?:(?i:note|remember|know|bear\s+in\s+mind|keep\s+in\s+mind|fyi|btw|heads\s+up)\s+(?:(?i:that)\s+)?)?(?P<v>[a-z][a-z ]{2,20}?)\s+(?i:is\s+my\s+nemesis|doesn'?t\s+agree\s+with\s+me|upsets?\s+my\s+stomach|"
                r"makes?\s+me\s+(?:really\s+|so\s+|very\s+|super\s+)?(?:sick|ill|bloated|nauseous|throw\s+up)|"
                r"(?:wrecks?|destroys?|kills?|ruins?|messes\s+up|wreaks?\s+havoc\s+on)\s+my\s+(?:stomach|gut|tummy|insides)|"
                r"(?:is|are)\s+(?:off\s+the\s+menu|off\s+the\s+table|out|off\s+limits|a\s+no-go|a\s+no\s+go)\s+for\s+me|(?:is|are)\s+(?:off\s+limits|a\s+no-go)|"
                r"gives?\s+me\s+(?:a\s+|the\s+)?(?:stomach\s*(?:aches?|cramps|pains?)|heartburn|runs|bloating|gas|diarrh?o?ea|headaches?|migraines?|reflux))"), _b_restriction),
    # "dairy destroys me": said of oneself only when the food opens the clause ("a 7am buzz ruins me" is no food).
    (re.compile(r"^(?P<v>[a-z][a-z ]{2,20}?)\s+(?i:wrecks?|destroys?|kills?|ruins?|messes\s+up)\s+me\b"), _b_restriction),
    # "doing keto so no bread or rice", "gout flared up again so no more beer for me", "we keep halal, so nothing with pork":
    # a food ruled out as what follows from the user's diet or condition said before it.
    (re.compile(r"(?<=\bso\s)(?i:no|nothing\s+with|none\s+of)\s+(?:(?i:more|any)\s+)?(?P<v>[a-z][a-z -]{2,40}?)(?=\s*$|\s*[,.;!—–]|\s+(?i:for\s+me|please|pls|plz|anymore|at\s+all|lol|sadly|either)\b)"),
     _b_restriction_for_reason),
    (re.compile(r"(?i:intolerant\s+(?:to|of)|intolerance\s+to|sensitive\s+to|sensitivity\s+to)\s+(?P<v>[^,.;!?]+)"), _b_restriction),
    (re.compile(r"(?i:stay\s+away\s+from|steer\s+clear\s+of|keep\s+away\s+from)\s+(?P<v>[^,.;!?]+)"), _b_restriction),
]
