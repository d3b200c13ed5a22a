"""English first-person rules, one module per fact family. Each takes one folded clause and
returns Candidates.

Verbs match case-insensitively; names and places must be capitalised ("I live in Berlin", not
"I live in a flat"), which is what keeps precision up without a tagger. Negations never match
("I don't live in Paris anymore" has no "I live in"), and neither do past habits ("I used to").

Two kinds of rules per family: `SENTENCE_RULES` (the older "I <verb> <value>" patterns, run by
`match_clause`) and `FACT_RULES` (a predicate whose subject `subject._user_said` checks, run by
`en_fact_candidates`). The order below is the order they are tried in; within a family, the first
reading of a span wins.
"""
from __future__ import annotations

import re
from functools import lru_cache

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en import (
    contact,
    diet,
    education,
    employment,
    family,
    habits,
    health,
    languages,
    likes,
    location,
    personal,
    pets,
    plans,
)
from layers.formation.extractor.rules_en.common import (
    Candidate,
    expand_shared_subject,
    match_rules,
)
from layers.formation.extractor.rules_en.contact import _CHANNELS, _b_contact
from layers.formation.extractor.rules_en.diet import _b_diet, _b_restriction, _b_restriction_for_reason
from layers.formation.extractor.rules_en.education import _b_education, _b_lower_school, _b_school_kind, _b_school_kind_attended
from layers.formation.extractor.rules_en.employment import (
    _b_employer,
    _b_former,
    _b_occupation_as,
)
from layers.formation.extractor.rules_en.family import (
    attributes_said_later,
    _b_lower_named,
    _b_named_after_have,
    _b_named_before,
    _b_named_group,
    _b_parent_of,
    _b_person,
    _b_person_bare,
)
from layers.formation.extractor.rules_en.habits import _b_habit, _is_habit_clause
from layers.formation.extractor.rules_en.health import (
    allergen_first,
    _b_dose_changed,
    _b_drug_not_working,
    _b_drug_first,
    _b_shot,
    _b_dose_of,
    _b_my_pregnancy,
    _b_named_drug,
    _b_allergy,
    _b_allergy_noun,
    _b_condition,
    _b_medication,
)
from layers.formation.extractor.rules_en.languages import _b_exam, _b_language
from layers.formation.extractor.rules_en.likes import ironic_taste
from layers.formation.extractor.rules_en.location import _b_office
from layers.formation.extractor.rules_en.personal import _b_anniversary, _b_called_name, _b_couple_years, _b_together, _b_years_married
from layers.formation.extractor.rules_en.pets import _b_pet, _b_pets, breed_said_later
from layers.formation.extractor.rules_en.plans import _b_be_there, _b_plan, _b_progressive_plan, plan_candidate
from layers.formation.extractor.rules_en.subject import (
    _OTHER_SUBJECT,
    _REPORTED,
    _no_one_else,
    _user_said,
    self_anchored,
)
from layers.formation.extractor.text import is_cjk, is_generic, is_past_state, is_time_or_routine, settle_values

__all__ = ["Candidate", "allergen_first", "attributes_said_later", "breed_said_later", "en_fact_candidates", "match_clause", "match_rules", "plan_candidate",
           "said_in_present"]

_SENTENCE_FAMILIES = (personal, location, employment, health, diet, likes, habits, family, pets)
_FACT_FAMILIES = (employment, education, location, languages, health, diet, likes, contact, personal, pets, family,
                  plans, habits)
_RULES = [rule for module in _SENTENCE_FAMILIES for rule in module.SENTENCE_RULES]
_EN_FACT_RULES = [rule for module in _FACT_FAMILIES for rule in module.FACT_RULES]


def match_clause(clause: str) -> list[Candidate]:
    found: list[Candidate] = []
    if _quoted_spans(clause) or is_generic(clause):
        return found
    for part in expand_shared_subject(clause):
        found.extend(c for c in match_rules(part, _RULES) if not (c.memory_key == "user.likes" and ironic_taste(c.value)))
    if not found:
        plan = plan_candidate(clause)
        if plan:
            found.append(plan)
    return settle_values(found)


# Rules that need the clause's own subject to be the user (or dropped). Plans, pets and people use
# their own anchors ("my dog", "my flight").
# Every contact rule's builder: "you" before a contact preference is whoever reaches the user.
_CONTACT_BUILDERS = {build for _, build in contact.FACT_RULES}
_EN_SUBJECT_FREE = {_b_couple_years, _b_dose_changed, _b_person, _b_person_bare, _b_named_group, _b_pet, _b_pets, _b_lower_named, _b_named_before, _b_named_after_have, _b_called_name}
# Statements people make about themselves without "I" in front; checked with `_no_one_else`.
_EN_LOOSE = {_b_drug_not_working, _b_drug_first, _b_shot, _b_parent_of, _b_contact, _b_occupation_as, _b_education, _b_school_kind, _b_school_kind_attended, _b_lower_school, _b_dose_of, _b_my_pregnancy, _b_named_drug, _b_allergy, _b_allergy_noun, _b_condition, _b_diet, _b_language, _b_former, _b_employer,
             _b_medication, _b_restriction, _b_restriction_for_reason, _b_office, _b_anniversary, _b_together, _b_years_married, _b_exam}


# Someone's words in single quotes ("he texted me 'I'm moving to Leeds'", "my mum's line is 'I'm
# allergic to housework'"): text.blank_quotes takes double quotes only, since a single one is also
# an apostrophe; after a verb of saying, an opening quote runs to a closing one that ends a word.
_SAID_IN_QUOTES = re.compile(
    r"(?i)\b(?:says?|said|wrote|writes|texted|tweeted|posted|goes|line\s+is|motto\s+is|sang|sings|announced|yelled|"
    r"opens\s+with|(?:song|film|movie|book|show|title|album|lyric|poem|sign|shirt|mug|tweet|post|caption|headline|meme|comment|bio|status|slogan|quote|tiktok|reel|那首|这首|那句|这句|歌词|歌里)(?:\s+(?:called|titled|that\s+says))?|told|asked|singing|sings|sang|saying|shouting|yelling|keeps\s+saying)(?:\s+(?:me|us|him|her|them))?\s*:?\s+['‘](?P<q>.*?)(?:['’](?=\s|$|[,.!?;])|$)")


@lru_cache(maxsize=256)
def _quoted_spans(clause: str) -> tuple[tuple[int, int], ...]:
    # Cached: match_clause and en_fact_candidates both ask it of the same clause.
    return tuple(m.span("q") for m in _SAID_IN_QUOTES.finditer(clause))


# "what's it like working at Amazon", "how is it living in Leeds": a question in all but its mark.
_ASKS_WHAT_IT_IS_LIKE = re.compile(r"(?i)^(?:so\s+|and\s+|but\s+)?(?:what's|whats|what\s+is|how's|hows|how\s+is)\s+it\s+(?:like\s+)?\w+ing\b")


def en_fact_candidates(clause: str) -> list[Candidate]:
    found: list[Candidate] = []
    if _ASKS_WHAT_IT_IS_LIKE.match(clause) or is_generic(clause):
        return found
    taken: list[tuple[int, int, str]] = []
    quoted = _quoted_spans(clause)
    for pattern, build in _EN_FACT_RULES:
        for match in pattern.finditer(clause):
            if any(start <= match.start() < end for start, end in quoted):
                continue
            # A household move or pet ("we just relocated to Toronto", "we adopted a greyhound") is the user's too.
            household = (getattr(build, "__qualname__", "").startswith(("_b_place", "_b_date")) or build in (_b_pet, _b_pets, _b_plan, _b_progressive_plan, _b_be_there, _b_diet)) and (re.search(
                r"(?i)(?:^|\s)(?:we|we've|we're|we\s+have|we\s+are)\s+(?:just\s+|finally\s+|recently\s+|now\s+|been\s+|both\s+|officially\s+)*$", clause[:match.start()])
                # "we have a golden retriever called Honey and a tabby called Toast": the household goes on.
                or re.match(r"(?i)(?:we|we've|we're)\b[^.;!?]*\band\s+$", clause[:match.start()]) and not _OTHER_SUBJECT.search(clause[2:match.start()]))
            # "walking Rufus, my beagle": a name before "my <pet>" is owned by that "my" as much as one after it.
            # "the hamster is called Nugget and the gecko is Pickle": a pet named after another pet named is as much the user's.
            after_pets = re.fullmatch(r"(?:(?i:the|our|my)\s+[a-z]+(?:'s|\s+is\s+called|\s+is\s+named|\s+is)\s+[A-Z][a-z]+\s*(?:,\s*|\s+and\s+|,\s*and\s+))+", clause[:match.start()]) is not None
            if build in (_b_pet, _b_pets) and not household and not after_pets and not re.match(r"(?i)my|our", match.group()) and not match.groupdict().get("before") and not (
                    _user_said(clause, match.start()) or _no_one_else(clause, match.start())):
                continue
            # "my brother's wedding next saturday", "my sister's getting married in Italy": a family event the user goes to.
            family_event = build in (_b_plan, _b_progressive_plan) and re.search(r"(?i)\b(?:my|our)\s+[a-z-]+(?:\s+[a-z-]+)?'s\s+$", clause[:match.start()]) \
                and not re.match(r"(?i)(?:flying|driving|heading|headed|going|moving|leaving|travell?ing|visiting|off\s+to|starting|having)\b", clause[match.start():])
            # "if you need me, WhatsApp is best": in a contact preference "you" is whoever reaches the user, no other subject.
            unaddressed = re.sub(r"(?i)\byou(?:r)?\b", "", clause[:match.start()]) if build in _CONTACT_BUILDERS else None
            # "quick thing before we start, pls don't call me": asked with "me", it is the user's way of being reached.
            addressed = unaddressed is not None and (_no_one_else(unaddressed, len(unaddressed)) or (
                re.search(r"(?i)\bme\b", match.group()) is not None and not _REPORTED.search(clause[:match.start()])))
            if build not in _EN_SUBJECT_FREE and not household and not family_event and not addressed and not _user_said(clause, match.start()) and not self_anchored(clause, match.start(), match.group()) and not (
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
    found = [c for c in found if not (c.memory_key == "user.likes" and ironic_taste(c.value))]
    if any(c.memory_key == "user.contact_preference" for c in found):
        found = [c for c in found if not (c.memory_key in ("user.likes", "user.dislikes") and re.search(rf"(?i)\b(?:{_CHANNELS})\b", c.value))]
    # "Doctor, 41, from Cork": a role opening a self-introduction is no name.
    roles_said = {c.value.casefold() for c in found if c.memory_key == "user.occupation"}
    found = [c for c in found if not (c.memory_key == "user.name" and c.value.casefold() in roles_said)]
    # "I'm a Netflix engineer": the role is "engineer", not also "Netflix engineer".
    roles = {c.value.casefold() for c in found if c.memory_key == "user.occupation"}
    found = [c for c in found if not (c.memory_key == "user.occupation" and any(
        c.value.casefold() == f"{org} {role}" for org in {e.value.casefold() for e in found if e.memory_key == "user.employer"} for role in roles))]
    # "I'm a teacher at Westfield Academy": a school one works at is the employer, not one's education.
    employers_here = {c.value.casefold() for c in found if c.memory_key == "user.employer"}
    if employers_here and any(c.memory_key == "user.occupation" for c in found):
        found = [c for c in found if not (c.memory_key == "user.education" and c.value.casefold() in employers_here)]
    # "got the job!!! starting at Airbnb in two weeks": starting a named job is the employer (FACTS.md), not a plan.
    employers = [c.value.casefold() for c in found if c.memory_key == "user.employer"]
    found = [c for c in found if not (c.memory_key == "user.plan" and re.match(r"(?i)start(?:ing)?\b", c.value)
                                      and (employers or re.search(r"(?i)\bnew\s+job\b", c.value) and employers))]
    if quoted:
        # Around a quotation an unnamed person is its speaker ("my mum's classic line is '…'"), not a fact.
        found = [c for c in found if not (c.memory_key.startswith("user.relationship") and not c.value)]
    # A recurring clause ("I run 5k on Tuesday and Thursday evenings") is a habit, not a dated plan;
    # a habit needs the user as its doer (not "nobody likes Mondays", not "my parrot says hello").
    someone_else = re.search(r"(?i)^(?:my|our)\s+\w+|\b(?:nobody|everyone|everybody|people|he|she|they|guy|girl|man|woman|lady|bloke|"
                             r"friend|mate|buddy|coworker|colleague|neighbou?r|students|patients|employees|staff|team|clients|customers|"
                             r"(?:one|some|most|many|half|all|a\s+few|several)\s+of\s+(?:my|our|the))\b", clause)
    habit = _is_habit_clause(clause) and not quoted and not someone_else
    if habit:
        found = [c for c in found if c.memory_key != "user.plan" or A.frequency(clause) is None and not re.search(
            r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|\bday\s+(?:mornings|evenings|nights)\b|\band\s+\w+day\s+(?:mornings|evenings|nights)", clause)]
    # A time read as a thing ("so mornings are off limits" as a food, text.is_time_or_routine) leaves the clause to
    # its habit as much as no reading at all.
    if habit and not any(not c.memory_key.startswith(("user.relationship", "user.pet", "user.languages")) and not is_time_or_routine(c.value)
                         for c in found):
        body = re.sub(r"(?i)^(?:i\s+)?", "", clause)
        if _user_said(clause, 0):
            found.extend(_b_habit(re.match(r"(?P<v>.*)", body), clause))
    return settle_values(found)


# A part ends at a comma or dash, and also before "but": "used to live in Phoenix but we moved to Tucson" turns
# to the present at "but" without a comma (the "but" opens the part it turns, so _NOW_EN sees it).
_PART = re.compile(r"(?i)(?:\bbut\b)?(?:(?!\bbut\b)[^,;—–])+")
_NOW_EN = re.compile(r"(?i)\b(?:now|currently|these\s+days|nowadays|still|but|today)\b")


def said_in_present(value: str, clause: str) -> bool:
    """Whether `value` sits in a part of an English past-state clause that is not itself past: "my German is
    fluent, lived in Munich for 6 years" has its past in the second part only, so the German is current; "I
    used to live in Madrid, loved it" carries the past into the part after it unless that part says "now"."""
    if not value or is_cjk(clause):
        return False
    at = clause.casefold().find(value.casefold())
    if at < 0:
        return False
    past = False
    for part in _PART.finditer(clause):
        past = is_past_state(part.group()) or (past and not _NOW_EN.search(part.group()))
        if part.start() <= at < part.end():
            return not past
    return False
