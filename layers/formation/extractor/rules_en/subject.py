"""Whose fact is it: the checks that the user (not a friend, not "she") is the subject of a predicate.

Applied once for every family by `rules_en.en_fact_candidates`."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.family import _PEOPLE_ROLE

_SUBJECT_TAIL = re.compile(
    r"(?:^|[:—–?!(]\s*|\b(?:i|i'm|im|i\s+am|i've|ive|i\s+have|i\s+had|i'll|i\s+will|i'd|me|my|our)\s+)"
    r"(?:(?:just|finally|recently|currently|now|still|also|actually|basically|officially|really|totally|literally|"
    r"already|even|mostly|usually|always|normally|generally|typically|sometimes|often|got|been|have|had|was|"
    r"originally|kinda|pretty\s+much|at\s+the\s+moment|these\s+days|right\s+now|honestly|tbh|ok|okay|yeah|well|plus|anyway|"
    r"absolutely|definitely|seriously|super|so|quite|pretty|very|truly|a\s+bit|personally|i\s+think|i\s+guess|"
    r"since|then|\d+\s+yrs?|years|ago|currently|not\s+gonna\s+lie|lately|a\s+huge|a\s+big|huge|big|a|work|working|"
    r"started|start|starting|landed|accepted|took|take|do|did|went|go|wedding|dating|first\s+date|engagement|"
    r"please|pls|plz|kindly|but|and|such|massive|total|die-hard|diehard|lifelong|real|true|proper|complete)\s+)*$",
    re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|me|my)\b", re.IGNORECASE)
_OTHER_SUBJECT = re.compile(r"\b(?:he|she|they|we|you|his|her|their|your|friend|buddy|neighbou?r|coworker|"
                            r"co-worker|teammate|client|landlord|barber|cousin|classmate|someone|somebody|people|"
                            # the people the user teaches, treats, employs or meets ("one of my students has …", "a guy in my
                            # class", "half my team works from Lisbon"): their facts are theirs
                            r"students|pupils|patients|employees|staff|team|colleagues|interns|trainees|clients|customers|(?:our|my|the)\s+new\s+(?:hire|intern)|"
                            r"guy|girl|lady|woman|kid\s+i|parents\s+at|(?:one|some|most|many|half|all|a\s+few|several|few|none|each)\s+of\s+(?:my|our|the))\b", re.I)


_ROLE_IN_PREFIX = re.compile(rf"(?i)\b(?:my|our)\s+{_PEOPLE_ROLE}(?:'s)?\b")


def _no_one_else(clause: str, start: int) -> bool:
    """Looser than `_user_said`, for facts that only a person states of themselves in passing
    ("PhD candidate in marine biology at …", "soy allergy here"): fine unless someone else
    (a friend, "she", "my son") stands before the predicate."""
    prefix = clause[:start]
    if _OTHER_SUBJECT.search(prefix) or (_ROLE_IN_PREFIX and _ROLE_IN_PREFIX.search(prefix)):
        return False
    return not re.search(r"(?i)\b(?:is|are|was|were|has|does|says|said|told)\b", prefix)


# "me and my twin sister just hit 27", "my wife and I got married on …": the user is one of the subjects.
_WITH_USER = re.compile(r"(?i)(?:^|\b)(?:me\s+and\s+(?:my|our)\s+(?:[a-z-]+\s+){0,2}[a-z-]+|(?:my|our)\s+(?:[a-z-]+\s+){0,2}[a-z-]+"
                        # "my stepdad Gary and I": the person's name may follow the role.
                        r"(?:\s+(?-i:[A-Z][a-z]+))?\s+and\s+(?:i|me)|(?:i|me)\s+and\s+(?:my|our)\s+(?:[a-z-]+\s+){0,2}[a-z-]+)\s+(?:(?:just|both|finally|have|had|"
                        r"already|recently|are|were)\s+)*$")


def _user_said(clause: str, start: int) -> bool:
    prefix = clause[:start]
    if _WITH_USER.search(prefix):
        return True
    # "my doctor told me to cut out alcohol": advice the user was given is about the user.
    if re.search(r"(?i)\b(?:doctor|doc|gp|dentist|nutritionist|dietitian|cardiologist|physio)\s+(?:has\s+)?(?:told|wants|advised|asked|ordered)\s+me\s+to\s+$", prefix):
        return True
    # "doc has me on metformin", "my psychiatrist put me on sertraline": a drug the user was put on.
    if re.search(r"(?i)\b(?:doctor|doc|gp|psychiatrist|specialist|consultant|endo|endocrinologist|cardiologist|they)\s+(?:has|had|have|put|started|switched)\s+me\s+(?:on|onto)\s+$", prefix):
        return True
    # "I'm a vegan living in Bristol": a participle after the user's own "I'm a …" shares its subject.
    if re.search(r"(?i)\b(?:i'm|im|i\s+am)\s+(?:an?\s+)?(?:[a-z-]+\s+){1,3}$", prefix) and \
            re.match(r"(?i)(?:living|based|working|studying|settled|residing)\b", clause[start:]) and not _OTHER_SUBJECT.search(prefix[-40:]):
        return True
    # "I have asthma and take an inhaler": the second verb shares the first-person subject.
    if re.match(r"(?i)^(?:i|i'm|im|i've)\b", prefix) and re.search(r"(?i)\b(?:and|but|then|also|so)\s+$", prefix) \
            and not _OTHER_SUBJECT.search(prefix):
        return True
    if _OTHER_SUBJECT.search(prefix[-40:]) and not re.search(r"\bi\b|\bi'm\b|\bim\b", prefix[-12:], re.I):
        return False
    if _SUBJECT_TAIL.search(prefix):
        return True
    # "live in Austin, originally from Mexico City", "Manchester lad, living in Leeds now": after a
    # comma or dash a predicate with no subject of its own keeps the one before, when no one else
    # (a friend, "my mum") has been the subject so far.
    cut = max(prefix.rfind(","), prefix.rfind("—"), prefix.rfind("–"), prefix.rfind(";"))
    if cut >= 0 and _SUBJECT_TAIL.search(prefix[cut + 1:].lstrip()) and not _OTHER_SUBJECT.search(prefix) \
            and not _ROLE_IN_PREFIX.search(prefix) and not _REPORTED.search(prefix) \
            and not re.match(r"(?i)like\b", clause[start:]):  # ", like EpiPen-level": a filler, not a verb
        return True
    return False


# Someone else's words or a condition before the predicate: "she said", "if", "whether".
_REPORTED = re.compile(r"(?i)\b(?:said|says|told|tells|asked|thinks|if|whether|when|unless)\b|[\"“”]")


def self_anchored(clause: str, start: int, text: str) -> bool:
    """A predicate that itself opens with "I"/"I'm"/"my" ("…typos im 72 and…") names its subject,
    whatever small talk stands before it, unless that is someone else's words or a condition."""
    if not re.match(r"(?i)(?:i|i'm|im|i\s+am|i've|ive|my)\b", text):
        return False
    prefix = clause[:start]
    return not _REPORTED.search(prefix) and not _OTHER_SUBJECT.search(prefix[-25:])
