"""Family and close people: relationship roles with names and attributes."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import (
    _I,
    _NAME,
    _NOT_NAMES,
    Candidate,
    _c,
    _f,
    _phrase,
    _proper,
)
from layers.formation.extractor.rules_en.employment import _OCC, _occupation
from layers.formation.extractor.text import tidy_value

_ROLES = {"wife": "wife", "husband": "husband", "son": "son", "daughter": "daughter", "mother": "mother",
          "mom": "mother", "mum": "mother", "father": "father", "dad": "father", "brother": "brother",
          "sister": "sister", "girlfriend": "girlfriend", "boyfriend": "boyfriend", "partner": "partner",
          # FACTS.md: a fiancé is a partner
          "fiance": "partner", "fiancé": "partner", "fiancee": "partner", "fiancée": "partner", "boss": "boss",
          "grandma": "grandmother", "grandmother": "grandmother", "grandpa": "grandfather",
          "grandfather": "grandfather", "kid": "child", "child": "child", "baby": "baby"}


_ROLE = "(?P<role>" + "|".join(sorted(_ROLES, key=len, reverse=True)) + ")"


_ROLES_EN = {**_ROLES, "stepdad": "father", "stepfather": "father", "stepmom": "mother", "stepmum": "mother",
             "mama": "mother", "papa": "father", "gran": "grandmother", "granny": "grandmother", "nana": "grandmother",
             "grandad": "grandfather", "granddad": "grandfather", "kids": "child", "children": "child",
             "little sister": "younger_sister", "little brother": "younger_brother", "big sister": "older_sister",
             "big brother": "older_brother", "older sister": "older_sister", "older brother": "older_brother",
             "younger sister": "younger_sister", "younger brother": "younger_brother", "best friend": "best_friend",
             "bestie": "best_friend", "bff": "best_friend", "roommate": "roommate", "flatmate": "roommate",
             "colleague": "colleague", "manager": "boss", "hubby": "husband", "wifey": "wife", "sons": "son",
             "daughters": "daughter", "parents": "parents", "toddler": "child", "grandson": "grandson",
             "granddaughter": "granddaughter", "baby": "child", "twin sister": "sister", "twin brother": "brother", "gf": "girlfriend",
             "bf": "boyfriend", "hubs": "husband", "missus": "wife", "mam": "mother", "ma": "mother", "pops": "father",
             "step-dad": "father", "step-mum": "mother", "step-mom": "mother", "grandmum": "grandmother",
             "grandmom": "grandmother", "nan": "grandmother", "youngest": "child", "eldest": "child",
             "oldest": "child", "little one": "child", "middle child": "child", "firstborn": "child", "best mate": "best_friend",
             "best pal": "best_friend", "roomie": "roommate", "housemate": "roommate", "other half": "partner",
             "better half": "partner", "little boy": "son", "little girl": "daughter", "baby boy": "son", "baby girl": "daughter",
             "elder sister": "older_sister", "elder brother": "older_brother", "eldest sister": "older_sister",
             "eldest brother": "older_brother", "oldest sister": "older_sister", "oldest brother": "older_brother",
             "youngest sister": "younger_sister", "youngest brother": "younger_brother",
             # FACTS.md: a coworker mentioned in passing is someone else ("my coworker Dan just adopted…"); a colleague is kept.
             "work colleague": "colleague",
             "supervisor": "boss", "line manager": "boss", "stepson": "son", "step-son": "son", "stepdaughter": "daughter",
             "step-daughter": "daughter", "spouse": "partner", "significant other": "partner", "twins": "child",
             "sis": "sister", "bro": "brother", "little sis": "younger_sister", "lil sis": "younger_sister",
             "baby sister": "younger_sister", "kid sister": "younger_sister", "big sis": "older_sister",
             "little bro": "younger_brother", "lil bro": "younger_brother", "baby brother": "younger_brother",
             "kid brother": "younger_brother", "big bro": "older_brother",
             # code-switched turns ("my 老公 Tom is from Manchester")
             "老公": "husband", "老婆": "wife", "男朋友": "boyfriend", "女朋友": "girlfriend", "儿子": "son", "女儿": "daughter",
             "妈妈": "mother", "爸爸": "father", "闺蜜": "best_friend", "室友": "roommate"}
# Siblings by age in every chat spelling: "older sis", "lil bro", "baby sister", "elder brother".
_ROLES_EN.update({f"{age} {word}": f"{side}_{role}" for age, side in (
    ("little", "younger"), ("lil", "younger"), ("baby", "younger"), ("kid", "younger"), ("younger", "younger"),
    ("youngest", "younger"), ("big", "older"), ("older", "older"), ("elder", "older"), ("eldest", "older"), ("oldest", "older"))
    for word, role in (("sister", "sister"), ("sis", "sister"), ("brother", "brother"), ("bro", "brother"))})
_ROLES_EN.update({"best buddy": "best_friend", "best pal": "best_friend", "closest friend": "best_friend", "bestfriend": "best_friend",
                  "grandparents": "parents"})
# "my eldest daughter", "my youngest son": the birth order qualifies the role, it is not one.
_ROLES_EN.update({f"{order} {word}": role for order in ("eldest", "youngest", "oldest", "middle", "younger", "older")
                  for word, role in (("son", "son"), ("daughter", "daughter"), ("boy", "son"), ("girl", "daughter"),
                                     ("kid", "child"), ("child", "child"))})


# Siblings come in counts ("two older brothers", "my sisters"): one unnamed fact for the group (FACTS.md).
_ROLES_EN.update({f"{role}s": role_key for role, role_key in list(_ROLES_EN.items())
                  if re.fullmatch(r"(?:(?:little|big|older|younger|twin)\s+)?(?:brother|sister)", role)})
# Counted after "I have" / "we've got" only ("I have two boys"): "out with the boys" is no one's son.
_COUNTED_KIDS = {"boys": "son", "girls": "daughter", "little boys": "son", "little girls": "daughter"}


# "my mother tongue", "my father's side", "my baby steps" are not people.
_PEOPLE_ROLE = ("(?P<role>" + "|".join(sorted(_ROLES_EN, key=len, reverse=True)) + ")"
                r"(?!\s+(?i:tongue|language|nature|land|country|ship|board|steps|boomer|shower|teeth))")
# "my sister's friend is a vegan chef", "my brother-in-law's cousin": the person spoken of is someone else's.
_SOMEONE_ELSES = re.compile(r"(?i)(?:[- ]in[- ]law)?(?:'s|(?<=s)')\s+(?:best\s+|old\s+|new\s+)?(?:friend|mate|buddy|pal|boss|colleague|coworker|co-worker|"
                            r"neighbou?r|cousin|uncle|aunt|classmate|teacher|flatmate|roommate|ex|landlord|client)s?\b")


_PERSON = r"(?P<v>[A-Z][a-zà-ÿ'-]+(?:\s+[A-Z][a-zà-ÿ'-]+)?|[\u4e00-\u9fff]{2,3}(?![\u4e00-\u9fff]))"


def _person_attrs(rest: str) -> dict:
    out: dict = {}
    if re.match(r"(?i)(?:-in-law)?'s\s+(?:friend|boss|colleague|coworker|neighbou?r|partner|husband|wife|boyfriend|girlfriend|mate|buddy|cousin|uncle|aunt|neighbour)\b", rest):
        return out  # "my sister's friend is a chef": the attributes are someone else's
    # A number that is the subject of its own clause counts people, it is no age: "two sons, one is 7".
    age = re.search(rf"(?i)(?:\bis|'s|\bhes|\bshes|\bturns?|\bturned|\bturning|\bjust\s+turned|,|\()\s+(?:(?:now|only|just|nearly|almost|about|already|barely)\s+)?(?P<n>{A.EN_NUMBER})\b(?!\s*(?:min|am|pm|kg|%|weeks|months|days|th\b|st\b|nd\b|rd\b|:))(?!\s*'s\b|\s+(?:is|was|of|has|who)\b)", rest)
    if age:
        value = A.plausible_age(A.en_int(age.group("n")), low=0)
        if value is not None:
            out["age"] = value
    # "is a nurse", "works as a chef", "works at the hospital as a midwife", ", a retired teacher,", "is 29 and a chef".
    # "Grandpa's still mowing his own lawn at 89": an age said with "still … at".
    if "age" not in out:
        still = re.search(r"(?i)\b(?:still|even|already)\b[^,.;!?]{0,40}?\bat\s+(?P<n>[1-9]\d)\b(?!\s*(?:am|pm|[:.]\d|%|mph|kg))", rest)
        if still and (value := A.plausible_age(int(still.group("n")), low=0)) is not None:
            out["age"] = value
    # "my husband and I are both teachers", "me and my sister are both nurses": a job shared with the user.
    occupation = re.search(rf"(?i)(?:\bis|'s|\b(?:got\s+|just\s+got\s+|was\s+|been\s+)?promoted\s+to|\bbecame|(?:\band\s+(?:i|me)\s+)?\bare\s+both|\band\s+(?:i|me)\s+both\s+work\s+as|\bworks\s+as|\bworks\s+(?:at|for|in)\s+[^,.;!?]{{1,40}}?\s+as|^\s*,(?!\s*(?:is|was)\b)|\band)\s+(?:(?:still|now|also|actually|currently)\s+)?(?:an?\s+)?(?:\d+(?:st|nd|rd|th)\s+)?{_OCC}", rest)
    # "my mum's doctor upped her dose": a role straight after "'s" is someone the person has ("my mum's a doctor" is her job).
    if occupation and re.match(r"['’]s\s+(?!an?\s|still\s|now\s|also\s|actually\s|currently\s)", occupation.group()):
        occupation = None
    if occupation:
        out["occupation"] = _occupation(occupation.group("v"))
    else:
        field = re.search(r"(?i)\bworks\s+in\s+(?P<v>[a-z]+(?:\s+[a-z]+)?)\b", rest)
        if field and not field.group("v")[:1].isupper() and field.group("v").lower() not in ("the", "a", "an"):
            out["occupation"] = field.group("v")
    likes = re.search(r"(?i)(?:\b|(?='))(?:loves|likes|adores|collects|plays|(?:is\s+)?obsessed\s+with|(?:is|'s|are)\s+(?:(?:super|really|so|very|totally|well|mad|seriously|massively|big\s+time)\s+)?into|enjoys|wants\s+to\s+learn|(?:is\s+)?mad\s+about|(?:is\s+)?crazy\s+about|(?:is\s+)?nuts\s+about)\s+(?P<v>[^,.;!?]+)", rest) \
        or re.search(r"\b(?i:is|'s)\s+(?i:a|an)\s+(?:(?i:huge|big|massive|mad|die-hard|diehard|total|massive)\s+)?(?P<v>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,2})\s+(?i:fan|nut|nerd|geek)\b", rest)
    if likes:
        # "plays rugby every weekend": how often is not part of the thing.
        value = _phrase(re.split(r"(?i)\s+(?:every|each|on\s+(?:weekends|\w+days))\b", likes.group("v"))[0], 4)
        if value:
            out["likes"] = re.sub(r"(?i)^(?:more\s+than\s+anything)$", "", value) or None
    birthday = re.search(r"(?i)birthday(?:\s+is|'s)?\s+(?:on\s+)?(?P<v>(?:today|tomorrow|next\s+\w+|this\s+\w+|\w+day)\b|[^,.;!?]*\d[^,.;!?]*)|\bturns?\s+\S+\s+(?:on\s+)?(?P<w>[^,.;!?]+)", rest)
    if birthday:
        out["birthday"] = tidy_value(birthday.group("v") or birthday.group("w"))
    school = re.search(r"(?i)\b(?:started|starts|goes\s+to|attends|is\s+at|in)\s+(?:[a-z]+\s+)?(?:at\s+)(?P<v>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,4})", rest)
    # "goes to Oakwood High", "is in year 3 at Hillside Primary", "at Maple Grove Elementary": a school by its name.
    school = school or re.search(r"\b(?i:goes\s+to|attends|at|to)\s+(?P<v>(?:[A-Z][\w'.-]*\s+){1,4}(?:School|Primary|High|Elementary|Academy|College|"
                                 r"Nursery|Montessori|Prep|Kindergarten|Preschool|Middle|Grammar|University|Infants|Juniors|(?i:uni|university|college)))\b", rest)
    # "my husband teaches at Lincoln High": a school one teaches or works at is a workplace, not one's school.
    if school and re.search(r"(?i)\b(?:teach\w*|works?|worked|working|employed)\b[^,.;!?]{0,20}$", rest[:school.start("v")]):
        if re.search(r"(?i)\bteach", rest[:school.start("v")]) and "occupation" not in out:
            out["occupation"] = "teacher"
        school = None
    if school:
        out["school"] = tidy_value(school.group("v"))
    return {k: v for k, v in out.items() if v not in (None, "")}


def _spouse(m, clause) -> str:
    """"married to a guy called Tom" is a husband, "married to Grace … she" a wife; engaged, or unsaid, a partner."""
    if re.match(r"(?i)engaged", m.group()):
        return "partner"
    who = (m.groupdict().get("who") or "").lower()
    if who in ("guy", "man", "bloke", "fella"):
        return "husband"
    if who in ("woman", "girl", "lady", "gal"):
        return "wife"
    after = clause[m.end():]
    # "married to Tomasz … my husband is": the role said elsewhere in the clause.
    said = re.search(r"(?i)\bmy\s+(?P<r>husband|hubby|wife|wifey|hubs)\b", clause)
    if said:
        return "husband" if said.group("r").lower().startswith("hu") else "wife"
    he, she = re.search(r"(?i)\b(?:he|him|his)\b", after), re.search(r"(?i)\b(?:she|her|hers)\b", after)
    return "husband" if he and not she else "wife" if she and not he else "partner"


# A he / she that opens a sentence, or a clause after a comma or "and" ("…no gift ideas, she's super into k-pop",
# "…on the 18th, she loves tulips"), speaks of the one person of the turn.
_PRONOUN_SENTENCE = re.compile(r"(?:^|(?<=[.!?])\s+|(?<=[,;])\s+|(?<=\band)\s+)(?i:she|he)(?=(?:'s|\s+is|\s+works|\s+loves|\s+likes|\s+plays|\s+goes|\s+attends|\s+turned|\s+turns|\s+just|\s+adores|\s+collects)\b)")


def attributes_said_later(text: str, start: int) -> dict:
    """"I have a daughter. She's 7 and loves horses.", "My brother lives in Cork. He's a chef.": what a
    sentence of its own says of the one person of a turn, through he / she (the caller checks there is one)."""
    out: dict = {}
    for match in _PRONOUN_SENTENCE.finditer(text, start):
        sentence = re.split(r"(?<=[.!?])\s", text[match.end():], maxsplit=1)[0]
        for key, value in _person_attrs(sentence).items():
            out.setdefault(key, value)
    return out


def _said_of_them(rest: str) -> dict:
    """"married to Daniel, he's a chef": what the next part says of the person through he / she."""
    return _person_attrs(rest) if re.match(r"(?i)\s*[,;—–-]?\s*(?:and\s+)?(?:he|she)(?:'s|\s+is|\s+works|\s+turned|\s+teaches)\b", rest) else {}


def _b_parent_of(m, clause):
    """"a single mum of three", "dad of two": the user's children, unnamed."""
    return [_f("user.relationship.child", "")]


def _b_person_bare(m, clause):
    # Bare plurals at the start are mostly generic ("kids are exhausting"); only "the kids …" is the user's.
    if m.group("role").lower() in ("kids", "children", "parents", "sons", "daughters") and not re.match(r"(?i)the\s", m.group()):
        return []
    return _b_person(m, clause)


def _b_person(m, clause):
    said = (m.groupdict().get("role") or m.groupdict().get("role_counted") or "").lower()
    role = _ROLES_EN.get(said) or _COUNTED_KIDS.get(re.sub(r"\s+", " ", said))
    if not role or role in ("parents", "grandson", "granddaughter"):
        return []
    if said == "manager" and not m.groupdict().get("v"):
        return []
    if _SOMEONE_ELSES.match(clause, m.end()):
        return []
    name = re.sub(r"'s$", "", m.groupdict().get("v") or "")
    # "should I tell my boss I'm pregnant": "I'm" after the role is the user speaking, not a name.
    if name in _NOT_NAMES or (name and name.split()[0] in _NOT_NAMES) or re.match(r"I(?:'|’)", name):
        name = ""
    # "my partner Sam's a chef", "my brother Tom's 12": the name took the "'s" that is the verb, so what is said
    # of the person starts at it ("my sister Amy's friend is a chef" stays the friend's, as _person_attrs reads it).
    said_from = m.end("v") - 2 if m.groupdict().get("v") and m.end("v") == m.end() and m.group("v").endswith("'s") else m.end()
    attributes = _person_attrs(clause[said_from:])
    if m.groupdict().get("age") and "month" not in m.group():
        attributes["age"] = int(m.group("age"))
    return [_f(f"user.relationship.{role}", name, **attributes)]


def _legacy_relation(match: re.Match) -> list[Candidate]:
    value = _proper(match.group("v"))
    if not value:
        return []
    return [_c(f"user.relationship.{_ROLES.get(match.group('role').lower())}", value)]


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?:^|\b)(?i:my)\s+{_ROLE}(?:(?i:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+named|\s+called)|,)?\s+{_NAME}"), _legacy_relation),
    (re.compile(rf"{_I}\s+(?i:have)\s+(?i:a|an)\s+{_ROLE}\s+(?i:named|called)\s+{_NAME}"), _legacy_relation),
]


_KIDS_BY_WORD = {"sons": "son", "boys": "son", "daughters": "daughter", "girls": "daughter", "kids": "child",
                 "children": "child", "brothers": "brother", "sisters": "sister", "twins": "child", "twin boys": "son",
                 "twin girls": "daughter", "triplets": "child"}
# A name's own age in a list: "Maya (9)", "Tom 8", "Mia who's 9", "Ben, 10", "Isla aged 7".
_OWN_AGE = r"(?:\s*,?\s*(?:\(|(?i:who's|who\s+is|aged?)\s+)?\d{1,2}\)?)?"
# "…, they're 4", "…, both 3": one age said after the names for all of them.
_SHARED_AGE = re.compile(r"(?i)\s*[,;]?\s*(?:and\s+)?(?:they're|they\s+are|both|both\s+are|they're\s+both|they\s+are\s+both|each)\s+(?P<n>\d{1,2}|[a-z]+)\b(?!\s*(?:min|am|pm|months|weeks))")


def _b_named_group(m, clause):
    """"two daughters, Maya (9) and Isla (6)", "2 kids - Tom 8 and Lucy 5": one fact per named person, each with its age."""
    role = _KIDS_BY_WORD[re.sub(r"\s+", " ", m.group("group").lower())]
    shared = _SHARED_AGE.match(clause, m.end())
    shared_age = A.plausible_age(A.en_int(shared.group("n")), low=0) if shared else None
    out = []
    people = [p for p in re.finditer(r"(?P<n>[A-Z][a-zà-ÿ'-]+)(?:\s*,?\s*\(?(?:(?i:age|aged|who's|who\s+is)\s+)?(?P<a>\d{1,2})\)?)?", m.group("names"))
              if p.group("n") not in _NOT_NAMES]
    # "our twins Anya and Rohan (7)": twins share the one age said after the last of them.
    if re.match(r"(?i)twin|triplet", m.group("group")) and shared_age is None:
        ages = [p.group("a") for p in people if p.group("a")]
        if len(ages) == 1 and people[-1].group("a"):
            shared_age = int(ages[0])
    for person in people:
        out.append(_f(f"user.relationship.{role}", person.group("n"), age=int(person.group("a")) if person.group("a") else shared_age))
    return out


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
_LISTED_PERSON = re.compile(rf"\b{_PEOPLE_ROLE}\s+{_PERSON}(?:\s*(?:\(\s*|,\s*)(?P<age>\d{{1,2}})\b)?")


def _b_family_list(m, clause):
    """"Family: wife Meera, son Kabir (9), daughter Anaya (4)": under a heading, each role and name is one person."""
    out = []
    for person in _LISTED_PERSON.finditer(m.group("v")):
        role = _ROLES_EN.get(person.group("role").lower())
        name = person.group("v")
        if not role or role in ("parents", "grandson", "granddaughter") or name in _NOT_NAMES:
            continue
        age = A.plausible_age(int(person.group("age")), low=0) if person.group("age") else None
        out.append(_f(f"user.relationship.{role}", name, age=age))
    return out


# Chat leaves names in lower case ("my son max is 12", "my partner chris works nights"): a lower-case word
# right after "my <role>" is a name only when a predicate follows it and it is no ordinary word.
_NOT_LOWER_NAMES = frozenset("""
    and or but who that which is was are were has had have just also still always never usually often now then
    recently finally actually literally totally only even already really very so too again back home here there
    all both who's that's it's he she they we i me you him her them his their our my your its this those these
    of in on at to for from with by about over under after before since until while when where why how what
    not no yes never ever sometimes mostly kinda sorta basically pretty quite rather super way much more most
    less least one two three four five six seven eight nine ten first last next new old little big
    lives works loves likes plays goes got gets says said thinks wants needs keeps moved died passed left came
    will would can could should might must may shall did does do done being been
    lol haha tbh btw ngl omg rn tho though
""".split())
_LOWER_NAME = (r"(?P<v>[a-z][a-z'-]{2,14})(?=\s+(?:is|was|has|just|works|lives|loves|likes|plays|goes|got|turned|turns|keeps|kept|"
               r"eats|always|never|won't|can't|doesn't|are|were|have|had|and\s+i|and\s+me|said|says|starts|started|moved|wants|hates|texted|called)\b|'s\s)")


def _b_lower_named(m, clause):
    word = m.group("v")
    if word in _NOT_LOWER_NAMES or word.endswith(("ly", "ing", "ed")) or word in _ROLES_EN or word.rstrip("s") in _ROLES_EN:
        return []
    found = _b_person(m, clause)
    return [_f(c.memory_key, word.capitalize(), **c.attributes) for c in found]


def _b_named_after_have(m, clause):
    # Only in a clause where the user says they have them ("I have a son Jack … and a daughter Emily").
    if not re.match(r"(?i)(?:i|we)\s+(?:have|'ve\s+got|have\s+got|got)\b|(?:i've|we've)\s+got\b", clause):
        return []
    found = _b_person(m, clause)
    # The age said right after this person ("who's 10"), not one said of a later one.
    rest = clause[m.end():]
    own = re.match(r"\s*(?:,\s*)?(?:(?i:who's|who\s+is|aged?|\()\s*)(?P<n>\d{1,2})\b", rest)
    out = []
    for c in found:
        attributes = {k: v for k, v in c.attributes.items() if k != "age"}
        if own:
            attributes["age"] = int(own.group("n"))
        out.append(_f(c.memory_key, c.value, **attributes))
    return out


def _b_named_before(m, clause):
    """"Tom, my husband, is a nurse", "Jake's my boyfriend": the name said before the role."""
    if m.group("v") in _NOT_NAMES:
        return []
    return _b_person(m, clause)


FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "I have a daughter, Zoe, she's 4": the name in apposition after the counted role.
    (re.compile(rf"(?i:i\s+have|i've\s+got|i\s+got|we\s+have|we've\s+got)\s+(?i:a|an|one)\s+{_PEOPLE_ROLE}\s*,\s*{_PERSON}(?=\s*(?:,|$|\(|(?i:who|and|she|he|is)\b))"), _b_person),
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}(?:,\s*|\s+)(?!(?:my|our)\b){_LOWER_NAME}"), _b_lower_named),
    # "roommate jake keeps eating my leftovers": chat drops the "my" at the start of a clause too.
    (re.compile(rf"^{_PEOPLE_ROLE}\s+{_LOWER_NAME}"), _b_lower_named),
    (re.compile(rf"(?:^|(?<=[,;:]\s)|(?<=\band\s)){_PERSON}\s*(?:,\s*|\(\s*)(?i:my|our)\s+{_PEOPLE_ROLE}\s*[,)]"), _b_named_before),
    (re.compile(rf"(?:^|(?<=[,;:]\s)|(?<=\band\s)){_PERSON}(?:'s|\s+is)\s+(?i:my|our)\s+(?:(?P<age>\d{{1,2}})[- ](?i:year|yr)s?[- ](?i:old)\s+)?{_PEOPLE_ROLE}\b"), _b_named_before),
    # "me and jen (my wife)", "Marco (my boyfriend)": a role in brackets names whoever stands before it.
    (re.compile(rf"(?P<v>[A-Za-z][a-zà-ÿ'-]{{2,14}})\s*\(\s*(?i:my|our)\s+{_PEOPLE_ROLE}\s*\)"),
     lambda m, c: [] if m.group("v").capitalize() in _NOT_NAMES or m.group("v").lower() in _NOT_LOWER_NAMES else
     [_f(x.memory_key, m.group("v").capitalize(), **x.attributes) for x in _b_person(m, c)]),
    # "my wife, priya, is a doctor": a lower-case name set off by commas after the role.
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}\s*,\s*(?P<v>[a-z][a-z'-]{{2,14}})\s*,"), _b_lower_named),
    # "my 6 year old is obsessed with dinosaurs", "our 3yo refuses to nap": a child by their age alone.
    (re.compile(r"(?i:my|our)\s+(?P<age>\d{1,2})\s*(?:[- ](?i:year|yr)s?[- ](?i:old)|(?i:yo|y/o|yr\s+old))\b(?!\s*(?i:son|daughter|boy|girl|kid|child|brother|sister|dog|cat|puppy|kitten|car|laptop|house|phone|niece|nephew|cousin))"),
     lambda m, c: [_f("user.relationship.child", "", age=int(m.group("age")))]),
    # "Maria and I have been married 12 years", "Sam and I got engaged": the partner named with the user.
    (re.compile(r"(?:^|(?<=[,;:]\s))(?P<v>[A-Z][a-zà-ÿ'-]+)\s+(?i:and\s+(?:i|me))\s+(?:(?i:have\s+been|'ve\s+been|are|were|got|just\s+got|have|are\s+getting|finally\s+got)\s+)(?P<how>(?i:married|engaged|together|dating))\b"),
     lambda m, c: [] if m.group("v") in _NOT_NAMES else [_f(f"user.relationship.{_spouse(m, c) if m.group('how').lower() == 'married' else 'partner'}", m.group("v"))]),
    # "I have a son Jack who's 10 and a daughter Emily who's 7": each role with its name, the age after it.
    (re.compile(rf"(?:(?<=\bhave\s)|(?<=\bgot\s)|(?<=\band\s)|(?<=,\s))(?i:a|an|one)\s+{_PEOPLE_ROLE}\s+(?!(?:And|But|Who|The)\b){_PERSON}\b(?=\s+(?i:who|and|aged?|is)\b|\s*[,(]|\s*$)"), _b_named_after_have),
    (re.compile(r"^(?i:(?:my\s+)?family|the\s+fam|fam|household|my\s+lot|the\s+family)\s*(?::|=|-|–)\s*(?P<v>[^.;!?]+)"), _b_family_list),
    # "Got 2 kids - Tom 8 and Lucy 5", "the kids (Ben, 10, and Isla, 7)": names with ages after the group.
    (re.compile(r"(?i:my|our|the|got|have|with)\s+(?:(?i:two|three|four|[2-4])\s+)?(?P<group>(?i:sons|daughters|boys|girls|kids|children))\s*(?:[-–:(,]|(?i:are))\s*"
                r"(?P<names>[A-Z][a-zà-ÿ'-]+(?:\s*,?\s*\(?\d{1,2}\)?)?(?:\s*,?\s*(?:and|&)?\s*[A-Z][a-zà-ÿ'-]+(?:\s*,?\s*\(?\d{1,2}\)?)?)+)"), _b_named_group),
    (re.compile(r"(?i:my|our)\s+(?P<group>(?i:sons|daughters|boys|girls|kids|children))\s*(?:(?i:are|:)\s*|\s(?=[A-Z]))"
                r"(?P<names>[A-Z][a-zà-ÿ'-]+(?:\s*\(\d{1,2}\))?(?:\s*(?:,|and|&)\s*[A-Z][a-zà-ÿ'-]+(?:\s*\(\d{1,2}\))?)+)"), _b_named_group),
    (re.compile(rf"(?i:my|have|got|with|of)\s+(?i:two|three|four|2|3|4)\s+(?P<group>(?i:sons|daughters|boys|girls|kids|children|brothers|sisters))\s*[,:(—–-]?\s*"
                rf"(?P<names>[A-Z][a-zà-ÿ'-]+{_OWN_AGE}(?:\s*(?:,|and|&)\s*[A-Z][a-zà-ÿ'-]+{_OWN_AGE})+)"), _b_named_group),
    # "we have twins, Leo and Max, they're 4", "my twin girls Ava and Mia": twins named after the word.
    (re.compile(rf"(?i:my|our|have|got|with|of)\s+(?:(?i:a\s+set\s+of|identical|fraternal)\s+)?(?P<group>(?i:twins|triplets|twin\s+boys|twin\s+girls))\s*[,:(—–-]?\s*"
                rf"(?P<names>[A-Z][a-zà-ÿ'-]+{_OWN_AGE}(?:\s*(?:,|and|&)\s*[A-Z][a-zà-ÿ'-]+{_OWN_AGE})+)"), _b_named_group),
    # "my 3 year old son", "our 16-year-old daughter Mia": the age before the role.
    (re.compile(rf"(?i:my|our)\s+(?P<age>\d{{1,2}})[- ](?i:year|yr)s?[- ](?i:old)\s+{_PEOPLE_ROLE}\b(?:\s*,?\s*{_PERSON})?"), _b_person),
    # "my boyfriend of three years, Dan", "my best friend since kindergarten, Noor,": the name after how long.
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}\s+(?:(?i:of)\s+(?:\w+\s+){{1,2}}(?i:years?|months?)|(?i:since|from)\s+(?:\w+\s+){{0,2}}\w+)\s*,\s*{_PERSON}(?=\s*,|\s*$|\s+(?i:is|and|has|just)\b)"), _b_person),
    # "my dad", "my wife and I", "with my two kids": a count may stand between; the name is optional.
    (re.compile(rf"(?i:my|our)\s+(?:(?i:two|three|four|[2-4])\s+)?{_PEOPLE_ROLE}(?:(?:'s\s+name\s+is|'s\s+called|'s\s+named|\s+is\s+called|\s+is\s+named|\s+named|\s+called|,)?\s+{_PERSON}|\b)"), _b_person),
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}(?:'s|s)?\s+(?i:name\s+is|name's|is\s+called|is\s+named|called|named)\s+(?P<v>[A-Za-z][a-z]+)"), _b_person),
    # "a single mum of three", "dad of two": children, unnamed.
    (re.compile(r"(?i:mum|mom|dad|mother|father|parent|mama|papa)\s+(?i:of)\s+(?i:one|two|three|four|five|[1-5])\b(?!\s+(?:years?|months?|weeks?))"), _b_parent_of),
    (re.compile(rf"(?i:my|our)\s+{_PEOPLE_ROLE}(?='s\s)"), _b_person),
    (re.compile(rf"(?i:i\s+have|i've\s+got|i\s+got|i've|i\s+have\s+got|we\s+have|we've\s+got|we've|^(?:just\s+|finally\s+)?got|mom\s+of|mum\s+of|dad\s+of|father\s+of|mother\s+of)\s+(?i:a|an|one|two|three|four|five|\d)\s+(?:(?P<age>\d{{1,2}})[- ](?i:year|yr|month)s?[- ](?i:old)\s+)?(?:{_PEOPLE_ROLE}|(?P<role_counted>(?i:little\s+)?(?i:boys|girls)))\b(?:\s+(?i:called|named)\s+{_PERSON})?"), _b_person),
    (re.compile(rf"^{_PEOPLE_ROLE}(?:'s\s+name\s+is|\s+is\s+called|\s+named)\s+{_PERSON}"), _b_person),
    # Chat drops the "my": "wife's name is Sarah", "hubby's away", "Dad (Mike) is visiting", "the kids are asleep".
    (re.compile(rf"(?:^|(?<=,\s))(?:(?i:the)\s+(?=(?i:kids|children|boys|girls)\b))?{_PEOPLE_ROLE}(?:(?:'s\s+name\s+is|'s\s+called|\s+is\s+called|\s*\()\s*{_PERSON}\)?|(?='s\s|\s+(?:is|was|has|had|just|passed|loves|wants|says|said|lives|works|turned|turns|starts|started|called|texted|rang|got|and|are|needs|thinks|keeps|kept|made|makes|went|likes|hates|won't|can't|doesn't)\b))"), _b_person_bare),
    # "dad and I went fishing", "wife and I are celebrating": the clause is cut before "and I", leaving the role alone.
    (re.compile(rf"^(?:(?i:my|our)\s+)?{_PEOPLE_ROLE}\s*$"), _b_person_bare),
    # A parent called by the role as a name, capitalised: "dinner with Mum and Dad", "Dad's visiting", "rang Nan".
    (re.compile(rf"(?:\b(?i:with|and|to|for|from|visit|visiting|see|seeing|help|helping|told|asked|call|called|rang|ring|texted|"
                rf"miss|love|took|take|taking)\s+|^)(?P<role>Mum|Mom|Dad|Mam|Mama|Papa|Grandma|Grandpa|Nan|Nana|Gran|Granny|Grandad)\b(?:\s*\(\s*{_PERSON}\s*\))?(?!\s+[A-Z])"), _b_person),
    # British chat names a spouse or the children with "the": "me and the wife", "out with the missus", "the hubby and I".
    (re.compile(r"(?i:me\s+and|me\s+n|with|and\s+i|and\s+me)\s+(?i:the)\s+(?P<role>(?i:wife|missus|hubby|other\s+half|wifey|kids))\b(?!\s+(?i:of|at|in|next)\b)"), _b_person),
    (re.compile(r"^(?i:the)\s+(?P<role>(?i:wife|missus|hubby|other\s+half|wifey))\s+(?i:and\s+(?:i|me))\b"), _b_person),
    # "the wife wants a new couch", "the missus says no": the spouse as the subject of a verb.
    (re.compile(r"^(?i:the)\s+(?P<role>(?i:wife|missus|hubby|other\s+half|wifey))\s+(?=(?i:is|was|has|wants|needs|says|said|thinks|loves|likes|hates|keeps|made|went|got|just|won't|can't|doesn't)\b)"), _b_person),
    # "married to Jack", "engaged to a lovely guy called Raj": the partner, by name.
    (re.compile(r"(?i:married\s+to|engaged\s+to|(?<=\b[Ii]\s)married|(?<=\b[Ii]\sgot\s)married|(?<=\b[Ii]\sjust\s)married)\s+(?:(?i:a|an)\s+(?:[a-z]+\s+){0,2}(?P<who>(?i:guy|man|woman|girl|lady|person|bloke|fella|gal))\s+(?i:called|named)\s+)?(?P<v>[A-Z][a-zà-ÿ'-]+)"),
     lambda m, c: [_f(f"user.relationship.{_spouse(m, c)}", m.group("v"), **_said_of_them(c[m.end():]))] if m.group("v") not in _NOT_NAMES else []),
    (re.compile(r"(?i:grandma|grandpa|granny|nana|aunt|uncle)\s+(?P<v>[A-Z][a-z]+)"), lambda m, c: _b_person(m, c) if False else
     [_f("user.relationship." + ("grandmother" if re.match(r"(?i)gran|nana", m.group()) else "grandfather"), m.group("v"), **_person_attrs(c[m.end():]))]
     if re.match(r"(?i)grand|nana|granny", m.group()) else []),
]
