"""Likes and dislikes."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import (
    _ADV,
    _I,
    _IM,
    _OBJ,
    Candidate,
    _c,
    _f,
    _object,
    _phrase,
    taste_items,
    value_rule,
)

# An item that opens with a verb of the past or a filler starts a new predicate ("into birdwatching, bought
# binoculars and everything").
_LIST_ITEM = (r"(?![^,.;!?]*\b(?:me|my|you|your|i)\b)(?![a-z]+ly\b)(?![a-z]+ed\b)(?!(?:but|so|because|which|though|although|if|when|i|it|that|especially|like|love|hate|enjoy|no|not|never|lol|haha|obviously|hands|for|of|"
              r"bought|got|went|made|did|took|had|was|were|spent|found|saw|ate|ran|came|left|everything|anything|stuff|things|etc|"
              r"always|forever|definitely|hands|every|no|any|all|mostly|especially|too)\b)[A-Za-z][\w' -]{1,25}?")
_LIST_TAIL = re.compile(rf"(?:\s*,\s*{_LIST_ITEM})+(?:,?\s+(?:and|&|or)\s+{_LIST_ITEM})?(?=\s*(?:[.!;?]|$))")


# "I just love Mondays", "love sitting in traffic": a taste for what nearly everyone hates is irony where it
# can be told (FACTS.md joke_sarcasm), whatever opened the sentence.
_IRONIC = re.compile(r"(?i)(?:(?:being\s+stuck\s+in|sitting\s+in|doing(?:\s+my)?|filing(?:\s+my)?)\s+)?(?:mondays?|traffic|taxes|tax\s+returns?|"
                     r"paperwork|laundry|the\s+commute|commuting|queues|waiting\s+in\s+line)")


def ironic_taste(value: str) -> bool:
    return bool(_IRONIC.fullmatch(value.strip()))


_NUMBER_WORDS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
                 "fifty|hundred|a\\s+hundred|a\\s+dozen|dozens?|a\\s+few|a\\s+couple|half")
# An amount, alone or before what it counts ("six", "20 minutes", "a couple of hours"); "90s music" is a taste.
_AMOUNT = re.compile(rf"(?i)(?:about\s+|around\s+|maybe\s+)?(?:\d+(?![\d']*s\b)|{_NUMBER_WORDS})\b"
                     r"(?:\s*(?:or|to|-)\s*(?:\d+|[a-z]+))?(?:\s+(?:of\s+)?[a-z]+){0,2}\s*$")


def _b_like(key):
    def build(m, clause):
        # "I could eat tacos every single day": how often is not part of the thing.
        raw = re.split(r"(?i)\s+(?:every|all\s+the\s+time|daily|on\s+weekends|after\s+a|before\s+a|this\s+year|lately|these\s+days)\b", m.group("v"))[0]
        # "love love love thunderstorms": the verb said again is emphasis.
        raw = re.sub(r"(?i)^(?:(?:love|like|adore|hate)\s+)+", "", raw)
        value = _phrase(raw)
        if key == "user.likes" and ironic_taste(value or ""):
            return []
        # "oh sure, I totally enjoy doing my taxes", "yeah right, I love mondays": irony opens the clause.
        if re.match(r"(?i)(?:oh\s+)?(?:sure|yeah\s+right|yeah\s+sure|oh\s+great|oh\s+joy|of\s+course|totally)\b\s*,?", clause) and \
                re.search(r"(?i)\b(?:tax(?:es)?|mondays?|traffic|laundry|dishes|meetings?|paperwork|commut\w*|waiting|queues?|chores|cleaning|overtime|deadlines|admin|ironing)\b", value or ""):
            return []
        # "I love how you explain things", "I like that you remember": praise of the assistant, no taste.
        if value and re.match(r"(?i)(?:how|that|when|the\s+way|what)\s+(?:you|u)\b", value):
            return []
        if not value or re.match(r"(?i)(?:to\s+)?(?:know|ask|help|see|hear|get|have|try|go|be|do|make)\b", value) or re.fullmatch(r"(?i)[a-z]+ly", value):
            return []
        # "like six", "like twenty minutes", "like a couple of hours": 'like' as a hedge before an amount.
        if _AMOUNT.match(value):
            return []
        # "I enjoy reading, cooking and travel": a list the comma cut off runs on to the clause's end.
        more = _LIST_TAIL.match(m.string[m.end():])
        if more and m.end("v") == m.end() and m.group("v").rstrip().endswith(value.split()[-1]):
            value = value + more.group()
        return [_f(key, item) for item in taste_items(value)]
    return build


def _b_cant_stand_it(m, clause):
    """"cilantro tastes like soap to me, can't stand it": the thing the clause opens with is what "it" stands for."""
    value = _phrase(m.group("v"), 4)
    if not value or re.match(r"(?i)(?:it|this|that|he|she|they|there|work|life|today|everything|people)\b", value):
        return []
    return [_f("user.dislikes", value)]


_legacy_like = value_rule("user.likes", _object)
_legacy_dislike = value_rule("user.dislikes", _object)


def _legacy_favourite(match: re.Match) -> list[Candidate]:
    value = _object(match.group("v"))
    return [_c("user.likes", value, category=match.group("cat").strip().lower())] if value else []


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"{_I}\s+{_ADV}(?i:don't|do\s+not|really\s+don't)\s+(?i:like|enjoy|love)\s+{_OBJ}"), _legacy_dislike),
    (re.compile(rf"{_I}\s+{_ADV}(?i:hate|dislike|detest|can't\s+stand|cannot\s+stand|loathe)\s+{_OBJ}"), _legacy_dislike),
    (re.compile(rf"{_IM}\s+(?i:not\s+a\s+(?:big\s+|huge\s+)?fan\s+of)\s+{_OBJ}"), _legacy_dislike),
    (re.compile(rf"{_I}\s+{_ADV}(?:(?i:really|absolutely|do)\s+)?(?i:like|love|enjoy|adore|prefer)\s+{_OBJ}"), _legacy_like),
    (re.compile(rf"{_IM}\s+(?i:a\s+(?:big\s+|huge\s+)?fan\s+of)\s+{_OBJ}"), _legacy_like),
    (re.compile(rf"(?:^|\b)(?i:my\s+(?:favou?rite)\s+(?P<cat>[a-z ]{{2,20}}?)\s+is)\s+{_OBJ}"), _legacy_favourite),
]


_PLURAL_KINDS = {"dog": "dogs", "cat": "cats", "beach": "beaches", "book": "books", "plant": "plants", "horse": "horses"}


def _b_kind_of_person(m, clause):
    word = m.group("v").lower()
    return [_f("user.likes", _PLURAL_KINDS.get(word, m.group("v")))]


def _b_like_list(m, clause):
    # "my hobbies are hiking, baking and photography": each item is a like (not "overthinking lol": a joke).
    if re.search(r"(?i)\b(?:lol|lmao|haha|jk)\b|overthinking|procrastinat|napping|doomscrolling|worrying|stressing|complaining|crying|panicking|refreshing|"
                 r"spending\s+money|avoiding|sleeping\s+in", m.group("v")):
        return []
    out = []
    for part in re.split(r"\s*(?:,|&|\band\b|\bplus\b)\s*", m.group("v")):
        value = _phrase(part.strip())
        if value:
            out.append(_f("user.likes", value))
    return out


def _b_headed_list(m, clause):
    """"Things I love: hiking, sourdough, and old Bollywood songs", "favs = jazz, ramen", "Hate: mornings, mushrooms":
    a heading says which way the list goes; every item is a fact."""
    key = "user.dislikes" if re.search(r"(?i)hate|dislike|can't\s+stand|peeves?|not\s+a\s+fan", m.group("head")) else "user.likes"
    out = []
    for part in re.split(r"\s*(?:,|;|&|\band\b|\bplus\b)\s*", m.group("v")):
        value = _phrase(re.sub(r"(?i)^(?:and|also)\s+", "", part.strip()))
        if value and not any(value.casefold() == c.value.casefold() for c in out):
            out.append(_f(key, value))
    return out if len(out) >= 1 else []


# "into" says a taste after being ("I'm into", "really into"), not after a motion ("got into the car").
_INTO = "(?:" + "|".join(rf"(?<=\b{word}\s)" for word in (
    "i'm", "im", "i’m", "am", "so", "really", "totally", "massively", "super", "quite", "pretty", "very", "mostly", "big", "huge",
    "seriously", "properly", "we're", "been")) + ")into"


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "I've always loved birdwatching", "I could eat tacos every single day", "give me a spicy curry any day",
    # "nothing beats a proper cup of builder's tea for me": a lasting taste said without the present "I love"
    # (without "for me", "nothing beats a cold beer after a run" is an opinion of the world, f0647).
    (re.compile(r"(?i:i've|ive|i\s+have)\s+(?i:always|long)\s+(?i:loved|liked|enjoyed|adored|been\s+into)\s+(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    (re.compile(r"(?i:i\s+could|i'd\s+happily|i\s+would\s+happily)\s+(?i:eat|drink|watch|listen\s+to|read|play)\s+(?P<v>[^,.;!?]+?)\s+(?i:every\s+(?:single\s+)?day|forever|all\s+day|for\s+every\s+meal|daily)\b"), _b_like("user.likes")),
    (re.compile(r"^(?i:give\s+me)\s+(?:(?i:a|an|some)\s+)?(?P<v>[^,.;!?]+?)\s+(?i:any\s+day|every\s+time|over\s+[^,.;!?]+)\b"), _b_like("user.likes")),
    (re.compile(r"^(?i:nothing\s+beats|you\s+can't\s+beat|can't\s+beat)\s+(?:(?i:a|an)\s+)?(?:(?i:proper|good|nice|decent|fresh|hot|cold)\s+)?(?:(?i:cup|bowl|plate|pint|glass|slice)\s+of\s+)?(?P<v>[^,.;!?]+?)\s+(?i:for\s+me)\s*$"), _b_like("user.likes")),
    (re.compile(r"^(?P<v>[a-z][a-z ]{2,25}?)\s+(?i:is|are|tastes?|smells?|looks?|feels?)\b[^.;!?]{0,40}?,?\s+(?:(?i:i)\s+)?(?i:can't|cant|cannot|can\s+not)\s+(?i:stand|bear)\s+(?i:it|them)\b"), _b_cant_stand_it),
    (re.compile(r"^(?P<head>(?i:things\s+i\s+(?:really\s+)?(?:love|like|enjoy|hate|dislike|can't\s+stand)|(?:my\s+)?(?:favs|faves|favou?rites|likes|loves|"
                r"dislikes|hates|hate|love|pet\s+peeves?|not\s+a\s+fan\s+of)))\s*(?::|=|-|–)\s*(?P<v>[^.;!?]+)"), _b_headed_list),
    # More ways of saying one loves a thing ("nothing beats X" is an opinion, FACTS.md generic): "a sucker for", "I live for", "could eat X
    # every day", "gotten really into", "my go-to comfort food is", "a huge Arsenal fan".
    (re.compile(r"(?i:sucker\s+for|live\s+for|can't\s+live\s+without|cant\s+live\s+without|could\s+eat|could\s+live\s+on|"
                r"(?:gotten|got|getting)\s+(?:(?:really|super|so|pretty|properly|seriously|big\s+time)\s+into|into(?!\s+(?:the|a|an|my|our|his|her|their|bed|town|trouble|work|it|that|this)\b))|all\s+about|soft\s+spot\s+for|weakness\s+for|"
                r"go-to\s+(?:[a-z]+\s+){0,3}?(?:is|=)|never\s+say\s+no\s+to)\s+(?:(?i:a\s+good|good|a|an)\s+)?(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    # "my comfort food is my mum's dal and rice", "my comfort show has to be Friends": one dish or one show, kept whole
    # (whoever makes it is no part of it).
    (re.compile(r"(?i:my)\s+(?:(?i:ultimate|go-to|number\s+one|all-time)\s+)?(?i:comfort)\s+(?i:food|meal|dish|snack|show|film|movie|book|watch|drink)\s+(?i:is|=|has\s+to\s+be|:)\s+(?P<v>[^,.;!?]+)"),
     lambda m, c: [_f("user.likes", v)] if (v := _phrase(re.sub(r"(?i)^(?:my|our)\s+(?:[a-z]+\s+)?(?:mum|mom|mam|dad|nan|nana|gran|granny|grandma|grandad|grandpa|wife|husband|partner|mother|father)['’]s\s+", "", m.group("v")))) else []),
    (re.compile(r"(?i:huge|big|massive|die-hard|diehard|lifelong|total)\s+(?P<v>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)?)\s+(?i:fan|supporter)\b"), _b_like("user.likes")),
    # "Huge board game nerd here", "a total coffee snob", "massive Star Wars geek": the thing one is a fan of.
    (re.compile(r"(?i:huge|big|massive|total|absolute|complete|real|proper|such\s+a|bit\s+of\s+a)\s+(?P<v>[A-Za-z][\w&'.-]*(?:\s+[A-Za-z][\w&'.-]*)?)\s+(?i:nerd|geek|buff|junkie|fanatic|addict|snob|fiend|enthusiast|lover|freak)\b"), _b_like("user.likes")),
    # "I'm a dog person", "total beach person": a taste said as a kind of person ("a people person", "a morning
    # person" are temperaments, not things).
    (re.compile(r"(?:(?i:i'm|im|i\s+am)\s+(?:(?i:such|definitely|totally|really|very\s+much|100%)\s+)?(?i:an?)\s+(?:(?i:big|huge|total|real|massive)\s+)?)(?P<v>(?!(?i:people|morning|night|glass|half|details?|numbers|visual|big|huge|good|bad|private|simple|practical|creative)\b)[a-z][\w'-]*)\s+(?i:person|lover)\b"), _b_kind_of_person),
    # "I'm more of a metal guy", "more of a tea person": the preference said as a kind of person.
    (re.compile(r"(?i:more\s+of\s+an?|definitely\s+an?|totally\s+an?|always\s+been\s+an?)\s+(?P<v>[a-z][\w&'-]*(?:\s+[a-z][\w&'-]*)?)\s+(?i:guy|girl|person|fan|kind\s+of\s+(?:guy|girl|person)|gal|dude)\b"), _b_like("user.likes")),
    # "gaming is my main hobby", "my hobbies are hiking and photography": a hobby is a like.
    (re.compile(r"^(?P<v>[A-Za-z][\w' -]{1,25}?)\s+(?i:is|are)\s+(?i:my)\s+(?:(?i:main|big|biggest|favou?rite|new|current|only|one)\s+)?(?i:hobby|hobbies|passion|obsession)\b"), _b_like("user.likes")),
    (re.compile(r"(?i:my)\s+(?:(?i:main|current|favou?rite)\s+)?(?i:hobby\s+is|hobbies\s+are|hobbies\s+include|hobbies:)\s+(?P<v>[^.;!?]+)"), _b_like_list),
    # "nothing makes me happier than a long bike ride": what makes the user happiest.
    (re.compile(r"(?i:nothing|few\s+things)\s+(?i:makes?\s+me\s+(?:happier|more\s+relaxed|calmer)|relaxes\s+me\s+more)\s+(?i:than)\s+(?:(?i:a|an|the)\s+)?(?:(?i:good|long|proper|nice)\s+)?(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    # "im obsessed w kpop", "i luv sushi", "really loving yoga lately", "fallen in love with climbing": chat spellings.
    (re.compile(r"(?i:obsessed\s+w/?|luv|lurve|looo*ve|fallen\s+in\s+love\s+with|fell\s+in\s+love\s+with|(?:really|been|totally|absolutely|i'm|im|am)\s+loving)\s+(?:(?i:the|a)\s+)?(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    # "jazz puts me to sleep": boredom is a dislike.
    (re.compile(r"^(?P<v>[a-z][\w' -]{1,25}?)\s+(?i:puts|put|sends|send)\s+me\s+to\s+sleep\b"), _b_like("user.dislikes")),
    # Dislikes: "crowds make me anxious", "not really a beach person", "not really into sports",
    # "olives are the one food I just can't do".
    (re.compile(r"^(?P<v>[a-z][\w' -]{1,25}?)\s+(?i:make|makes)\s+me\s+(?:(?i:super|so|really|very|a\s+bit)\s+)?(?i:anxious|uncomfortable|miserable|nauseous|cringe|angry|stressed)"), _b_like("user.dislikes")),
    (re.compile(r"^(?P<v>[A-Za-z][\w' -]{1,25}?)\s+(?i:terrif(?:y|ies)|scares?|bores?|annoys?|irritates?|stress(?:es)?|freaks?|gross(?:es)?|disgusts?|sickens?)\s+(?i:me)\b"), _b_like("user.dislikes")),
    (re.compile(r"^(?P<v>[A-Za-z][\w' -]{1,25}?)\s+(?i:isn't|is\s+not|aren't|are\s+not|isnt|arent)\s+(?:(?i:really|exactly|quite)\s+)?(?i:my\s+thing|for\s+me|my\s+cup\s+of\s+tea|my\s+jam|my\s+scene)"), _b_like("user.dislikes")),
    (re.compile(r"(?i:not)\s+(?:(?i:really|much\s+of|exactly|at\s+all)\s+)?(?i:an?)\s+(?!(?i:big|huge|massive|great|real|total)\b)(?P<v>[a-z]+)\s+(?i:person|guy|girl|fan)\b"), _b_like("user.dislikes")),
    (re.compile(r"(?i:not)\s+(?:(?i:really|that|super|very|too|big|much)\s+)?(?i:into)\s+(?P<v>[^,.;!?]+)"), _b_like("user.dislikes")),
    (re.compile(r"^(?P<v>[A-Za-z][\w' -]{1,25}?)\s+(?i:are|is)\s+the\s+(?:one|only)\s+(?:[a-z]+\s+)?(?i:i)\s+(?:(?i:just|really|simply)\s+)?(?i:can't|cannot|cant|won't)\s+(?i:do|eat|stand|handle)"), _b_like("user.dislikes")),
    (re.compile(rf"(?i:love|adore|enjoy|like|prefer|{_INTO}|obsessed\s+with|can't\s+get\s+enough\s+of|cant\s+get\s+enough\s+of|big\s+on|addicted\s+to|hooked\s+on|fan\s+of|passionate\s+about|crazy\s+about|mad\s+about|nuts\s+about|wild\s+about|potty\s+about)\s+(?:(?i:a\s+good|good|a)\s+)?(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    (re.compile(r"(?P<v>[A-Za-z][\w' -]{1,30}?)\s+(?i:(?:is|are)\s+my\s+(?:(?:absolute|all-time|all\s+time|total|ultimate|number\s+one|#1)\s+)?(?:favou?rite|fave|comfort|guilty\s+pleasure|weakness|happy\s+place)|is\s+life|is\s+my\s+jam|is\s+my\s+(?:thing|jam|vibe)|(?:is|are)\s+my\s+life|(?:is|are)\s+everything\s+to\s+me)"), _b_like("user.likes")),
    (re.compile(r"(?i:give\s+me)\s+(?:(?i:a|an)\s+)?(?P<v>[^,.;!?]+?)\s+(?i:any\s+day|every\s+time|over\s+anything)"), _b_like("user.likes")),
    (re.compile(r"(?i:always|forever|have\s+always|'ve\s+always)\s+(?i:loved|adored|enjoyed|liked)\s+(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    (re.compile(r"(?i:not)\s+(?:(?i:very|too|that|super|overly|massively)\s+)?(?i:keen\s+on|fussed\s+about|big\s+on)\s+(?P<v>[^,.;!?]+)"), _b_like("user.dislikes")),
    (re.compile(r"(?P<v>[A-Za-z][\w' -]{1,30}?)\s+(?i:are|is)\s+(?:(?i:just|so|honestly|literally)\s+)?(?i:disgusting|gross|revolting|vile|the\s+worst)\s+(?i:to\s+me|imo|for\s+me)"), _b_like("user.dislikes")),
    (re.compile(r"^(?P<v>[a-z][\w' -]{1,30}?)\s+(?i:are|is)\s+(?:(?i:just|so|honestly|literally)\s+)?(?i:disgusting|gross|revolting|vile)\b(?=.*(?:\bugh\b|\bme\b|\btexture\b|\bcan't\b))"), _b_like("user.dislikes")),
    (re.compile(r"(?i:fave|favou?rite|guilty\s+pleasure)\s+(?:[a-z ]{0,15}\s+)?(?i:is|has\s+to\s+be|:)\s+(?P<v>[^,.;!?]+)"), _b_like("user.likes")),
    (re.compile(r"(?i:anything\s+by|anything\s+with)\s+(?P<v>[A-Z][^,.;!?]+?),?\s+(?i:i'm\s+there|count\s+me\s+in)"), _b_like("user.likes")),
    (re.compile(r"(?i:hate|dislike|detest|loathe|can't\s+stand|cant\s+stand|cannot\s+stand|not\s+a\s+(?:big\s+|huge\s+)?fan\s+of|not\s+into|can't\s+bear)\s+(?P<v>[^,.;!?]+)"), _b_like("user.dislikes")),
    (re.compile(r"(?i:don't|dont|do\s+not|really\s+don't)\s+(?i:like|enjoy|love)\s+(?P<v>[^,.;!?]+)"), _b_like("user.dislikes")),
    (re.compile(r"(?i:find)\s+(?P<v>[a-z ]+?)\s+(?i:unbearable|boring|annoying|awful|exhausting|overrated)"), _b_like("user.dislikes")),
]
