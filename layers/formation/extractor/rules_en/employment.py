"""Employment: employer, occupation (role), former employer."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import (
    _ADV,
    _CAP,
    _I,
    _IM,
    _NON_PLACES,
    _ORG,
    _PLACE,
    _clean_org,
    _f,
    _proper,
    value_rule,
)
from layers.formation.extractor.text import tidy_value

_PROFESSIONS = (r"(?:engineer|developer|programmer|teacher|doctor|nurse|designer|student|manager|lawyer|accountant|"
                r"writer|chef|scientist|researcher|architect|analyst|consultant|pharmacist|dentist|journalist|"
                r"photographer|professor|driver|pilot|artist|musician|editor|translator|officer|technician|"
                r"entrepreneur|founder|freelancer|surgeon|therapist|librarian|mechanic|electrician|farmer)")


_PROF_EN = (r"(?:engineer|developer|dev|programmer|swe|sde|teacher|doctor|nurse|designer|manager|lawyer|attorney|accountant|"
            r"writer|chef|cook|scientist|researcher|architect|analyst|consultant|pharmacist|dentist|journalist|vet|"
            r"veterinarian|paramedic|illustrator|producer|barista|bartender|waiter|waitress|cashier|photographer|"
            r"professor|lecturer|driver|pilot|artist|musician|editor|translator|interpreter|officer|technician|"
            r"entrepreneur|founder|freelancer|surgeon|therapist|psychologist|librarian|mechanic|electrician|plumber|"
            r"farmer|firefighter|police\s+officer|cop|soldier|intern|recruiter|marketer|copywriter|"
            r"pm|product\s+manager|data\s+scientist|economist|banker|trader|realtor|agent|secretary|assistant|"
            r"clerk|tutor|coach|trainer|physio|physiotherapist|midwife|carpenter|welder|tailor|baker|butcher|"
            r"hairdresser|stylist|model|actor|actress|dancer|singer|animator|streamer|youtuber|sales\s+rep|"
            r"ceo|cto|cfo|vp|director|lead|supervisor|receptionist|caregiver|nanny|janitor|courier|auditor|actuary|"
            r"paralegal|dietitian|nutritionist|optometrist|radiographer|radiologist|hygienist|social\s+worker|"
            r"stay[- ]at[- ]home\s+(?:dad|mum|mom|parent)|head\s+of\s+[a-z]+|practitioner|registrar|gp|counsell?or|principal|administrator|coordinator|specialist|strategist|planner|operator|inspector|"
            r"surveyor|machinist|chemist|biologist|physicist|statistician|tester|devops|sre|bookkeeper|broker|"
            r"underwriter|flight\s+attendant|sailor|security\s+guard|cleaner|housekeeper|gardener|landscaper|"
            r"painter|builder|contractor|partner|associate|consultant|advisor|adviser|executive)")


# Capitalised words before a role that name no employer: "a French teacher", "a Senior Engineer".
_NOT_EMPLOYER = (r"(?:English|French|German|Spanish|Italian|Chinese|Japanese|Korean|Russian|Arabic|Hindi|Portuguese|Dutch|Greek|"
                 r"Latin|Maths|Math|History|Science|Music|Art|PE|IT|HR|Senior|Junior|Lead|Head|Chief|Staff|Principal|Software|Data|"
                 r"Product|Project|Sales|Marketing|Account|Finance|Freelance|Trainee|Assistant|Deputy|Regional|General|Registered|"
                 r"Qualified|Certified|Licensed|Primary|Secondary|Special|British|American|Canadian|Australian|Irish|Scottish|"
                 r"Welsh|Indian|Full|Part|UX|UI|QA|ER|ICU|NHS|A&E|Uni|University|College|School|Hospital|Police|Army|Navy|RAF|I|"
                 r"PhD|MSc|MBA|BSc|MA|BA|Postdoc|Postgrad|Grad|Graduate|Doctoral|Research|Medical|Clinical|Legal|Dental|Veterinary)")


# Kinds of workplace people name after "a … called": the organisation is the name that follows.
_WORKPLACES = (r"place|company|startup|start-up|firm|restaurant|cafe|café|shop|agency|studio|bakery|bar|pub|clinic|"
               r"hospital|practice|school|store|hotel|lab|nonprofit|non-profit|charity|gym|salon|brewery|bookshop|"
               r"bookstore|garage|consultancy|outfit|team")
_OCC = rf"(?P<v>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})s?\b"


def _occupation(raw: str) -> str | None:
    value = tidy_value(raw)
    value = re.sub(r"^(?:a|an|the)\s+", "", value, flags=re.I)
    value = re.sub(r"^(?:professional|full[- ]time|part[- ]time|new|good|bad|huge|big|little|proud|total)\s+", "", value, flags=re.I)
    # ("night-shift nurse" is a job: the word must stand alone, not open a compound.)
    if re.match(r"(?i)(?:fan|bit|lot|mess|kid|person|type|morning|night|people)\b(?!-)", value):
        return None
    return value or None


def _b_employer(m, clause):
    # "a degree in social work at Sussex", "my charity work at Oxfam": "work" as a noun with a word before it
    # names a field or an activity, not the user's employment.
    if re.match(r"(?i)work\b", m.group()) and re.search(r"(?i)\b(?:social|youth|charity|voluntary|volunteer|case|field|course|care|"
                                                       r"support|community|research|project|group|team|my|the|his|her|their|our)\s+$", clause[:m.start()]):
        return []
    role = m.groupdict().get("role") or ""
    # "a junior at Stanford" is a student year; "a junior producer at the BBC" is a job.
    if re.search(r"(?i)student|undergrad|freshman|sophomore|junior|senior|candidate|phd|postdoc", role) \
            and not re.search(rf"(?i)\b{_PROF_EN}s?$", role):
        return []
    org = _clean_org(m.group("v"))
    if not org or org.lower() in ("work", "home", "school", "college", "uni", "university") or org in _NON_PLACES:
        return []
    out = [_f("user.employer", org)]
    role = m.groupdict().get("role")
    # "I work in IT for the NHS": a department is no occupation (FACTS.md).
    if role and (role.strip() in _NON_PLACES or re.fullmatch(r"[A-Z]{2,3}|(?i:marketing|sales|finance|admin|operations|ops|legal|comms|"
                                                              r"accounts|procurement|logistics|compliance|it|hr|tech|research|planning|product|design)", role.strip())):
        role = None
    if role:
        occupation = _occupation(role)
        if occupation:
            out.append(_f("user.occupation", occupation))
    return out


_AGENT = {"bartend": "bartender", "coach": "coach", "nurse": "nurse", "drive": "driver", "write": "writer", "deliver": "courier", "cook": "cook", "teach": "teacher", "design": "designer",
          "edit": "editor", "report": "reporter", "model": "model", "photograph": "photographer", "tutor": "tutor",
          "nanny": "nanny", "clean": "cleaner", "code": "developer", "develop": "developer", "consult": "consultant",
          "freelance": "freelancer", "illustrate": "illustrator", "translate": "translator"}


def _b_verb_for(m, clause):
    org = _clean_org(m.group("v"))
    if not org or org in _NON_PLACES:
        return []
    return [_f("user.employer", org), _f("user.occupation", _AGENT[m.group("verb").lower()])]


# What a workplace's people do, said as the thing done ("I do payroll", "I handle compliance").
_JOB_FUNCTIONS = (r"backend|back-end|frontend|front-end|full-stack|fullstack|marketing|sales|payroll|hr|recruiting|"
                  r"engineering|design|ux|ui|accounting|accounts|finance|legal|ops|operations|devops|infra|"
                  r"infrastructure|support|customer\s+support|research|data|analytics|qa|testing|security|product|"
                  r"compliance|billing|admissions|logistics|procurement|pr|comms|communications|content|seo|it|"
                  r"tax|audit|underwriting|claims|training|onboarding|growth|partnerships|fundraising|editing")


def _b_do_for(m, clause):
    """"I do QA for Nintendo": the organisation is the employer, what is done the occupation (a bare
    "I do stuff for Amazon" is neither)."""
    role = m.group("role")
    if re.match(r"(?i)(?:it|that|this|stuff|things|something|anything|everything|what|a|the|my|some|lots?|work|favou?rs?|"
                r"volunteer\w*|shopping|laundry|errands|groceries)\b", role):
        return []
    org = _clean_org(m.group("v"))
    if not org or org in _NON_PLACES:
        return []
    return [_f("user.employer", org), _f("user.occupation", tidy_value(role))]


# Common words that stand after "for" / "at" in lower case and are no organisation.
_LOWER_NO_ORG = (r"(?:hours|ages|miles|minutes|days|weeks|months|years|work|fun|free|money|cash|tips|peanuts|pleasure|exercise|charity|"
                 r"practice|business|living|long|now|real|nothing|everyone|anyone|someone|people|friends|family|mum|mom|mam|dad|kids|"
                 r"children|grandma|nan|school|college|uni|home|night|nights|once|least|all|christmas|xmas|holiday|holidays|vacation|"
                 r"trip|move|moving|myself|yourself|them|him|her|us|it|this|that|these|those|the|a|an|my|our|his|their|your|some|"
                 r"two|three|minimum|less|more|extra|cheap|half|each|every|both|another|other|one|ten|twenty|whoever|anybody)")


# The words of a job hunt: what makes "X want me" a job and not a person's wish.
_JOB_HUNT = re.compile(r"(?i)\bcall\s*back\b|\binterviews?\b|\boffer\b|\bstart\s+date\b|\bthe\s+(?:job|role|position)\b|\bhired\b|\bcontract\b|"
                       r"\bfirst\s+day\b|\bonboarding\b|\brecruiter\b|\bapplication\b|\bapplied\b|\bassessment\s+centre\b|\bgrad\s+scheme\b")


def _b_hired_by(m, clause):
    # "they hired me", "my friend's company hired me": only a named organisation is the employer.
    if re.match(r"(?i)(?:they|she|he|it|we|someone|somebody|nobody)\b", m.group("v")):
        return []
    return _b_employer(m, clause)


def _b_intro_list(m, clause):
    out = [_f("user.age", m.group("age")), *_b_occupation(m, clause)]
    place = m.group("place") or m.group("place2")
    if place and place not in _NON_PLACES:
        out.append(_f("user.home_city", place))
    return out


def _b_former(m, clause):
    org = _clean_org(m.group("v"))
    return [_f("user.former_employer", org)] if org else []


def _b_occupation(m, clause):
    value = _occupation(m.group("v"))
    return [_f("user.occupation", value)] if value else []


def _b_occupation_as(m, clause):
    # "as a kid", "as a treat" are no jobs: only a profession word counts (the pattern holds one).
    if re.search(r"(?i)\b(?:when|back|used\s+to|former|ex-|worked|was|were|had\s+been|did)\b", clause[:m.start()]):
        return []
    # "As a nurse, my mum …": a role opening the clause is the subject's after it, which must be the user.
    if not clause[:m.start()].strip() and not re.match(r"(?i)\s*,?\s*(?:i|i'm|i've|i'd|im|ive|myself|me)\b", clause[m.end():]):
        return []
    return _b_occupation(m, clause)


def _b_teach(m, clause):
    subject = tidy_value(m.group("v"))
    # "I teach a spin class at 6:30", "teach a pottery workshop on Sundays": one class is a thing the user does
    # (a habit, when it recurs), the subject taught without an article is the job ("I teach maths").
    if re.match(r"(?i)(?:an?|the|my|one|two|three|some)\s+(?:[a-z]+\s+){0,2}(?:class(?:es)?|sessions?|lessons?|workshops?|courses?)$", subject):
        return []
    return [_f("user.occupation", f"{subject} teacher")] if subject and len(subject.split()) <= 4 else []


_legacy_employer = value_rule("user.employer", _proper)
_legacy_occupation = value_rule("user.occupation", lambda raw: tidy_value(raw).lower())


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:at|for)\s+{_PLACE}"), _legacy_employer),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?)\s+(?P<v>(?i:(?:[a-z-]+\s+){{0,2}}{_PROFESSIONS}))\b"), _legacy_occupation),
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:at|for)\s+{_CAP}(?:\s+{_CAP}){{0,3}}\s+(?i:as)\s+(?i:an?)\s+(?P<v>(?i:(?:[a-z-]+\s+){{0,2}}{_PROFESSIONS}))\b"), _legacy_occupation),
    (re.compile(rf"{_I}\s+{_ADV}(?i:work)\s+(?i:as)\s+(?i:an?)\s+(?P<v>(?i:(?:[a-z-]+\s+){{0,2}}{_PROFESSIONS}))\b"), _legacy_occupation),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "my old job at IBM was so boring", "in my last job at Target", "my previous employer, Oracle": a job the user had.
    (re.compile(rf"(?i:my|our)\s+(?i:old|previous|former|last|first|ex)\s+(?i:job|employer|company|role|gig|workplace|position)\s*(?:,\s*|\s+(?i:at|with|was\s+at|was\s+with|was)\s+){_ORG}"), _b_former),
    # "my new role is product manager at Canva", "been at Deloitte for 3 years as an auditor"
    (re.compile(rf"(?i:my\s+(?:new\s+|current\s+)?(?:role|job|title|position)\s+is|i\s+work\s+as|working\s+as|promoted\s+to|started\s+as|starting\s+as|hired\s+as|(?:new\s+)?(?:role|job|position)\s+as)\s+(?i:an?\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})\s+(?:(?i:over|out|down|up|here)\s+)?(?i:at|for|with)\s+{_ORG}"), _b_employer),
    (re.compile(rf"(?i:been|worked|working)\s+(?i:at|for|with)\s+{_ORG}\s+(?:[\w ]{{1,25}}?\s+)?(?i:as)\s+(?i:an?\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})\b"), _b_employer),
    (re.compile(rf"(?i:interning|intern|interned)\s+(?i:at|for|with)\s+{_ORG}"), _b_employer),
    (re.compile(rf"(?i:got|accepted|took|received|have)\s+(?i:a|an|the)?\s*(?i:job\s+)?(?i:offer)\s+(?i:from|at)\s+{_ORG}"), _b_employer),
    # "a nurse at st mary's hospital": a lower-case organisation named by its kind.
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?\s+|the\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})\s+(?i:at|for|with)\s+(?P<v>(?!(?:a|an|the|this|that|my|our|some)\s)(?:[a-z.'&-]+\s+){{1,3}}(?:{_WORKPLACES}|hospital|bank|university|college|library|museum|council|pharmacy))\b"), _b_employer),
    # "I work in HR at Unilever": a function or team, then the employer.
    (re.compile(rf"(?i:work(?:ing)?|been)\s+(?i:in)\s+(?P<role>[A-Za-z][\w&-]*(?:\s+[a-z]+)?)\s+(?i:at|for)\s+{_ORG}"), _b_employer),
    # "… at a small place called Nonna's": an unnamed kind of workplace, then its name.
    (re.compile(rf"(?i:at|for|with|to|joined|joining)\s+(?i:a|an|this|the)\s+(?:[a-z-]+\s+){{0,2}}(?i:{_WORKPLACES})(?:\s+(?i:in|near|off)\s+{_CAP}(?:\s+{_CAP})?)?\s+(?i:called|named)\s+{_ORG}"), _b_employer),
    # "I'm at Google now", "doing a contract for IBM": where the user works, said without "work".
    (re.compile(rf"{_IM}\s+(?:(?i:now|currently)\s+)?(?i:at|with)\s+{_ORG}(?=\s+(?i:now|these\s+days|full[- ]time|currently)\b|\s*,\s*(?i:been\s+there|for|since|as|in\s+the\s+[\w\s]{{1,25}}?(?:department|team|division|group|office))\b|\s+(?i:for|since)\s+(?:\d|a|two|three|four|five|ten|over|almost|nearly)\w*)"), _b_employer),
    # "im a dev at shopify", "got a job at the bbc": a lower-case name after a role or a job.
    (re.compile(rf"(?:{_IM}\s+{_ADV}(?i:an?\s+|the\s+)?(?P<role>(?:[a-z-]+\s+){{0,2}}{_PROF_EN})|(?<!n't\s)(?<!not\s)(?i:got|landed|have|started|new)\s+(?i:a|the|my)?\s*(?i:new\s+)?(?i:job|role|position|internship))\s+(?i:at|with|for)\s+(?:the\s+)?"
                r"(?P<v>(?!(?:a|an|the|my|our|this|that|home|work|night|school|uni|college|some|one|moment|minute|present|least|all|first|last|once)\b)[a-z][a-z0-9&'-]{1,20})(?=\s*$|\s*[,.;!?]|\s+(?:now|as|since|and|but|in|rn|lol|for|on|last|next|this)\b)"), _b_employer),
    (re.compile(rf"(?i:contract|contracting|consulting|freelancing)\s+(?i:for|with|at)\s+{_ORG}"), _b_employer),
    # "commuting into Canary Wharf every day for JPMorgan": the organisation the commute is for employs the user.
    (re.compile(rf"(?i:commute|commuting|commutes)\b[^,.;!?]{{0,40}}?\b(?i:for)\s+{_ORG}"), _b_employer),
    # "moved over from the Android team at Samsung": the employer left for the current one.
    (re.compile(rf"(?i:moved|came|switched|jumped)\s+(?i:over)\s+(?i:from)\s+(?:(?i:the)\s+[\w ]{{1,25}}?\s+(?i:team|division|department|group)\s+(?i:at)\s+)?{_ORG}(?=\s*(?:$|[,.;!?])|\s+(?i:last|after|in)\b)"), _b_former),
    # "data engineer for a logistics firm, Maersk": the kind of workplace, then its name in apposition.
    (re.compile(rf"(?i:at|for|with)\s+(?i:a|an)\s+(?:[a-z-]+\s+){{0,2}}(?i:{_WORKPLACES}|firm|company)\s*,\s*{_ORG}(?=\s*(?:,|$|\.|!))"), _b_employer),
    # "started at google on monday": a lower-case organisation right after a joining verb.
    (re.compile(r"(?i:started\s+at|joined|starting\s+at|start\s+at)\s+(?P<v>(?!(?:a|an|the|my|our|this|that|work|home|school|uni|college|noon|midnight|\d)\b)[a-z][a-z0-9&'-]{1,20})(?=\s+(?:on|as|last|this|in|today|yesterday|back)\b|\s*$|\s*[,.;!?])"), _b_employer),
    (re.compile(rf"(?i:work(?:ing)?|been)\s+(?:(?i:full[- ]time|part[- ]time|remotely|remote|nights|days|shifts|weekends|mornings)\s+)?(?i:at|for)\s+{_ORG}"), _b_employer),
    (re.compile(r"(?i:work|working|job|intern(?:ing)?)\s+(?i:at|for|in)\s+(?P<v>[\u4e00-\u9fff]{2,8})"), _b_employer),
    # "i work nights at the royal infirmary": a lower-case workplace named by its kind.
    (re.compile(r"(?i:work|working|job)\s+(?:(?i:nights|days|shifts|weekends|full[- ]time|part[- ]time)\s+)?(?i:at|for)\s+(?:the\s+)?(?P<v>(?!(?i:a|an|my|our|this|that|some|one|another)\s)(?:[a-z.'&-]+\s+){1,3}(?:hospital|infirmary|council|university|college|library|museum|bank|clinic|surgery))\b"), _b_employer),
    (re.compile(rf"(?i:joined|joining|started\s+at|starting\s+at|start\s+at|switched\s+to|jumped\s+ship\s+to|jumping\s+ship\s+to|defected\s+to|moved\s+over\s+to|(?:a\s+)?(?:new\s+)?(?:job|position|role|gig|internship)\s+(?:at|with)|hired\s+by|hired\s+at|poached\s+by|"
                rf"got\s+(?:the|an)\s+offer\s+from|accepted\s+(?:an?\s+)?offer\s+(?:from|at|with)|signed\s+with|signed\s+(?:my|the|an?)\s+(?:job\s+)?offer\s+(?:with|from|at)|now\s+at|employed\s+(?:at|by))\s+{_ORG}"
                rf"(?:\s+(?i:as)\s+(?i:an?\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}[A-Za-z-]+))?"), _b_employer),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?\s+|the\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})\s+(?:(?i:over|out|down|up|here)\s+)?(?i:at|for|with)\s+{_ORG}"), _b_employer),
    (re.compile(r"(?i:work|working|job)\s+(?i:at|for)\s+(?P<v>(?!(?:a|an|the|home|night|nights|school|my|our|this|that|it|once|least|all|him|her|them|myself|some|two|three)\b)[a-z][a-z0-9&'-]{1,20})(?=\s*$|\s*[,.;!?]|\s+(?:now|as|since|and|but|in|rn|lol|for\s+(?:\d|a|an|two|three|four|five|six|ten|over|almost|nearly|the\s+past|the\s+last|years|months))\b)"), _b_employer),
    (re.compile(r"(?i:officially\s+)?(?i:an?\s+)(?P<v>[A-Z][\w&'-]*)\s+(?i:employee)"), _b_employer),
    (re.compile(rf"(?i:as)\s+(?i:an?\s+|the\s+)?(?P<role>(?:[A-Za-z-]+\s+){{0,3}}{_PROF_EN})\s+(?:(?i:over|out|down|up|here)\s+)?(?i:at|for|with)\s+{_ORG}"), _b_employer),
    (re.compile(rf"(?i:walked\s+away\s+from|walked\s+out\s+(?:of|on)|stepped\s+down\s+from|parted\s+ways\s+with|left|quit|resigned\s+from|laid\s+off\s+(?:from|by)|let\s+go\s+from|fired\s+from|no\s+longer\s+(?:at|with|work\s+(?:at|for))|"
                rf"handed\s+in\s+my\s+(?:notice|resignation)\s+(?:at|to)|"
                # "handed my badge back at Accenture", "turned in my laptop to Ocado": the work things given back.
                rf"(?:handed|gave|turned|returned|dropped\s+off)\s+(?:in\s+|back\s+)?my\s+(?:badge|laptop|keys|lanyard|pass|keycard|key\s+card|id\s+card|uniform)\s+(?:back\s+|in\s+)?(?:at|to)|(?:handed|gave|put\s+in|turned\s+in|handed\s+in)\s+my\s+(?:two|2)\s+weeks(?:'\s+notice|\s+notice)?\s+(?:to|at|with)|resigned\s+at|quit\s+my\s+job\s+at|made\s+redundant\s+(?:from|by|at)|left\s+my\s+job\s+at|gave\s+notice\s+at|leaving|done\s+with|finished\s+(?:up\s+)?at|"
                rf"spent\s+(?:\w+\s+){{1,2}}(?:years?|months)\s+(?:at|with)|"
                # "used to work at Deloitte, these days I'm at Monzo": a named past employer (FACTS.md).
                rf"used\s+to\s+work\s+(?:at|for|with)|previously\s+worked\s+(?:at|for|with)|formerly\s+(?:worked\s+)?(?:at|for|with))\s+{_ORG}"), _b_former),
    (re.compile(rf"(?i:after)\s+\d+\s+(?i:yrs?|years|months)\s+(?i:at|with)\s+{_ORG}\s*,?\s+(?i:i\s+)?(?i:(?:finally\s+)?(?:left|quit|resigned))"), _b_former),
    # "after 5 years at the BBC I've just moved to ITV": the years at X ended with a move.
    (re.compile(rf"(?i:after)\s+(?:\w+\s+){{1,2}}(?i:yrs?|years|months)\s+(?i:at|with)\s+{_ORG}(?=[^.;!?]*\b(?i:moved|joined|switched|left|quit|now|started|jumped|defected|went)\b)"), _b_former),
    (re.compile(r"(?i:resigned\s+from|left|quit|made\s+redundant\s+from|laid\s+off\s+from)\s+(?P<v>the\s+(?:council|civil\s+service|army|navy|police|nhs|air\s+force))\b"), _b_former),
    # "I've been a bus driver for 20 years": a role held up to now.
    (re.compile(rf"(?i:i've\s+been|ive\s+been|i\s+have\s+been)\s+(?i:an?)\s+{_OCC}(?![^.;!?]*\b(?i:before|until|till|back\s+then)\b)"), _b_occupation),
    # "been a paralegal for 6 yrs now": the subject dropped, the role still held.
    (re.compile(rf"^(?:(?i:i've|ive)\s+)?(?i:been)\s+(?i:an?)\s+{_OCC}(?=\s+(?i:for|since)\b)(?![^.;!?]*\b(?i:before|until|till|back\s+then|ago)\b)"), _b_occupation),
    # "my husband and I are both teachers", "me and my wife are both nurses": a job the user shares (the subject check
    # reads the user among the subjects before "are both").
    (re.compile(rf"(?i:are|were)\s+(?i:both)\s+(?i:an?\s+)?{_OCC}"), _b_occupation),
    (re.compile(rf"(?i:work(?:ing)?)\s+(?i:as)\s+(?i:an?\s+)?{_OCC}"), _b_occupation),
    # "I drive for Uber", "I write for the Guardian": the work named by its verb, then who it is for.
    (re.compile(rf"(?:^|(?<=\s))(?i:i)\s+(?:(?i:currently|now|also|mostly|still)\s+)?(?P<verb>(?i:drive|write|deliver|cook|teach|design|edit|report|model|photograph|tutor|nanny|clean|code|develop|consult|freelance|illustrate|translate))\s+(?i:for)\s+{_ORG}(?=\s*(?:$|[,.;!?])|\s+(?i:now|these|and|but|as|since|part|full)\b)"), _b_verb_for),
    # "still packing boxes for amazon", "driving for uber these days", "delivering pizzas for dominos": a name typed in lower
    # case is an organisation when a verb of shift work governs it and nothing common stands there ("driving for hours",
    # "packing for the trip", "cooking for my kids" are not employers).
    (re.compile(r"(?:^|(?<=\s))(?:(?i:i|i'm|im|i\s+am|i've\s+been|been|still|now|currently|mostly)\s+)*"
                r"(?i:(?:drive|drives|driving|deliver|delivers|delivering|ride|rides|riding|courier|couriering)(?:\s+(?:pizzas?|food|parcels|packages|groceries|takeaways?|meals|orders))?"
                r"|(?:pack|pick|stack|sort|scann?|load)(?:s|ing)?\s+(?:boxes|parcels|orders|packages|shelves|stock|trucks|vans)"
                r"|(?:do|doing|work|working)\s+(?:(?:night|day|weekend|evening|warehouse|delivery)\s+)?(?:shifts|deliveries|nights|weekends))"
                rf"\s+(?i:for|at)\s+(?P<v>(?!{_LOWER_NO_ORG}\b)[a-z][a-z0-9&'-]{{2,20}})"
                r"(?=\s*$|\s*[,.;!?—–]|\s+-\s|\s+(?:now|these\s+days|nowadays|part[- ]time|full[- ]time|at\s+the\s+moment|rn|atm|and|but|since|while|to\s+(?:pay|top\s+up|make)|lol|tbh)\b"
                r"|\s+(?:most|every|on|at|in\s+the|during|over|some|a\s+few|\d+|two|three|four|five)\s+(?:\w+\s+)?(?:days|nights|evenings|mornings|afternoons|weekends|weekdays|shifts|week|weeks|times)\b)"),
     lambda m, c: [_f("user.employer", m.group("v")[0].upper() + m.group("v")[1:])]),
    # "Netflix hired me last month!!", "Arup took me on as a graduate": the employer as the subject of hiring.
    (re.compile(rf"{_ORG}\s+(?:(?i:just|finally|officially)\s+)?(?i:hired|took\s+me\s+on|brought\s+me\s+on|offered\s+me\s+(?:a|the)\s+(?:job|role|position))(?:\s+(?i:me))?\b"), _b_hired_by),
    # "got the call back — Deloitte want me!!", "after three interviews Arup wants me": an organisation wanting the
    # user, said in the words of a job hunt, is the job taken (a name wanting "me to …" is anyone's wish).
    (re.compile(rf"{_ORG}\s+(?:(?i:actually|really|finally|officially|still)\s+)?(?i:want|wants|picked|chose)\s+(?i:me)\b(?!\s+(?i:to|for\s+dinner|back|over|round|around|dead|gone|out)\b)"),
     lambda m, c: _b_hired_by(m, c) if _JOB_HUNT.search(c) else []),
    # "I teach at Lincoln High", "I bartend at the Crown", "I coach at a club called …": the work named by its
    # verb, then where it is done (a verb that is no job, "I write at Starbucks", is not in the list).
    (re.compile(rf"(?:^|(?<=\s))(?i:i)\s+(?:(?i:currently|now|also|mostly|still|part[- ]time)\s+)?(?P<verb>(?i:teach|cook|bartend|coach|nurse|tutor))\s+(?:(?i:part[- ]time|full[- ]time|english|maths?|math|science|music|art|history|french|spanish|piano|nights)\s+)?(?i:at)\s+{_ORG}"), _b_verb_for),
    # "marketing manager at Nike", "Sous chef at Dishoom now": a role opening the clause, at a named employer.
    (re.compile(rf"(?:^|(?<=:\s))(?:(?i:a|an)\s+)?(?P<role>(?:[A-Za-z&-]+\s+){{0,2}}{_PROF_EN})\s+(?i:at|for|with)\s+{_ORG}"), _b_employer),
    # "Welder, from Gdańsk originally", "part-time barista, part-time PhD", "nurse, 34, Leeds": a role opening a
    # self-introduction, followed by more of it.
    (re.compile(rf"^(?:(?i:a|an)\s+)?(?P<v>(?:[A-Za-z-]+\s+){{0,2}}(?i:{_PROF_EN}))\s*,\s*(?=(?i:from|based|living|originally|currently|now|part-time|full-time|part\s+time|full\s+time|married|single|mum|mom|dad|\d))"), _b_occupation),
    # "currently at Deloitte, audit team", "now with Accenture": where the user is, the subject dropped, when
    # nothing of a visit follows (a team, a role, how long, or the clause ends).
    (re.compile(rf"^(?i:currently|now|these\s+days|nowadays)\s+(?i:at|with)\s+{_ORG}(?=\s*$|\s*[,;]\s*(?:[a-z]+\s+)?(?i:team|department|as|been|since|for)\b|\s+(?i:as|since|for\s+\d)\b)"), _b_employer),
    # "work's at Deloitte", "work is at the BBC": where the user works, the subject dropped.
    (re.compile(rf"^(?i:work's|work\s+is|my\s+work\s+is|job's|my\s+job\s+is|job\s+is)\s+(?i:at|with|for)\s+{_ORG}"), _b_employer),
    # "been with Shell for ten years", "I've worked at IKEA since 2019": still there.
    (re.compile(rf"(?:(?i:i've|ive|i\s+have)\s+)?(?i:been\s+with|worked\s+(?:at|for))\s+{_ORG}(?=\s+(?i:for|since)\b)(?![^.;!?]*\b(?i:until|till|before|ago|then\s+(?:left|quit)))"), _b_employer),
    # "my employer is Siemens", "Google's my employer", "my company, Acme Corp,": the employer by name.
    (re.compile(rf"(?i:my\s+|our\s+)(?i:employer|company|firm|workplace)\s*(?:(?i:is)|,)\s+{_ORG}"), _b_employer),
    (re.compile(rf"{_ORG}(?:'s|\s+is)\s+(?i:my\s+(?:employer|company))\b"), _b_employer),
    # "I'm on the marketing team at Nike", "part of the Spotify data team": a team of the employer.
    (re.compile(rf"(?i:on|in|part\s+of|join(?:ed|ing)?)\s+(?i:the)\s+(?:[a-z-]+\s+){{1,3}}(?i:team|department|division|group|squad)\s+(?i:at|for|with)\s+{_ORG}"), _b_employer),
    (re.compile(rf"(?i:part\s+of|on|in|join(?:ed|ing)?)\s+(?i:the)\s+{_ORG}\s+(?:[a-z-]+\s+){{0,2}}(?i:team|department|division|squad)\b"), _b_employer),
    # "I'm a Netflix engineer", "I'm an Amazon delivery driver": the employer named before the role.
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?)\s+(?P<v>(?!{_NOT_EMPLOYER}\b)[A-Z][\w&.-]+)\s+(?P<role>(?:[a-z-]+\s+){{0,2}}{_PROF_EN})\b"), _b_employer),
    # "I do QA for Nintendo", "I do the accounts for a charity": the work, then who it is for.
    # "I do backend stuff at Shopify", "I handle payroll at Deloitte", "I run marketing at a place called
    # Loop": a job function done at a named organisation ('at' alone is also where hobbies are done, so
    # only the functions of a workplace count: "I do yoga at the Y" is none).
    (re.compile(rf"(?:^|(?<=\s))(?i:i)\s+(?:(?i:mostly|mainly|basically|currently|now|still)\s+)?(?i:do|handle|run|manage|lead|head\s+up|work\s+on|look\s+after|take\s+care\s+of)\s+"
                rf"(?P<role>(?i:{_JOB_FUNCTIONS})(?:\s+(?i:{_JOB_FUNCTIONS}))?)(?:\s+(?i:stuff|work|things|side))?\s+(?i:at|for)\s+{_ORG}"
                rf"(?=\s*(?:$|[,.;!?])|\s+(?i:now|these|and|but|as|since|mostly|full|part)\b)"), _b_do_for),
    (re.compile(rf"(?:^|(?<=\s))(?i:i\s+do|i've\s+been\s+doing|i'm\s+doing)\s+(?P<role>[A-Za-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?i:for)\s+{_ORG}(?=\s*(?:$|[,.;!?])|\s+(?i:now|these|and|but|as|since|mostly|full|part)\b)"), _b_do_for),
    # "started at google on monday as a SWE": a role said with "as", after the job it belongs to.
    # An acronym role is written in capitals ("as an SRE", "as a PM"): the role may be upper-case here.
    (re.compile(rf"(?:^|(?<=\s))(?i:as)\s+(?i:an?)\s+(?i:{_OCC})(?!\s+(?i:myself|yourself))"), _b_occupation_as),
    # "Sous chef at a busy tapas place", "data engineer for a logistics firm": a role opening the clause.
    (re.compile(rf"(?:^|(?<=:\s))(?P<v>(?:[A-Za-z&-]+\s+){{0,2}}{_PROF_EN})\s+(?=(?i:at|for|with)\s+(?:(?i:a|an|the)\s|[A-Z]))"), _b_occupation),
    # ("I'm a GP", "I'm an SRE": after "a" the role may be an acronym in capitals, as after "as" above; after "the"
    # it stays lower case, for "I am the CEO of procrastination lol" is a joke.)
    (re.compile(rf"{_IM}\s+{_ADV}(?i:an?)\s+(?i:{_OCC})"), _b_occupation),
    (re.compile(rf"{_IM}\s+{_ADV}(?i:the)\s+{_OCC}"), _b_occupation),
    (re.compile(rf"(?i:my\s+job\??|job:|occupation:|by\s+profession\s+i'm\s+an?)\s+{_OCC}"), _b_occupation),
    # "my role is clinical data manager", "role is senior analyst" (a new job's details), "my job title's product
    # owner": the job named by the word for it. (Only the user's: "my", or the word opening the clause or a part of it.)
    (re.compile(rf"(?:(?i:my)\s+|^|(?<=,\s))(?:(?i:new|current|official|actual)\s+)?(?i:role|job\s+title|title|position)(?:'s|\s+(?i:is|will\s+be))\s+(?:(?i:an?|the)\s+)?(?i:{_OCC})"), _b_occupation),
    (re.compile(r"(?i:i\s+teach)\s+(?:(?i:year|grade|class|p|form)\s*\d+\b|\d{1,2}(?i:st|nd|rd|th)\s+(?i:grade|graders|class)|(?i:kindergarten|preschool|reception|nursery|high\s+school|middle\s+school|primary|secondary|elementary)\b)"), lambda m, c: [_f("user.occupation", "teacher")]),
    # "hey, Rohan here. 34, accountant, trying to get fit": a self-introduction in fragments, age then role.
    (re.compile(rf"^(?P<age>[1-9]\d)\s*,\s*(?P<v>(?:[a-z-]+\s+){{0,2}}{_PROF_EN})(?=\s*(?:$|[,.;!])|\s+(?i:by\s+trade|here)\b)"),
     lambda m, c: [_f("user.age", m.group("age")), *_b_occupation(m, c)]),
    # "I'm Lena Okafor, 29, product designer based out of Leeds", "Aisha, 32, accountant, London": after the
    # age in a self-introduction list, the role (and the town it is followed by) are the user's.
    (re.compile(rf"(?<=,)\s*(?P<age>[1-9]\d)\s*,\s*(?P<v>(?:[a-z-]+\s+){{0,2}}{_PROF_EN})(?:\s*,\s*(?P<place>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)(?=\s*(?:$|[,.!;]))|\s+(?i:based|living)\s+(?i:in|out\s+of)\s+(?P<place2>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))?"),
     _b_intro_list),
    # "backend dev again", "nurse now": a role said on its own, the subject dropped, as an update.
    (re.compile(rf"^(?:(?i:a|an)\s+)?(?P<v>(?:[a-z-]+\s+){{0,2}}{_PROF_EN})\s+(?i:again|now|these\s+days|by\s+trade)\s*$"), _b_occupation),
    (re.compile(r"(?i:i\s+teach)\s+(?P<v>[a-z]+(?:\s+[a-z]+){0,2}?)(?=\s+(?i:at|to|in|for|part[- ]time|full[- ]time|and|on|online|privately)\b|\s*$|\s*[,.;!])"), _b_teach),
    # "I work for myself, freelance graphic designer": a self-employed role said on its own.
    (re.compile(rf"(?:^|(?<=,)\s*)(?:(?i:a|an)\s+)?(?P<v>(?i:freelance|self-employed|independent|contract)\s+(?:[A-Za-z-]+\s+){{0,2}}{_PROF_EN})\b"), _b_occupation),
    (re.compile(r"(?i:doing|do)\s+(?:(?i:some\s+)?)(?P<v>(?i:freelance|contract)\s+[a-z]+(?:\s+work)?)"), _b_occupation),
]
