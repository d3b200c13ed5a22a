"""Type agreement: whether an entity of the registry can be what a referring expression means, by the
expression's own features (她 is a woman, 它 / it not a person, 那里 / there a place, a head noun names
the kind) and by the predicate of the utterance ("调亮" needs a light, "unlock" a lock)."""
from __future__ import annotations

import functools
import re

from layers.transient.references import lexicon as lx
from layers.transient.references import pronouns as pr
from layers.transient.references.referring import Reference
from layers.transient.references.registry import Entity, has_head, type_family


def _boundary(cue: str) -> re.Pattern | None:
    # An English cue starts a word: "remove it" is not "move it", "unlocked" still says "unlock"; other cues
    # (zh, "°") may sit anywhere.
    return re.compile(r"(?<![a-z])" + re.escape(cue)) if cue[:1].isascii() and cue[:1].isalpha() else None


# Compiled once: a substring test first (fast on a long turn), the word start checked only for a cue found.
_PREDICATES = [([(cue, _boundary(cue)) for cue in cues], constraint)
               for cues, constraint in pr.ZH_PREDICATES + pr.EN_PREDICATES]


@functools.lru_cache(maxsize=256)
def predicate_of(text: str) -> dict:
    """The first predicate whose cue the text says (each reference of one utterance asks for the same text)."""
    low = text.lower()
    for cues, constraint in _PREDICATES:
        if any(cue in low and (boundary is None or boundary.search(low)) for cue, boundary in cues):
            return constraint
    return {}


_AREA_CUES = [cues for cues, constraint in _PREDICATES if constraint.get("area")]


@functools.lru_cache(maxsize=256)
def said_of_area(text: str) -> bool:
    """Whether the text says something of an area (its weather, where to stay in it), whatever other predicate
    it says first."""
    low = text.lower()
    return any(cue in low and (boundary is None or boundary.search(low)) for cues in _AREA_CUES for cue, boundary in cues)


def fits_predicate(entity: Entity, constraint: dict) -> bool:
    names = " ".join(entity.surfaces()).lower()
    heads, types = constraint.get("heads"), constraint.get("types")
    if heads and any(h in names for h in heads):
        return True
    # A noun the lexicon lacks, taken from how it was said ("my treadmill"), may be any kind; a capitalised word
    # only guessed to be a name ("Sunny, with a high of 24°C") is no machine that turns on, whatever its guess.
    if constraint.get("switched") and entity.weak and not entity.guess:
        return False
    if types and (entity.type in types or entity.weak):
        return True
    return not heads and not types


def compatible(entity: Entity, ref: Reference) -> bool:
    if ref.person is True and entity.type != lx.PERSON:
        return False
    if ref.person is False and entity.type == lx.PERSON:
        return False
    if ref.person is True and ref.gender and entity.gender and entity.gender != ref.gender and not ref.plural:
        return False
    if entity.type == lx.PERSON and entity.plural and ref.person is True and not ref.plural:
        return False  # "her" is not "the kids"
    if ref.place and entity.type not in lx.PLACE_LIKE:
        return False
    if ref.head:
        names = " ".join(entity.surfaces()).lower()
        generic = ref.head in ("店", "store", "shop", "地方", "place", "spot")
        if ref.head.lower() not in names and not (generic and entity.type in lx.PLACE_LIKE):
            # "that restaurant" may be "Lotus of Siam" (a bare name of that type), not "the museum".
            # Other kinds: the head names the type ("那班飞机" is the flight MU5102).
            if not (entity.type == ref.head_type and (ref.head_type not in lx.PLACE_LIKE or not has_head(entity))):
                # A name only guessed to be a place ("We went to Chez Panisse") may be "that restaurant".
                guessed_place = entity.weak and entity.type == lx.PLACE and ref.head_type in lx.PLACE_LIKE \
                    and not has_head(entity)  # a guessed restaurant ("dinner at Olive Garden") is no hotel
                if not guessed_place:
                    return False
    elif ref.head_type and type_family(entity.type) != type_family(ref.head_type) and not (
            ref.head_type in lx.PLACE_LIKE and entity.type in lx.PLACE_LIKE):
        return False
    return True
