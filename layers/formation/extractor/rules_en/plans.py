"""Plans and trips with their date and destination."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import (
    _STOP_CAPS,
    Candidate,
    _c,
    _f,
    _proper,
)
from layers.formation.extractor.rules_en.habits import _is_habit_clause
from layers.formation.extractor.text import tidy_value

_LIGHT_PLAN = re.compile(r"(?i)(?:start|starting|start\s+date|go|going|go\s+there|going\s+there|leave|leaving|move|moving|come|coming|be\s+there)")

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
            bare = tidy_value(re.sub(re.escape(date.group()), " ", rest, flags=re.I))
            # "I'm going there in May", "I start in March": a light verb says nothing of what is planned,
            # and a recurring clause ("I run 5k on Tuesday and Thursday evenings") is a habit.
            # Starting a named job is the employer (FACTS.md), not a plan: "I start my new job at Ocado on Monday".
            if _LIGHT_PLAN.fullmatch(re.sub(r"\s+", " ", bare)) or _is_habit_clause(clause) or \
                    re.search(r"(?i)\bstart\w*\s+(?:my\s+|a\s+)?(?:new\s+)?(?:job|role|position)?\s*(?:at|with)\s+[A-Z]", clause):
                return None
            dest = re.search(r"\b(?:to|for)\s+(?:the\s+)?(?P<d>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})", rest)
            destination = _proper(dest.group("d")) if dest else None
            if destination and (A.en_date(destination) or destination in _STOP_CAPS):
                destination = None
            # The date is an attribute, not part of the description ("seeing Coldplay at Wembley in June").
            return _c("user.plan", trip_value(_describe(bare), destination), date=re.sub(r"(?i)^(?:in|on)\s+", "", date.group()))
    return None


def _describe(body: str) -> str:
    """A plan as the user wrote it (FACTS.md: "short, ... as the user wrote it"): "we're moving to Toronto"
    is "moving to Toronto", not "move to Toronto"; only the auxiliary of intent and a leading possessive go."""
    # "going to visit my parents" is the plan "visit my parents"; "going to Hangzhou" keeps its verb.
    aux = re.match(r"^(?:[Gg]oing\s+to|[Gg]onna|[Pp]lanning\s+to|[Aa]bout\s+to|[Ii]ntending\s+to|[Hh]oping\s+to)\s+(?=[a-z])", body)
    if aux:
        body = body[aux.end():]
    body = re.sub(r"^(?i:my|our)\s+", "", body)
    # "getting married" is the wedding.
    married = re.match(r"(?i)get(?:ting)?\s+married\b", body)
    if married:
        return tidy_value("wedding" + body[married.end():])
    return tidy_value(body)


# Dates people plan around that A.en_date does not read.
_EXTRA_DATE = re.compile(r"(?i)\b(?:over\s+|on\s+|for\s+|at\s+|in\s+)?(?:the\s+|this\s+)?(?:fall|autumn|spring|summer|winter|thanksgiving|christmas|easter|spring\s+break|memorial\s+day|labou?r\s+day|"
                         r"fourth\s+of\s+july|july\s+4th|new\s+year'?s|diwali|eid|passover|hanukkah|chinese\s+new\s+year|lunar\s+new\s+year|weekend|boxing\s+day|christmas\s+(?:eve|day)|new\s+year'?s\s+(?:eve|day)|halloween|valentine'?s\s+day|bank\s+holiday(?:\s+weekend)?|long\s+weekend|half[- ]term|easter\s+holidays|christmas\s+holidays|summer\s+holidays)\b")


def _b_plan(m, clause):
    date = A.en_date(clause)
    if not date:
        extra = _EXTRA_DATE.search(clause)
        date = tidy_value(re.sub(r"(?i)^(?:over|on|for|at)\s+", "", extra.group())) if extra else None
    if not date:
        return []
    # "taking evening classes in BSL, level 2 exam is in march": a date another subject is said to be on after a comma
    # is that subject's, not the date of what came before it.
    at = clause.casefold().find(date.casefold(), m.end())
    if at > 0 and re.search(r",\s*(?:(?:my|the|our|a|an)\s+)?[\w' -]{1,30}?\s+(?:is|are|'s)\s+(?:(?:in|on|at|due|set\s+for|scheduled\s+for|booked\s+for)\s+)?(?:the\s+)?$",
                            clause[m.end():at], re.IGNORECASE):
        return []
    # "my driving test went fine on tuesday": an event reported as over is no plan.
    if re.search(r"(?i)\b(?:went|was|were|got\s+(?:cancelled|moved|postponed)|passed|failed|happened|is\s+over)\b", m.group("v")):
        return []
    body = tidy_value(m.group("v"))
    # "next September", "this Friday": the word before a bare date is part of it.
    before = re.search(rf"(?i)\b(?P<w>next|this|last|coming)\s+{re.escape(date)}\b", clause)
    if before:
        date = f"{before.group('w')} {date}"
    # The date is an attribute, not part of the description (FACTS.md: "start new job" + date Monday).
    bare = re.sub(rf"(?i)\s*\b(?:on\s+|in\s+|at\s+|for\s+|this\s+coming\s+)?{re.escape(date)}\b", " ", body)
    bare = re.sub(r"(?i)^(?:my|our)\s+|\s+(?:is|are|'s)(?:\s+(?:on|in|at|for))?\s*$|\s+(?:on|in|at|for|over)(?:\s+the)?\s*$", "", tidy_value(bare))
    body = _describe(tidy_value(re.sub(r"\s+", " ", bare)) or body)
    # "the 20th of July next year": the year said after the date belongs to it.
    more = re.search(rf"(?i){re.escape(date)}\s*,?\s*(?P<y>next\s+year|this\s+year|\d{{4}})\b", clause)
    if more:
        date = f"{date} {more.group('y')}"
        body = tidy_value(re.sub(rf"(?i)\s*\b(?:is\s+)?{re.escape(more.group('y'))}\b", " ", body))
    body = re.sub(r"(?i)\s+(?:is|are)$", "", body)
    # "start", "start date", "go there": a light verb with nothing said about what is planned.
    # "my sister's getting married in Italy": the family member's event.
    owner = re.search(r"(?i)\b(?:my|our)\s+(?P<o>[a-z-]+(?:\s+[a-z-]+)?)'s\s+$", clause[:m.start()])
    if owner and not body.lower().startswith(owner.group("o").lower()):
        body = f"{owner.group('o')}'s {body}"
    body = re.sub(r"(?i)\s+(?:is|are)\s+(?=(?:in|at|on)\b)", " ", body)
    if _LIGHT_PLAN.fullmatch(body):
        return []
    # "celebrating 20 years of marriage on Saturday": the date is the anniversary's, not a plan.
    if re.match(r"(?i)(?:wedding\s+)?(?:anniversary|birthday)\b", body) or re.search(r"(?i)\banniversary\b", body) or re.search(r"(?i)\b(?:years?|months?)\s+(?:of\s+marriage|married|together)\b", body) or re.search(r"(?i)\banniversary\s+of\b", clause[:m.start()]):
        return []  # a date of the user's (user.anniversary, user.birthday), not a plan
    # "propose to Ana on our trip to Rome", "talk to Sam in Leeds": after a verb that takes a person, "to" names the person.
    # "taking the job at Siemens, so we're relocating to Munich": where the user goes ("to") before where they are.
    dest = next((d for d in re.finditer(r"\b(?:(?<=relocating\s)|(?<=moving\s)|(?<=move\s)|(?<=relocate\s))to\s+(?P<d>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})", clause)), None) \
        or next((d for d in re.finditer(r"\b(?:to|in|at|visit(?:ing)?|(?:leave|leaving|head|heading|set\s+off|off)\s+for)\s+(?:the\s+)?(?P<d>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})", clause)
                 if not re.search(r"(?i)\b(?:propos\w*|talk\w*|speak\w*|writ\w*|say|said|introduc\w*|married|engaged|chat\w*|reach\w*\s+out|listen\w*|"
                                  r"sing\w*|send\w*|giv\w*|show\w*|lend\w*|explain\w*|apologi[sz]\w*)\s+to\s+(?:the\s+)?$", clause[:d.start("d")])), None)
    destination = _proper(dest.group("d")) if dest else None
    if destination is None:
        # "running the Berlin marathon", "the Web Summit in…": an event named by its town.
        named = re.search(r"\b(?P<d>[A-Z][a-z]+)\s+(?i:marathon|half\s+marathon|half|triathlon|10k|conference|festival|expo|summit|fair|fashion\s+week)\b", clause)
        destination = named.group("d") if named and named.group("d") not in _STOP_CAPS else None
        # "running the chicago marathon in october": a town typed in lower case names the race after "the", unless
        # the word is what kind of race it is ("the first marathon", "the charity 10k").
        lower = None if destination else re.search(
            r"(?i)\bthe\s+(?P<d>(?!(?:first|second|third|next|last|big|local|annual|charity|virtual|city|half|full|ultra|trail|fun|night|"
            r"spring|summer|autumn|fall|winter|whole|same|other|new|official|real|actual|company|work|school|uni)\b)[a-z]{3,})\s+"
            r"(?:marathon|half\s+marathon|half|triathlon|10k|5k|ultra|fun\s+run|conference|festival|expo|summit|fashion\s+week)\b", clause)
        destination = destination or (lower.group("d") if lower else None)
    if destination and (A.en_date(destination) or destination in _STOP_CAPS):
        destination = None
    return [_f("user.plan", trip_value(body, destination), date=date, destination=destination)]


# Going somewhere, said with a verb of travel: "flying out to Tokyo", "heading home to Kerala for Onam",
# "booked flights to Lisbon", "off to Spain with my sister". The trip is its destination (FACTS.md: the
# value names what is planned, the verb of motion and the company are not part of it).
_TRAVEL = re.compile(
    r"(?i)^(?:fly|flying|head|heading|headed|go|going|travel|travell?ing|leave|leaving|drive|driving|off|return|returning|"
    r"jet|jetting|set\s+off|setting\s+off|take\s+(?:a|the)\s+(?:train|ferry|flight)|taking\s+(?:a|the)\s+(?:train|ferry|flight)|"
    r"booked\s+(?:(?:a|the|our|my)\s+)?(?:flights?|trip|tickets?|train|holiday|vacation|ferry))"
    r"(?:\s+(?:out|back|home|over|up|down|away|off))*\s+(?:to|for)\s+(?:the\s+)?")


# "…to Croatia for our honeymoon", "…to Tokyo for a conference", "…for cousin's wedding": the occasion of
# the trip, where said with an article or possessive ("for Onam", "for work" or "for five days" is not one).
_OCCASION = re.compile(
    r"^\s+(?:.*?\s+)?(?i:for)\s+(?:(?i:a|an|the|our|my|his|her|their)\s+|(?=[a-z]))"
    r"(?P<o>(?![\w\s']*\b(?i:weekends?|weeks?|months?|days?|nights?|holidays?|work|business)\b)[\w'-]+(?:\s+[\w'-]+){0,2})\s*$")


def trip_value(body: str, destination: str | None) -> str:
    if destination and (lead := _TRAVEL.match(body)) and body[lead.end():].startswith(destination):
        occasion = _OCCASION.match(body[lead.end() + len(destination):])
        return f"{occasion.group('o')} in {destination}" if occasion else destination
    return body


# Verbs in -ing that say a state of mind, not something done on a date ("I'm hoping to … next week").
_NOT_PLANNED = (r"feeling|thinking|hoping|wondering|trying|looking|struggling|dying|loving|hating|being|waiting|considering|debating|"
                r"craving|kidding|joking|asking|telling|saying|worrying|freaking|stressing|panicking|losing|missing|guessing|"
                r"assuming|expecting|getting\s+(?:used|tired|sick|better|worse|old)|sitting|reading|watching|living|staying\s+up|working\s+on|"
                r"planning\s+on\s+maybe|still|not|never|also|just|really|so|very|always|kinda|like|finishing|studying|doing|thing|nothing|something|anything|everything|morning|evening")


def _b_be_there(m, clause):
    place = _proper(m.group("v"))
    if not place or A.en_date(place) or re.search(r"(?i)\b(?:last|yesterday|ago|if|when|maybe|probably)\b", clause):
        return []
    found = _b_plan(m, clause)
    return [_f("user.plan", place, **{k: v for k, v in c.attributes.items()}) for c in found][:1]


def _b_progressive_plan(m, clause):
    # A past date ("last week", "yesterday") is a report, not a plan.
    if re.search(r"(?i)\b(?:last|yesterday|ago|earlier|already)\b", clause):
        return []
    # "she kept asking when I'm getting married": a question someone else asks is no plan of the user's.
    if re.search(r"(?i)\b(?:when|if|whether|why|ask\w*|wonder\w*)\s+(?:i'm|im|i\s+am|we're|we\s+are|i\s+are)\s+$", clause[:m.start()]):
        return []
    return _b_plan(m, clause)


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "We're walking the Camino in May", "I'm racing the Berlin half on the 12th": a progressive with a date ahead.
    (re.compile(rf"(?:(?<=\b[Ii]'m\s)|(?<=\b[Ii]m\s)|(?<=\b[Ii]\sam\s)|(?<=\b[Ww]e're\s)|(?<=\b[Ww]e\sare\s)|(?<=\b[Ww]ere\s)|(?<=\b[Ii]\sare\s))"
                rf"(?P<v>(?!(?i:{_NOT_PLANNED})\b)[a-z]+ing\b[^,.;!?]*)"), _b_progressive_plan),
    # "got tickets to see Arctic Monkeys in Manchester in July": the event is the plan.
    (re.compile(r"(?i:tickets?|seats)\s+(?i:to|for)\s+(?:(?i:see|watch)\s+)?(?P<v>[^,.;!?]+)"), _b_plan),
    # A clause that opens with the planned act has the user as its dropped subject:
    # "presenting at a conference in Vienna in October", "heading to Rome next week".
    (re.compile(r"^(?P<v>(?i:presenting|speaking|performing|competing|flying|heading|travell?ing|moving|leaving|visiting|driving|starting|getting|having|running|hosting|throwing|going)\b[^,.;!?]*)"), _b_plan),
    (re.compile(r"(?P<v>(?i:leave|leaving|head|heading|headed|fly|flying|set\s+off)\s+(?i:for|to)\s+[^,.;!?]*)"), _b_plan),
    # "got a colonoscopy scheduled for next Wednesday", "dentist booked for the 12th": a booked thing and its date.
    (re.compile(r"(?:(?<=\bgot\s)|(?<=\bhave\s)|(?<=^)|(?<=\bmy\s))(?:(?i:a|an|my|the)\s+)?(?P<v>(?!(?i:got|have|has|had|i|we|i've|we've)\b)[a-z][a-z' -]{2,30}?)\s+(?:(?i:is|'s)\s+)?(?i:scheduled|booked|planned|set)\s+(?i:for|on)\s+"), _b_plan),
    # "I'll be in London the first week of March": being somewhere on a date ahead is a trip there.
    (re.compile(r"(?:(?<=\b[Ii]'ll\s)|(?<=\b[Ii]\swill\s)|(?<=\b[Ww]e'll\s))(?i:be)\s+(?i:in|at|visiting)\s+(?P<v>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})"), _b_be_there),
    (re.compile(r"(?P<v>(?i:flying|fly|travell?ing|heading|going|driving|moving|leaving|visiting)\s+(?i:to|there|back\s+to)?\s*[^,.;!?]*|(?i:off)\s+(?i:to)\s+[^,.;!?]*)"), _b_plan),
    # "Vet appointment for the cat on Tuesday", "big day tomorrow - my PhD viva", "thesis is in, viva is in march": the
    # appointment opens the clause or a part of it (not one reported as done: "interview went well on monday").
    (re.compile(r"(?:^|(?<=[-–—:,]\s))(?![^,.;!?]*\b(?i:went|was|were|got\s+(?:cancelled|moved|postponed)|had|did|passed|failed)\b)(?P<v>(?:(?i:my|our)\s+)?(?:[A-Za-z0-9-]+\s+){0,2}(?i:appointment|interview|exam|viva|surgery|operation|flight|scan|hearing|test|lesson|match|gig|concert)\b[^,.;!?]*)"), _b_plan),
    (re.compile(r"(?i:got|have|having)\s+(?i:a)\s+(?P<v>(?:(?i:first|hot|blind|second)\s+)?(?i:date))\s+(?=(?i:on|tonight|tomorrow|this|next|at)\b)"), _b_plan),
    (re.compile(r"(?P<v>(?i:my\s+)?(?i:flight|trip|wedding|interview|exam|surgery|appointment|conference|marathon|race|move|holiday|vacation|presentation|pitch|audition|recital|defen[cs]e|spring\s+break|getaway|honeymoon|retreat|road\s+trip|cruise|reunion|festival|"
                r"graduation|christening|funeral|housewarming|baby\s+shower|hen\s+do|stag\s+do|retirement\s+party|birthday\s+party|party)\b[^,.;!?]*)"), _b_plan),
    (re.compile(r"(?P<v>(?i:starting|start|booked|getting\s+married|getting\s+(?:my|a|an)|taking|sitting|attending|running|having|presenting|hosting|throwing|doing\s+(?:a|an|the|my))\s+[^,.;!?]+"
                # "doing Tough Mudder in June": an event known by its name needs no article.
                r"|(?i:doing)\s+(?=[A-Z])[^,.;!?]+)"), _b_plan),
    # "I have my citizenship interview next month": a dated appointment with its kind before it.
    (re.compile(r"(?P<v>(?i:my|our|an?|the)\s+(?:[a-z0-9-]+\s+){1,3}?(?i:interview|exam|appointment|surgery|operation|flight|trip|hearing|test|scan|conference|wedding)\b[^,.;!?]*)"), _b_plan),
    (re.compile(r"(?P<v>(?i:parent-teacher\s+conference|dentist|doctor's\s+appointment|job\s+interview|going\s+camping|camping)[^,.;!?]*)"), _b_plan),
]
