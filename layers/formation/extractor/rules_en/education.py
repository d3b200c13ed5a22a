"""Education: school or programme, with degree, field and status."""
from __future__ import annotations

import re
from datetime import date

from layers.formation.extractor.rules_en.common import _ORG, _clean_org, _f
from layers.formation.extractor.text import tidy_value


def _b_lower_school(m, clause):
    return _b_education(m, clause) if m.group("v") == m.group("v").lower() else []


def _b_school_kind(m, clause):
    return [_f("user.education", tidy_value(m.group("v")).lower(), status="studying")]


_SCHOOLISH = re.compile(r"(?i)\b(?:universit\w*|college|school|academy|institute|polytechnic|tech|state|uni|undergrad|degree|grad|"
                        r"class\s+of|studied|major\w*|masters?|master's|phd|mba|bachelor'?s|semester|campus|alum\w*)\b")


def _b_school_kind_attended(m, clause):
    """"night classes at the community college": a school named by its kind, with what _b_education reads of it."""
    return [_f(c.memory_key, c.value.lower(), **c.attributes) for c in _b_education(m, clause)]


_DEGREE_WORD = r"(?:phd|ph\.d\.?|dphil|doctorate|master'?s|masters|mba|msc|ma|mres|mphil|bsc|ba|bs|beng|meng|llb|llm|degree|diploma|major|minor)"
# Words that sit beside a degree without naming its subject: "doing a part-time PhD", "my second degree".
_NOT_FIELD = frozenset("""
    a an the my his her our their your its this that these some any one two first second third fourth final last next new old
    part-time full-time part full time online evening night distance executive joint double honours hons
    doing did done got get getting finished finishing finish completed completing started starting start earned have has had
    hold holds holding pursuing want wants wanted applying applied about year years in at of for from with and or but to on
    is was are be been being i im i'm me currently now still just also really proper actual real whole entire
    undergrad grad postgrad college uni university bachelor bachelors associate associates school
    january february march april may june july august september october november december spring summer autumn fall winter
""".split())
# What follows a field and ends it: "degree in psychology part-time alongside work", "majoring in nursing, graduating".
_FIELD_END = re.compile(r"(?i:\s+(?:at|from|with|in|on|and|but|so|because|while|alongside|since|for|part-time|full-time|part|full|online|"
                        r"remotely|graduating|this|next|last|starting|finishing|hopefully|lol|rn|atm|now)\b|\s*[^\w\s'&-]|$)")


def _field_said(clause: str, school: str) -> str | None:
    """The subject of a degree said beside it: after "degree in" / "majoring in" ("a degree in psychology",
    "majoring in nursing"), or as the words right before the degree ("a marine biology PhD", "history MA")."""
    after = re.search(rf"\b(?i:{_DEGREE_WORD}|majoring|majored|specialising|specializing)\s+(?i:in)\s+(?P<f>[A-Za-z][a-z&'-]*(?:\s+[a-z&'-]+){{0,3}}?)(?={_FIELD_END.pattern})", clause)
    if after and after.group("f").lower() not in _NOT_FIELD and after.group("f").split()[0].lower() not in _NOT_FIELD \
            and after.group("f").casefold() not in school.casefold():
        return after.group("f")
    before = re.search(rf"(?<![\w'-])(?P<f>[a-z][a-z&-]+(?:\s+[a-z][a-z&-]+)?)\s+(?i:{_DEGREE_WORD})\b(?!\s+(?i:in|student|students|program|programme|course)\b)", clause)
    if before:
        # Only the words next to the degree count: "doing marine biology PhD" keeps "marine biology".
        kept: list[str] = []
        for word in reversed(before.group("f").split()):
            if word.lower() in _NOT_FIELD:
                break
            kept.insert(0, word)
        if kept and not kept[-1].endswith(("ly", "ed")):
            return " ".join(kept)
    return None


def _b_education(m, clause):
    school = _clean_org(m.group("v"))
    if not school:
        return []
    # "I went to Paris last month": going to a place is schooling only when a school is in the words.
    # "went to the GP", "went to the ER": an acronym with "the" is a place one goes to; a school said so needs
    # a school word beside it ("went to MIT" does not).
    if re.match(r"(?i)went\s+to\b", m.group()) and not (re.fullmatch(r"[A-Z]{2,6}", school) and not re.match(r"(?i)the\s", m.group("v"))) \
            and not _SCHOOLISH.search(clause):
        return []
    groups = m.groupdict()
    degree = groups.get("deg")
    field_ = groups.get("field")
    # A degree one holds ("I have a master's from LSE", "my PhD is from MIT") is finished; being
    # "in my third year", "a sophomore" or "studying" is not.
    status = "graduated" if re.search(r"['’]\d{2}\b|\bgrad\b(?!\s+(?:school|student|program))|graduat|\bgrad\s+(?:from|of)\b|\bdid\b|went\s+to|alum|finished|completed|defended|got\s+my|\bearned\b|"
                                      r"\b(?:have|hold|got)\s+(?:a|an|my)\s+(?:[a-z'-]+\s+){0,2}(?:degree|master'?s|masters|phd|mba|bachelor'?s|ba|bsc|msc|ma)\b|"
                                      r"\b(?:degree|master'?s|masters|phd|mba|bachelor'?s|ba|bsc|msc)\b[\w\s]{0,25}\bfrom\b|\bstudied\b", clause, re.I) \
        and not re.search(r"(?i)\bstill\s+studying|\bcurrently\s+(?:(?:a|an|in|at|doing|studying|enrolled|taking|finishing|working|pursuing|writing|on|my|\w+ing\s+my)\b)|\bin\s+my\s+\w+\s+year", clause) else \
        "studying" if re.search(r"studying|doing|writing|enrolled|going\s+for|classes|halfway|pursuing|finishing|student|candidate|\bin\s+my\b|year|junior|senior|sophomore|freshman|currently|\bat\b", clause, re.I) else None
    if re.search(r"(?i)\bdropp(?:ed|ing)\s+out\b|\bquit\b", clause):
        status = None
    # "graduating in may", "I'll graduate next year", "due to graduate in June": a degree still to be finished.
    if re.search(r"(?i)\bgraduating\b|\b(?:will|'ll|gonna|going\s+to|about\s+to|due\s+to|set\s+to|hoping\s+to|hope\s+to|should|supposed\s+to)\s+graduate\b|"
                 r"\bgraduate\s+(?:in|next|this|at\s+the\s+end)\b", clause) and not re.search(r"(?i)\bgraduated\b", clause):
        status = "studying"
    if degree is None:
        # "my undergrad at McGill and then a PhD in linguistics at Edinburgh": the degree said last before
        # this school (or inside its phrase) is its own, not the first one of the clause.
        said = list(re.finditer(r"(?i)\b(phd|master'?s|masters|mba|bachelor'?s|associate'?s|undergrad|ba|bs|bsc|msc|ma|llm|jd|md)\b", clause[:m.end()]))
        found = said[-1] if said else re.search(r"(?i)\b(phd|master'?s|masters|mba|bachelor'?s|associate'?s|undergrad|ba|bs|bsc|msc|ma|llm|jd|md)\b", clause)
        degree = found.group(1) if found else None
    year = re.search(r"(?i)\bclass\s+of\s+'?(?P<y>\d{2}|\d{4})\b", clause)
    if year:
        said_year = int(year.group("y")) + (2000 if len(year.group("y")) == 2 else 0)
        status = "graduated" if said_year < date.today().year else "studying"
    if field_ is None:
        field_ = _field_said(clause, school)
    if field_ is None:
        # "my law degree at Bristol in September": a month or a time word is when, not what; the first "in" that
        # names a subject is the field ("enrolled in an online MSc in AI").
        found = re.search(r"(?i)\b(?:in|studying|studied|majoring\s+in|majored\s+in|degree\s+in)\s+(?!(?:my|the|a|an|his|her|our|their)\b)"
                          r"((?-i:[A-Z]{2,4})|[a-z][a-z ]{2,30}?)(?:\s+(?:at|from|with)\b|,|\)|\s*[^\w\s'-]|$)", clause)
        field_ = found.group(1) if found and not re.match(r"(?i)my\b|the\b|a\b|an\b|(?:jan|feb|march|april|may|june|july|aug|sept?|oct|nov|dec)\w*\b|"
                                                          r"(?:spring|summer|autumn|fall|winter|the\s+fall)\b|(?:\d|last|next|this)\b|(?:person|total|part|full)\b", found.group(1)) else None
        if field_ is None:
            # "psych major", "nursing student": the word before names the field, unless it is a
            # degree or a year ("PhD student", "grad student", "second year student").
            found = re.search(r"(?i)\b(?!(?:phd|grad|undergrad|masters?|mba|year|international|exchange|mature|"
                              r"part-time|full-time|college|university|uni|high|school|a|an|the|my|your|his|her|our|their|for|at|of|to|in|as)\b)([a-z]+)\s+"
                              r"(?:major|student|undergrad)\b", clause)
            field_ = {"med": "medicine"}.get(found.group(1).lower(), found.group(1)) if found else None
    if field_ is None:
        # "nursing school", "a psych degree", "an engineering bootcamp", "McGill, engineering", "(PPE, 2011)".
        found = re.search(r"(?i)\b(?!(?:grad|high|middle|primary|secondary|med|my|a|an|the|final|first|second|third|fourth|last|"
                          r"evening|night|summer|online|part-time|full-time|new|old|good)\b)([a-z]+)\s+(?:school|degree|bootcamp|course|programme|program)\b", clause) \
            or re.search(r"\((?P<f>[A-Z]{2,5}|[A-Za-z]+)\s*,\s*(?:19|20)\d{2}\)", clause) \
            or re.search(rf"(?i:at|from)\s+{re.escape(school)}\s*,\s*(?P<f>[a-z]+(?:\s+[a-z]+)?)\s*$", clause) \
            or re.search(rf"(?i:at|from)\s+{re.escape(school)}\s+(?i:doing|studying|reading)\s+(?P<f>[a-z]+(?:\s+[a-z]+)?)\s*$", clause) \
            or re.search(rf"{re.escape(school)}(?:\s+(?:in|back\s+in)\s+(?:19|20)\d{{2}})?\s*,\s*(?P<f>[a-z]+(?:\s+[a-z]+)?)\s*\.?$", clause) \
            or re.search(rf"{re.escape(school)}\s+(?i:for|studying|reading|doing)\s+(?!(?i:my|a|an|the|his|her|our|their|undergrad|college|uni|university|grad|law|med|masters?|phd|mba|degree)\b)(?P<f>[A-Za-z][a-z]*(?:\s+[a-z]+)?)\s*$", clause)
        field_ = (found.group(1) if found.lastindex else None) if found else None
        # "an Open University degree": a word of the school's own name is not its field.
        if field_ and field_.casefold() in school.casefold().split():
            field_ = None
    if field_ is None and re.search(r"(?i)med\s+school", clause):
        field_ = "medicine"
    return [_f("user.education", school, degree=degree, field=field_, status=status)]




# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
# Online platforms teach a programme; the programme, not the platform, is what the user studies.
_PLATFORMS = r"Coursera|Udemy|edX|Udacity|Codecademy|Khan\s+Academy|LinkedIn\s+Learning|FutureLearn|Skillshare|MasterClass|the\s+Open\s+University|OU"


def _b_programme(m, clause):
    """"the Google data analytics certificate on Coursera", "a UX course on Udemy": the programme, with its platform."""
    programme = tidy_value(m.group("v"))
    platform = m.groupdict().get("platform")
    status = "graduated" if re.match(r"(?i)(?:finished|completed|did|passed|got)\b", m.group()) else "studying"
    return [_f("user.education", f"{programme} on {tidy_value(platform)}" if platform else programme, status=status)]


def _b_degree_done(m, clause):
    """"finished my PhD last year, in chemistry", "defended my thesis": a degree named with no school is the programme."""
    field_ = m.group("field") or (lambda f: f and f.group(1))(re.search(r"(?i)\bin\s+([a-z][a-z ]{2,30}?)\s*(?:$|[,.;!])", clause[m.end():]))
    done = re.match(r"(?i)(?:finished|completed|got|earned|defended|passed|graduated\s+with)\b", m.group())
    return [_f("user.education", m.group("deg"), field=field_ or None, status="graduated" if done else "studying")]


FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "my bachelor's is in english lit, did it at Trinity College Dublin": the degree and field first, the school after.
    (re.compile(rf"(?P<deg>(?i:master'?s|masters|phd|mba|bachelor'?s|degree|undergrad|ba|bsc|msc))\s+(?i:is|was|'s)\s+(?i:in)\s+(?P<field>[a-z][a-z ]{{2,30}}?)\s*,?\s+"
                rf"(?:(?i:i\s+)?(?i:did|got|earned|finished|took)\s+(?i:it)\s+)?(?i:at|from)\s+{_ORG}"), _b_education),
    # "i got into the law program at McGill", "accepted onto the nursing course at Leeds": the programme's field and school.
    (re.compile(rf"(?i:got\s+into|accepted\s+(?:into|onto|to)|admitted\s+to|got\s+a\s+place\s+on)\s+(?i:the|a)\s+(?P<field>[a-z][a-z ]{{1,25}}?)\s+(?i:program|programme|course|school)\s+(?i:at)\s+{_ORG}"), _b_education),
    # "night classes at the community college, going for my associate's in accounting": a school by its kind, with the degree.
    (re.compile(r"(?i:classes|courses)\s+(?i:at)\s+(?i:a|the)\s+(?:(?i:local)\s+)?(?P<v>(?i:community\s+college|art\s+school|technical\s+college|city\s+college|adult\s+school))\b"),
     _b_school_kind_attended),
    # "I dropped out of NYU after a year": the school one left is still one's education (FACTS.md has no status for it).
    (re.compile(rf"(?i:dropped\s+out\s+of|dropping\s+out\s+of|left|quit)\s+{_ORG}(?=\s+(?i:after|in|at|when|because|to|halfway|during|last|two|a\b)|\s*$|\s*[,.;!])"),
     lambda m, c: _b_education(m, c) if _SCHOOLISH.search(c) or re.search(r"(?i)dropp", m.group()) else []),
    # "finished my PhD last year", "got my master's in May", "I'm halfway through my PhD": a degree named alone.
    (re.compile(r"(?i:finished|completed|got|earned|defended|started|starting|halfway\s+through|in\s+the\s+middle\s+of|working\s+on)\s+(?i:my)\s+"
                r"(?P<deg>(?i:phd|ph\.d\.?|doctorate|master'?s|masters|mba|msc|ma|bachelor'?s|bsc|ba|degree|undergrad))(?:\s+(?i:degree))?"
                r"(?:\s+(?i:in)\s+(?P<field>[a-z][a-z ]{2,30}?))?(?=\s*$|\s*[,.;!]|\s+(?i:last|this|in|two|a|three|back|recently|finally|yesterday|so|and|but)\b)(?!\s+(?i:at|from|with|in\s+[a-z ]+\s+(?:at|from|with))\b)"), _b_degree_done),
    # "halfway through the Google data analytics certificate on Coursera", "doing a UX course on Udemy".
    (re.compile(rf"(?i:doing|taking|finished|completed|did|passed|started|starting|enrolled\s+in|signed\s+up\s+for|halfway\s+through|working\s+through|working\s+on)\s+(?i:an?|the|my)\s+"
                rf"(?P<v>(?:[\w'-]+\s+){{0,5}}(?i:course|certificate|certification|nanodegree|specialization|specialisation|diploma|programme|program|bootcamp))\s+(?i:on|with|through|from|via)\s+(?P<platform>(?i:{_PLATFORMS}))\b"), _b_programme),
    # "grad from Ohio State in 2015", "a graduate of Leeds", "class of 2019 at UCLA", "UCLA class of '19":
    # finishing a school, said the short way.
    (re.compile(rf"(?i:grad(?:uated)?\s+from|a\s+grad(?:uate)?\s+of|grad\s+of|class\s+of\s+'?\d{{2,4}}\s+(?:at|from))\s+{_ORG}"), _b_education),
    # "a student at the community college", "enrolled at the local art school" (a language class there is not
    # the user's education: den9_041): a school named by its kind.
    (re.compile(r"(?i:studying|student|enrolled|a\s+semester|a\s+year)\s+(?i:at|in)\s+(?i:a|the)\s+(?:(?i:local)\s+)?(?P<v>(?i:community\s+college|art\s+school|culinary\s+school|trade\s+school|technical\s+college|state\s+school|coding\s+bootcamp))\b"),
     _b_school_kind),
    (re.compile(rf"{_ORG}\s+(?i:class\s+of)\s+'?\d{{2,4}}\b"), _b_education),
    # "I'm at Penn State studying nursing", "I'm at McGill doing a masters": being at a school to study there.
    (re.compile(rf"(?:(?i:i'm|im|i\s+am)\s+(?:(?i:now|currently)\s+)?)(?i:at|in)\s+{_ORG}\s+(?i:studying|doing|majoring|reading|for)\b"), _b_education),
    # "in my last year of law school", "second semester of grad school": a year of a kind of school.
    (re.compile(r"(?i:years?|semesters?|terms?)\s+(?i:of|at|in)\s+(?P<v>(?i:community\s+college|law\s+school|med\s+school|medical\s+school|nursing\s+school|grad\s+school|art\s+school|college|uni|university|high\s+school))\b(?!\s+(?i:at|in)\s+[A-Z])"), _b_school_kind),
    # "Purdue for undergrad, then straight into work": the school opening the clause, by what it was for.
    (re.compile(r"^(?P<v>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})\s+(?i:for)\s+(?:(?i:my)\s+)?(?i:undergrad|college|uni|grad\s+school|law\s+school|med\s+school|(?:a\s+|my\s+)?(?:degree|masters?|master's|phd|mba|bachelor'?s))\b"), _b_education),
    # "Stanford CS, class of 2020": the school, its field, then the class.
    (re.compile(r"^(?P<v>[A-Z][\w&'.-]*(?:\s+[A-Z][a-z][\w&'.-]*){0,2})\s+(?P<field>[A-Z]{2,4}|[A-Za-z][a-z]+(?:\s+[a-z]+)?)\s*,\s*(?i:class\s+of)\s+'?\d{2,4}\b"), _b_education),
    # "in nursing school right now", "I'm in law school": a kind of school the user is in.
    (re.compile(r"(?:^|(?<=\bi'm\s)|(?<=\bim\s)|(?<=\bam\s)|(?<=\bstill\s)|(?<=\bcurrently\s)|(?<=\bnow\s))(?i:in)\s+(?P<v>(?i:nursing|law|med|medical|grad|art|culinary|film|dental|vet|drama|business|beauty)\s+school)\b(?!\s+(?i:at|in)\s+[A-Z])"), _b_school_kind),
    # "went to rutgers for undergrad", "went to Leeds for uni": a school, by what one went there for.
    (re.compile(r"(?i:went\s+to|go\s+to|attended|chose)\s+(?P<v>[A-Za-z][\w&'.-]*(?:\s+[A-Za-z][\w&'.-]*){0,3}?)\s+(?i:for)\s+(?:(?i:my)\s+)?(?i:undergrad|college|uni|university|grad\s+school|law\s+school|med\s+school|(?:a\s+|my\s+)?(?:degree|masters?|master's|phd|mba|bachelor'?s))\b"), _b_education),
    # "I'm a UCLA student", "a Duke grad": the school named before what the user is there.
    (re.compile(r"(?:(?i:i'm|im|i\s+am)\s+(?i:an?)\s+|^(?i:an?\s+)?)(?P<v>(?!(?i:phd|mba|msc|bsc|ma|ba|masters?|grad|med|law|nursing|international|exchange|mature|college|university|uni|high|first|second|third|final|part|full)\b)[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,2})\s+(?i:student|undergrad|freshman|sophomore|junior|senior|grad\s+student|phd\s+student|alum|grad)\b"), _b_education),
    # "Harvard '15", "Oxford '09": a school and the year of the class.
    (re.compile(r"^(?P<v>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})\s+['’]\d{2}\b"), _b_education),
    # "a junior in high school", "a freshman in college": a year of a kind of school.
    (re.compile(r"(?i:junior|senior|sophomore|freshman|student|first\s+year|second\s+year)\s+(?i:in|at)\s+(?P<v>(?i:high\s+school|middle\s+school|college|grad\s+school|law\s+school|med\s+school|nursing\s+school))\b(?!\s+(?i:at|in)\s+[A-Z])"), _b_school_kind),
    # "class of '19, Georgia Tech, mechanical eng.": the year first, the school after a comma.
    (re.compile(rf"(?i:class\s+of)\s+'?\d{{2,4}}\s*,\s*{_ORG}"), _b_education),
    # Chat leaves the school in lower case: "doing my masters at georgia tech", "student at ucla", "studying
    # nursing at ohio state". A degree or student word before "at" says it is a school; the name runs to the
    # end of the clause or to a date or connective.
    (re.compile(r"(?i)(?:(?P<deg>masters?|master's|phd|mba|bachelor'?s|undergrad|degree|bsc|msc|ba|ma)|student|candidate|studying(?:\s+[a-z]+){0,2}|"
                r"sophomore|freshman|junior|senior|(?:first|second|third|final|fourth)\s+year|major(?:ing)?\s+in\s+[a-z]+)\s+at\s+"
                r"(?P<v>(?!(?:a|an|the|my|our|home|night|school|uni|university|college|the\s+moment)\b)[a-z][a-z&'.-]+(?:\s+(?!(?:and|but|now|this|next|last|since|for|in|on|so|lol|rn|atm|doing|studying|majoring|reading)\b)[a-z&'.-]+){0,3})"
                r"(?=\s*$|\s*[,.;!?]|\s+(?:and|but|now|this|next|last|since|for|in|on|so|lol|rn|atm|doing|studying|majoring|reading)\b)"),
     _b_lower_school),
    (re.compile(r"(?i:doing|taking|started|starting|enrolled\s+on|finishing|halfway\s+through)\s+(?i:an?|the|my)\s+(?P<v>[A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*){0,3})\s+(?:(?i:coding|design|data|ux|web|cooking|online|evening|summer|intensive|part-time)\s+)?(?i:course|degree|programme|program|diploma|module|bootcamp)"), _b_education),
    (re.compile(r"(?i:doing|taking|sitting|studying\s+for|revising\s+for)\s+(?i:my|the|her)?\s*(?P<v>A[- ]levels?|GCSEs?|IB|Highers|Leaving\s+Cert|the\s+bar)\b"),
     lambda m, c: [_f("user.education", tidy_value(m.group("v")), status="studying")]),
    (re.compile(rf"(?i:taking|doing|did|completed|finished|enrolled\s+in|signed\s+up\s+for|in|on)\s+(?i:an?|the|my)\s+(?:[\w-]+\s+){{0,4}}(?i:bootcamp|course|programme|program|apprenticeship|diploma)\s+(?i:at|with)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:graduated\s+from|graduated(?=\s+[A-Z])|alum(?:nus|na)?\s+of|went\s+to|studied\s+at|undergrad\s+at|did\s+my\s+(?:undergrad|degree|masters?|master's|phd|mba|bachelor'?s)\s+at|"
                rf"(?:an?\s+)?(?P<deg>mba|MBA|PhD|phd|DPhil|dphil|MSc|MA|BA|BSc|MFA|LLM|master'?s|masters|bachelor'?s)(?:\s+(?:part[- ]time|full[- ]time|online|remotely|in\s+[A-Za-z]+(?:\s+[a-z]+)?))?\s+(?:at|with|through|via)|enrolled\s+(?:in|at)\s+(?:the\s+)?(?:[\w-]+\s+){{0,3}}at|"
                rf"(?:student|candidate|junior|senior|sophomore|freshman|year|major|undergrad)\s+(?:in\s+[a-z ]+\s+)?at|studying\s+(?P<field>[a-z ]+?)\s+at|"
                rf"(?:master'?s|phd|degree|bachelor'?s)\s+(?:is\s+)?in\s+(?P<field2>[a-z ]+?)\s+(?:at|from)|school\s+at|in\s+(?:my\s+)?(?:\w+\s+)?year\s+at)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:currently\s+)?(?i:a\s+)?(?i:junior|senior|sophomore|freshman|student)\s+(?i:at)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:studying|study|studies)\s+(?i:at)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:study|studied|studying|major\s+in|majored\s+in|majoring\s+in|read)\s+(?P<field>[a-z][a-z ]{{1,30}}?)\s+(?i:at|in|from)\s+{_ORG}"), _b_education),
    (re.compile(rf"(?i:my\s+)?(?P<deg>(?i:phd|ph\.d\.|doctorate|master'?s|masters|mba|bachelor'?s|ba|bs|bsc|msc|ma|degree|diploma|mfa|jd|md))(?:\s+(?i:degree))?(?:\s+(?i:in)\s+(?P<field>[A-Za-z][a-z ]{{1,30}}?))?\s+(?:(?i:is|was|'s)\s+)?(?i:from|at)\s+{_ORG}"), _b_education),
    (re.compile(r"(?i:at|from|with)\s+(?P<v>[A-Z][\w'.&-]*(?:\s+[A-Z][\w'.&-]*){0,4}\s+(?:University|College|Institute|School|Academy|Polytechnic)(?:\s+of\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)?|(?:the\s+)?(?:University|College|Institute)\s+of\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)"), _b_education),
    (re.compile(r"(?i:did\s+an?|doing\s+an?|finished\s+an?|completed\s+an?|enrolled\s+in\s+an?|signed\s+up\s+for\s+an?|started\s+an?)\s+(?P<v>(?:[A-Za-z]+\s+)?[A-Za-z]+\s+(?i:apprenticeship|bootcamp|diploma))"), _b_education),
    (re.compile(r"(?i:go\s+to|goes\s+to|attend|attending|attended|transferred\s+to|got\s+into|accepted\s+(?:to|into|at)|admitted\s+to)\s+(?P<v>[A-Z]{2,6}\b|(?:the\s+)?[A-Z][\w'.&-]*(?:\s+[A-Z][\w'.&-]*){0,4}\s+(?:University|College|Institute|School|Academy|Tech)(?:\s+of\s+[A-Z][\w'.-]*)?|(?:the\s+)?University\s+of\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?)"), _b_education),
    (re.compile(r"(?P<v>[A-Z][\w'.&-]*(?:\s+[A-Z][\w'.&-]*){0,3})\s+(?i:alum|alumnus|alumna|alumni|grad|graduate)\b"), _b_education),
    (re.compile(r"^(?:(?i:proud|an?)\s+)?(?P<v>(?!(?:proud|recent|new|fresh|college|uni|high|school|grad|phd|masters?)\b)[a-z][a-z&'.-]+(?:\s+[a-z&'.-]+)?)\s+(?i:alum|alumnus|alumna|grad)(?:\s+(?i:here)\b|\s*,|\s*$)"), _b_education),
    (re.compile(r"(?i:doing|pursuing|studying\s+for|working\s+on|finishing|starting|halfway\s+through|writing\s+up|writing)\s+(?i:an?|my)\s+(?P<v>(?:(?i:online|part-time|executive|evening|full-time|distance)\s+)?(?P<deg>MBA|PhD|master'?s|masters|bachelor'?s|doctorate|law\s+degree|nursing\s+degree|dissertation|thesis))"
                r"(?:\s+(?i:on|in|about)\s+(?P<field>[a-z][a-z -]{2,40}?)(?=\s*(?:$|[,.;!?])|\s+(?:and|but|at|so|which)\b))?"), _b_education),
    (re.compile(rf"(?i:did|do|doing|got|finished|completed)\s+(?i:my)\s+(?P<deg>(?i:masters?|master's|phd|mba|bachelor'?s|undergrad|degree|ba|bsc|msc))\s+(?i:in|at)\s+{_ORG}"), _b_education),
    (re.compile(r"(?i:a\s+)?(?P<v>(?i:high\s+school|college|grad\s+school|med\s+school|law\s+school|middle\s+school))\s+(?i:senior|junior|sophomore|freshman|student|grad|graduate|dropout)"), _b_education),
]
