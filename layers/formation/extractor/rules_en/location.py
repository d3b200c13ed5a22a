"""Places: home city, work city, hometown."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import (
    _ADV,
    _CAP,
    _I,
    _IM,
    _NON_PLACES,
    _PLACE,
    _f,
    _proper,
    value_rule,
)
from layers.formation.extractor.rules_en.languages import _LANGS
from layers.formation.extractor.text import tidy_value

_ANYPLACE = r"(?P<v>[A-Za-z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3})"


# Lower-case text ("moved to london last year"): a place is at most three words, ended by a time
# word or connective.
_LSTOP = (r"(?:last|next|this|for|with|and|but|now|since|because|so|the|a|an|to|in|at|on|from|rn|lol|tho|though|anymore|"
          r"again|already|too|as|soon|yet|with|by|area|though|haha|btw|tbh|which|where|who|is|was|are|it|i|my|of|"
          r"these|those|recently|ago|years?|months?|weeks?|days?)")


# How long a stay has lasted: "about four years now", "for a couple of months", "nearly 2 yrs".
_HOW_LONG = (r"(?i:(?:about|around|almost|nearly|over|like|just\s+over|just\s+under|roughly|for)\s+)?(?i:\d+|a|an|one|two|three|four|five|six|seven|eight|"
             r"nine|ten|a\s+few|a\s+couple\s+of|couple|several|many)\s+(?i:years?|yrs?|months?)\b")


# (A dash ends the place as a comma does: "now in manchester — any dim sum round here?")
_LPLACE = rf"(?P<v>(?!{_LSTOP}\b)[a-z][\w'.-]*(?:\s+(?!{_LSTOP}\b)[a-z][\w'.-]*){{0,2}})(?=\s+{_LSTOP}\b|\s*$|\s*[,.;!?—–]|\s+-\s)"


# Which way a move went: "we moved down to Tucson", "moved back up to Leeds", "moved out to Denver". ("over" and
# "across" are left out: "moved over to Stripe" is as often a job as a town.)
_MOVE_WAY = r"(?:(?i:back)\s+)?(?:(?i:down|up|out)\s+)?"


_NOT_LPLACES = {"finance", "marketing", "sales", "tech", "it", "hr", "retail", "healthcare", "education", "hospitality",
                "construction", "insurance", "banking", "law", "media", "publishing", "fashion", "advertising", "consulting",
                "logistics", "pharma", "engineering", "government", "admin", "accounts", "research", "design", "product",
                "operations", "ops", "events", "property", "real estate", "tech support", "customer service", "audit", "tax",
                "here", "there", "home", "town", "city", "the city", "a flat", "an apartment", "a house", "the suburbs",
                "the area", "the countryside", "hotel", "a hotel", "dorm", "a dorm", "school", "work", "bed", "office"}


# People name their home town by its demonym ("I'm a Dubliner", "a Geordie"); FACTS.md gives the town.
_DEMONYMS = {"londoner": "London", "dubliner": "Dublin", "glaswegian": "Glasgow", "mancunian": "Manchester",
             "liverpudlian": "Liverpool", "scouser": "Liverpool", "geordie": "Newcastle", "brummie": "Birmingham",
             "new yorker": "New York", "parisian": "Paris", "berliner": "Berlin", "bristolian": "Bristol",
             "torontonian": "Toronto", "montrealer": "Montreal", "melburnian": "Melbourne", "sydneysider": "Sydney",
             "angeleno": "Los Angeles", "chicagoan": "Chicago", "bostonian": "Boston", "aucklander": "Auckland",
             "yorkshireman": "Yorkshire", "yorkshirewoman": "Yorkshire", "cornishman": "Cornwall"}
_DEMONYM = "(?P<v>" + "|".join(sorted(_DEMONYMS, key=len, reverse=True)) + ")"


def _b_demonym(m, clause):
    return [_f("user.hometown", _DEMONYMS[m.group("v").lower()])]


def _b_home(m, clause):
    value = _proper(m.group("v")) if m.group("v")[:1].isupper() else tidy_value(m.group("v"))
    if not value or value in _NON_PLACES or value.lower() in ("here", "there", "a", "the", "town", "the city", "home"):
        return []
    return [_f(m.re.groupindex and m.groupdict().get("key") or "user.home_city", value)]


_MOVED_TO_JOB = re.compile(r"(?i)\s+(?:as|to\s+work\s+as|to\s+be)\s+(?:an?|the|their|its|our|head\s+of|lead)\s+"
                           r"(?!(?:\w+\s+)?(?:student|kid|child|teen|teenager|baby|toddler|refugee|family|couple|tourist|exchange|grad|adult)s?\b)")


def _moved_home(match: re.Match) -> list:
    """"I moved to Leeds" (a sentence rule): the home it names, marked as a correction of an older one;
    "I moved to ITV as a producer" is the employer, as _b_place reads it."""
    return [_f(c.memory_key, c.value, **({**c.attributes, "correction": True} if c.memory_key == "user.home_city" else c.attributes))
            for c in _b_place("user.home_city")(match, match.string)]


def _b_place(key):
    def build(m, clause):
        build.key = key
        raw = m.group("v")
        # "I've just moved to ITV as a producer", "relocated to Stripe to work as their PM": a move to a job,
        # not a town (the one place this is decided, for the sentence rule too).
        if _MOVED_TO_JOB.match(clause, m.end()) and re.search(r"(?i)\b(?:moved|moving|relocated|switched|jumped|went)\s+(?:over\s+|across\s+)?to\s*$", clause[:m.start("v")]):
            return [_f("user.employer", _proper(raw) or raw)]
        value = _proper(raw) if raw[:1].isupper() else tidy_value(raw)
        if not value or value in _NON_PLACES or value.split()[0].lower() in ("here", "there", "a", "the", "home", "my", "an") \
                or value.lower() in _NOT_LPLACES or (not raw[:1].isupper() and len(value) < 2) or _A_LANGUAGE.fullmatch(value):
            return []
        return [_f(key, value)]
    return build


# "I work in English all day", "we live in Spanish at home": a language is what one works or lives in, not a place.
_A_LANGUAGE = re.compile(rf"(?i:{_LANGS})")


def _b_commute(m, clause):
    home, work = _proper(m.group("a")), _proper(m.group("b"))
    return [c for c in (home and _f("user.home_city", home), work and _f("user.work_city", work)) if c]


def _work_place(raw: str) -> str | None:
    value = _proper(raw)
    return None if value in _NON_PLACES or _A_LANGUAGE.fullmatch(value or "") else value


# An office or a trip "for work" said without "I" ("funny thing at the office in Leeds today") is still
# the user's workplace; checked with subject._no_one_else (rules_en/__init__.py _EN_LOOSE).
_b_office = _b_place("user.work_city")


_legacy_home = value_rule("user.home_city", _proper)
_legacy_hometown = value_rule("user.hometown", _proper)
_legacy_work_city = value_rule("user.work_city", _work_place)


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"{_I}\s+{_ADV}(?i:live|reside)\s+(?i:in)\s+{_PLACE}"), _legacy_home),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:living|based|located|settled)\s+(?i:in)\s+{_PLACE}"), _legacy_home),
    (re.compile(rf"(?:{_I}|(?i:i've|i\s+have))\s+{_ADV}(?i:moved|relocated)\s+{_MOVE_WAY}(?:(?i:from)\s+{_CAP}(?:\s+{_CAP}){{0,3}}\s+)?(?i:to)\s+{_PLACE}"), _moved_home),
    (re.compile(rf"(?:^|\b)(?i:my)\s+(?i:home|house|apartment|flat)\s+(?i:is)\s+(?i:in)\s+{_PLACE}"), _legacy_home),
    # "we signed a lease in Jersey City and moved in", "I got a flat in Leith": a new home taken, so a move.
    (re.compile(rf"(?:{_I}|(?:^|(?<=[\s,;:]))(?i:we))\s+{_ADV}(?:(?i:just|finally)\s+)?(?i:signed\s+(?:a|the|our|my)\s+(?:new\s+)?lease|got\s+(?:a|an|our|my)\s+(?:new\s+)?(?:flat|apartment|place|condo)|"
                rf"closed\s+on\s+(?:a|our|my)\s+(?:new\s+|first\s+)?(?:flat|apartment|place|house|condo|home))\s+(?:(?i:on|for)\s+(?:a|an|our|my|the)\s+(?!(?:[\w'-]+\s+){{0,2}}?(?i:office|studio|shop|store|unit|space|desk|warehouse|restaurant|cafe|salon|business|car)\b)(?:[\w'-]+\s+){{0,2}})?(?i:in)\s+{_PLACE}"), _moved_home),
    (re.compile(rf"{_IM}\s+(?i:originally\s+)?(?i:from)\s+{_PLACE}"), _legacy_hometown),
    (re.compile(rf"{_I}\s+(?i:grew\s+up|was\s+born)\s+(?i:in)\s+{_PLACE}"), _legacy_hometown),
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:in)\s+{_PLACE}"), _legacy_work_city),
    (re.compile(rf"(?:^|\b)(?i:my)\s+(?i:office|workplace)\s+(?i:is)\s+(?i:in)\s+{_PLACE}"), _legacy_work_city),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?i:live|living|based|settled|reside|residing|located)\s+(?i:in|out\s+of)\s+{_ANYPLACE}"), _b_place("user.home_city")),
    # "I rent in Slough", "renting a room in Leeds": a home one rents is where one lives.
    (re.compile(rf"(?i:rent|renting)\s+(?:(?i:a|an|our|my)\s+(?:(?i:little|small|tiny|shared|new)\s+)?(?i:place|flat|room|house|apartment|studio|condo)\s+)?(?i:in)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:live|living|based|settled|reside|residing|moved|relocated)\s+(?i:in|out\s+of|to)\s+{_LPLACE}"), _b_place("user.home_city")),
    # ("born in cork, now in leeds": a clause opening on "born" has the user's birth in it.)
    (re.compile(rf"(?:(?i:grew\s+up|born\s+and\s+raised|was\s+born)|^(?i:born))\s+(?i:in)\s+{_LPLACE}"), _b_place("user.hometown")),
    # "grew up speaking cantonese in hong kong", "raised speaking Tagalog and English in Manila": the language
    # one grew up in is said between the verb and the town.
    *[(re.compile(rf"(?i:grew\s+up|raised|was\s+raised)\s+(?i:speaking|hearing)\s+(?i:{_LANGS})(?:\s*(?:,|and|&)\s*(?i:{_LANGS}))*\s+(?i:in)\s+{place}"),
       _b_place("user.hometown")) for place in (_PLACE, _LPLACE)],
    # "my apartment's in Jersey City and my desk is in Manhattan": the home and the workplace by what is there.
    (re.compile(rf"(?i:my|our)\s+(?:(?i:new|own|little|tiny)\s+)?(?i:apartment|flat|house|place|home|condo|studio)(?:'s|\s+is)\s+(?:(?i:now|actually|still)\s+)?(?i:in)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:my)\s+(?i:desk|office|job|workplace|work)(?:'s|\s+is)\s+(?:(?i:now|actually)\s+)?(?i:in)\s+{_PLACE}"), _b_place("user.work_city")),
    # "I live out in Reading but the office is in London", "our office is based in Leeds": the user's office said
    # with "the" or "our" (subject._no_one_else keeps out "her office is in Leeds").
    (re.compile(rf"(?:^|(?<=[\s,;:]))(?i:the|our)\s+(?i:office|workplace|job|hq|head\s+office)(?:'s|\s+is)\s+(?:(?i:now|actually|still|based|located|over|up|down|out)\s+)*(?i:in)\s+{_PLACE}"), _b_office),
    # "Seattle-based, if that matters", "a London-based designer": the place the user is based in.
    (re.compile(rf"(?:^|(?<=\s))(?P<v>{_CAP}(?:\s+{_CAP})?)-(?i:based)\b"), _b_place("user.home_city")),
    # "originally from Los Baños … Calgary now": a bare place, then "now", is where the user is.
    (re.compile(rf"^{_PLACE}\s+(?i:now|these\s+days|nowadays)\b(?=\s*(?:$|[,.;!]|(?i:and|but|though)\b))"), _b_place("user.home_city")),
    (re.compile(rf"(?i:originally\s+from|i'm\s+from|im\s+from)\s+{_LPLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?i:moved|relocated|moving\s+back|moved\s+back)\s+{_MOVE_WAY}(?:(?i:from)\s+{_CAP}(?:\s+{_CAP}){{0,3}}\s+)?(?i:to)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:greetings|hi|hello|hey)\s+(?i:from)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?P<v>{_CAP}(?:\s+{_CAP}){{0,2}})(?:'s|\s+is)\s+(?i:home)\b"), _b_place("user.home_city")),
    (re.compile(rf"(?i:home\s+is|home's|my\s+home\s+(?:city|town)\s+is|home\s+base\s+is)\s+(?:(?i:now|still|actually)\s+)?{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:commute)\s+(?i:from)\s+(?P<a>{_CAP}(?:\s+{_CAP}){{0,2}})\s+(?i:to|into)\s+(?P<b>{_CAP}(?:\s+{_CAP}){{0,2}})"), _b_commute),
    # "I commute into Boston every day from Worcester": the work town first, home after "from".
    (re.compile(rf"(?i:commute|commuting|travel|go)\s+(?i:in|into|to|up\s+to|down\s+to)\s+(?P<b>{_CAP}(?:\s+{_CAP}){{0,2}})\s*(?:,?\s*[\w ]{{0,40}}?\s*,?\s+)?(?i:from)\s+(?:(?i:home\s+in)\s+)?(?P<a>{_CAP}(?:\s+{_CAP}){{0,2}})"), _b_commute),
    # "working out of the Dublin office", "at the office in Manchester today", "work from the Canary Wharf office 3 days":
    # an office named by its town is where the user works.
    (re.compile(rf"(?i:work|working|based|at|in|from)\s+(?i:out\s+of\s+)?(?i:the|our)\s+(?P<v>{_CAP}(?:\s+{_CAP}){{0,2}})\s+(?i:office|hq|branch|site|campus)\b"), _b_office),
    (re.compile(rf"(?i:at|to|from)\s+(?i:the|our|my)\s+(?i:office|hq|headquarters|branch)\s+(?i:in)\s+{_PLACE}"), _b_office),
    # "work from Canary Wharf 3 days, rest from home in Croydon": days in a place are days at the office.
    (re.compile(rf"(?i:work|working)\s+(?i:from|in|at)\s+{_PLACE}\s+(?:\d|(?i:one|two|three|four|five))\s*(?i:days?)\b"), _b_place("user.work_city")),
    (re.compile(rf"(?i:work|working|office\s+is|job\s+is|job's|office's|work's|commute)\s+(?i:in|to|into)\s+{_ANYPLACE}"), _b_place("user.work_city")),
    # "I live just over the border in Mainz", "renting a place in Bath", "the rest from home in Stockport",
    # "I live in the Plateau in Montreal": the city closes a longer phrase.
    (re.compile(rf"(?i:live|living|based|renting\s+a\s+(?:place|flat|house|room)|bought\s+a\s+(?:place|flat|house)|from\s+home|home)\s+(?:[\w'-]+\s+){{0,5}}?(?i:in)\s+(?P<v>{_CAP}(?:\s+{_CAP}){{0,2}})(?=\s*(?:$|[,.;!?])|\s+(?i:now|these|and|but|with|since|for)\b)"), _b_place("user.home_city")),
    (re.compile(rf"{_IM}\s+(?i:an?\s+)?(?:(?i:proud|true|born\s+and\s+bred|real|total)\s+)?(?i:{_DEMONYM})\b"), _b_demonym),
    # "Just got the keys to my flat in Glasgow", "we bought a house in Leeds": a home of one's own.
    (re.compile(rf"(?:(?i:just|finally)\s+)?(?:(?i:got|get|picked\s+up|collected)\s+(?i:the)\s+)?(?i:keys\s+to|moved\s+into|bought|closed\s+on|signed\s+(?:the\s+)?lease\s+on)\s+(?i:my|our|a)\s+(?:(?i:new|first|own|little)\s+)?(?i:flat|house|place|apartment|condo|home)\s+(?i:in)\s+{_PLACE}"), _b_place("user.home_city")),
    # "came to Toronto for uni and stayed", "ended up staying in Leeds": where the user came and stayed.
    (re.compile(rf"(?i:came|moved|went)\s+(?i:to|over\s+to)\s+{_PLACE}\s+(?:[\w ]{{1,25}}?\s+)?(?i:and|&)\s+(?:(?i:just|never|have|never\s+really)\s+)?(?i:stayed|never\s+left|settled|stuck\s+around|haven't\s+left)"), _b_place("user.home_city")),
    (re.compile(rf"(?i:ended\s+up\s+(?:staying|settling|living))\s+(?i:in)\s+{_PLACE}"), _b_place("user.home_city")),
    # "I'm Tomás, 31, from Buenos Aires": a bare "from" in a self-introduction's list.
    # (Not after a commute: "commuting into Canary Wharf for JPMorgan, from Kent" is where the trip starts, home.)
    (re.compile(rf"(?<=,)\s*(?i:from)\s+{_PLACE}(?=\s*$|\s*[,.!;])"),
     lambda m, c: [] if re.search(r"(?i)\bcommut", c[:m.start()]) else _b_place("user.hometown")(m, c)),
    # "originally from a tiny town called Bisbee": the town by its name.
    (re.compile(rf"(?i:from|grew\s+up\s+in)\s+(?i:a|an|this)\s+(?:(?i:tiny|small|little|sleepy|big|coastal|mining|farming)\s+)*(?i:town|village|city|island|place)\s+(?i:called|named)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(r"(?i:from)\s+(?P<v>[a-z][\w'.-]*(?:\s+[a-z][\w'.-]*)?)\s+(?i:originally)\b"), _b_place("user.hometown")),
    # "I'm in Leeds, West Yorkshire": a town and its region said as where one is.
    (re.compile(rf"{_IM}\s+(?i:in)\s+{_PLACE}(?=\s*,\s*(?:[A-Z][a-z]+\s+)?[A-Z][a-z]+\s*$)"), _b_place("user.home_city")),
    (re.compile(rf"{_IM}\s+(?i:down|up|over|out)\s+(?i:in)\s+{_PLACE}(?=\s+(?i:these\s+days|now|for\s+good)\b|\s*$)"), _b_place("user.home_city")),
    (re.compile(rf"(?i:live|living|based)\b[^.;!?]{{0,40}}?(?i:village|town|suburb|neighbou?rhood|area)\s+(?i:called|named)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:work|working)\s+(?:(?i:remotely|remote|from\s+home)\s+)?(?i:from)\s+{_PLACE}(?![\w'.&-]|\s+[A-Z]|\s+(?:\d|(?i:one|two|three|four|five))\s*(?i:days?)\b)"), _b_place("user.home_city")),
    # "and now I'm in Hamburg", "these days I'm based in Leeds": the present after a past clause (text.split_clauses).
    (re.compile(rf"^(?i:now|these\s+days|nowadays|currently)\s*,?\s+{_IM}\s+(?:(?i:living\s+|based\s+|settled\s+))?(?i:in)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:i've|ive|i\s+have)\s+(?:(?i:been\s+living|lived))\s+(?i:in)\s+{_ANYPLACE}"), _b_place("user.home_city")),
    (re.compile(r"(?i:live|living|based)\s+(?i:in)\s+(?P<v>[\u4e00-\u9fff]{2,6})"), _b_place("user.home_city")),
    (re.compile(rf"^(?i:work\s+is|work's|my\s+work\s+is)\s+(?i:in)\s+{_PLACE}"), _b_place("user.work_city")),
    (re.compile(rf"(?i:grew\s+up|born\s+and\s+raised|was\s+born)\s+(?i:in)\s+(?i:an?)\s+(?:[a-z]+\s+){{0,3}}(?i:village|town|city|place|suburb)\s+(?i:in|near|outside)\s+{_PLACE}(?![^,.;!?]*\b(?i:called|named)\b)"), _b_place("user.hometown")),
    # "been in Leeds since 2019", "I've been in Leeds about four years now", "been living in Pune for a couple of
    # months": a stay measured back from now is where the user lives.
    (re.compile(rf"(?i:been\s+in|been\s+living\s+in|been\s+based\s+in)\s+{_PLACE}\s+(?:(?i:since|for)\b|{_HOW_LONG})"), _b_place("user.home_city")),
    # "presently staying in Pune for job purpose", "currently putting up in Leeds for work": a stay said as
    # the present one, or one kept for work, is home (a trip is "for the weekend", "for a conference").
    (re.compile(rf"(?i:presently|currently|now|these\s+days)\s+(?i:staying|residing|putting\s+up|stopping)\s+(?i:in|at)\s+{_PLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:staying|residing|putting\s+up)\s+(?i:in|at)\s+{_PLACE}\s+(?i:for\s+(?:my\s+)?(?:job|work)(?:\s+purposes?)?|for\s+(?:the\s+)?(?:job|work))\b"), _b_place("user.home_city")),
    # "we're out in the suburbs of Denver", "I live on the outskirts of Leeds", "we're just outside Bath": a home
    # placed by the city it sits beside.
    (re.compile(rf"(?:(?i:live|living|based|settled)|{_IM}|(?:^|(?<=[\s,;:]))(?i:we're|we\s+are|were))\s+(?:(?i:out|right|just|now|way)\s+)*(?:(?i:in|on)\s+(?i:the)\s+(?i:suburbs|outskirts|edge|burbs)\s+(?i:of)|(?i:just\s+)?(?i:outside|outside\s+of))\s+{_PLACE}"), _b_place("user.home_city")),
    # "originally from a tiny village outside Cork", "from a small town near Lyon": the town one comes from, placed
    # by the city beside it (unless named: "a village called X" is read above).
    (re.compile(rf"(?i:from)\s+(?i:an?)\s+(?:[a-z]+\s+){{0,3}}(?i:village|town|city|place|suburb|island|hamlet)\s+(?i:in|near|outside|outside\s+of|just\s+outside|close\s+to)\s+{_PLACE}(?![^,.;!?]*\b(?i:called|named)\b)"), _b_place("user.hometown")),
    (re.compile(rf"(?i:my\s+home\s*town\s+is|my\s+home\s*town's|hometown\s*:)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?i:grew\s+up|born\s+and\s+raised|was\s+born)\s+(?i:in)\s+(?:(?i:a|an|this)\s+)[^,.;!?]{{0,40}}?(?i:called|named)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?:(?i:head|go|travel|commute|fly|drive|take\s+the\s+(?:train|tube|bus|ferry)|get\s+the\s+(?:train|bus))\s+)?(?i:in|up\s+in|down\s+in|into|up\s+to|down\s+to|over\s+to)\s+{_PLACE}\s+(?i:for\s+work)"), _b_office),
    (re.compile(rf"(?i:originally\s+from|come\s+from|hail\s+from|am\s+from)\s+{_PLACE}"), _b_place("user.hometown")),
    # "native of Chennai, now in Bangalore": a native of a town comes from it.
    (re.compile(rf"(?:^|(?<=\s))(?i:a\s+)?(?i:native)\s+(?i:of)\s+{_PLACE}"), _b_place("user.hometown")),
    # "born and raised in Glasgow, now in London": the present after the past.
    (re.compile(rf"(?:^|(?<=,)\s*|(?<=\band\s))(?i:now|currently|these\s+days)\s+(?i:in|based\s+in|living\s+in|in\s+sunny)\s+{_PLACE}"), _b_place("user.home_city")),
    # The same typed in lower case: "grew up in cork, now in leeds", "born in lagos, currently based in london".
    (re.compile(rf"(?:^|(?<=,)\s*|(?<=\band\s))(?i:now|currently|these\s+days)\s+(?i:in|based\s+in|living\s+in)\s+{_LPLACE}"), _b_place("user.home_city")),
    (re.compile(rf"(?i:from)\s+{_PLACE}\s+(?i:originally)"), _b_place("user.hometown")),
    (re.compile(rf"(?i:originally)\s+(?:(?i:i'm|i\s+am)\s+)?(?i:from)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?i:grew\s+up|born\s+and\s+(?:raised|bred)|was\s+born|raised)\s+(?i:in)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"{_IM}\s+(?i:from)\s+{_PLACE}"), _b_place("user.hometown")),
    (re.compile(rf"(?P<v>{_CAP}(?:\s+{_CAP})?)\s+(?i:native|born\s+and\s+(?:raised|bred)|lad|lass|girl|boy)\b"), _b_place("user.hometown")),
]
