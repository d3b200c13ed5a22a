"""Pets: species, names, breed and age."""
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
    _proper,
)

_PETS = {"dog": "dog", "cat": "cat", "puppy": "dog", "kitten": "cat"}


_PET = "(?P<role>" + "|".join(_PETS) + ")"


_SPECIES_EN = {"dog": "dog", "dogs": "dog", "puppy": "dog", "pup": "dog", "cat": "cat", "cats": "cat", "kitten": "cat",
               "kitty": "cat", "rabbit": "rabbit", "bunny": "rabbit", "parrot": "parrot", "bird": "bird",
               "hamster": "hamster", "fish": "fish", "goldfish": "fish", "turtle": "turtle", "tortoise": "turtle",
               "gecko": "gecko", "chinchilla": "chinchilla", "guinea pig": "guinea_pig", "snake": "snake",
               "ferret": "ferret", "horse": "horse", "lizard": "lizard",
               # code-switched turns ("we have a 猫 named Mimi")
               "猫": "cat", "猫咪": "cat", "狗": "dog", "狗狗": "dog", "小狗": "dog", "兔子": "rabbit", "仓鼠": "hamster",
               "鹦鹉": "parrot", "乌龟": "turtle", "金鱼": "fish"}


# Plurals: "two rabbits, Peanut and Butter".
_SPECIES_EN.update({f"{word}s": species for word, species in list(_SPECIES_EN.items()) if not word.endswith(("s", "sh")) and word.isascii()})
_SPECIES_EN.update({"bunnies": "rabbit", "puppies": "dog", "kitties": "cat", "budgies": "bird", "fishes": "fish"})


_BREEDS_EN = {"shiba": "dog", "shiba inu": "dog", "golden retriever": "dog", "retriever": "dog", "labrador": "dog",
              "lab": "dog", "pug": "dog", "beagle": "dog", "dachshund": "dog", "corgi": "dog", "poodle": "dog",
              "husky": "dog", "collie": "dog", "border collie": "dog", "terrier": "dog", "bulldog": "dog",
              "french bulldog": "dog", "frenchie": "dog", "chihuahua": "dog", "greyhound": "dog", "spaniel": "dog",
              "schnauzer": "dog", "doodle": "dog", "labradoodle": "dog", "german shepherd": "dog", "samoyed": "dog",
              "maltese": "dog", "rottweiler": "dog", "boxer": "dog", "budgie": "bird", "cockatiel": "bird",
              "canary": "bird", "parakeet": "bird", "lovebird": "bird", "betta": "fish", "betta fish": "fish",
              "siamese": "cat", "tabby": "cat", "ragdoll": "cat", "maine coon": "cat", "persian": "cat",
              "sphynx": "cat", "british shorthair": "cat", "bengal": "cat", "holland lop": "rabbit",
              "leopard gecko": "gecko", "cockatoo": "parrot", "macaw": "parrot", "african grey": "parrot",
              "cavapoo": "dog", "cockapoo": "dog", "cavalier": "dog", "cavalier king charles": "dog", "staffie": "dog",
              "staffy": "dog", "jack russell": "dog", "whippet": "dog", "shih tzu": "dog", "bichon": "dog",
              "pomeranian": "dog", "yorkie": "dog", "dalmatian": "dog", "great dane": "dog", "akita": "dog",
              "vizsla": "dog", "weimaraner": "dog", "springer spaniel": "dog", "cocker spaniel": "dog",
              "goldendoodle": "dog", "bernese": "dog", "lurcher": "dog", "mastiff": "dog", "pit bull": "dog",
              "norwegian forest cat": "cat", "burmese": "cat", "abyssinian": "cat", "scottish fold": "cat",
              "lionhead": "rabbit", "lop": "rabbit", "mini lop": "rabbit", "conure": "parrot", "zebra finch": "bird",
              "finch": "bird", "bearded dragon": "lizard", "corn snake": "snake", "python": "snake"}


_PET_WORD = "|".join(sorted(list(_SPECIES_EN) + list(_BREEDS_EN), key=len, reverse=True))
# The Chinese species words are rules_zh's to read in a Chinese sentence; in one, only an English word is ours.
_PET_WORD_ASCII = "|".join(sorted((w for w in list(_SPECIES_EN) + list(_BREEDS_EN) if w.isascii()), key=len, reverse=True))


# Species words that also say the kind ("two goldfish"): the kind is kept as the breed (FACTS.md).
_KIND_WORDS = {"goldfish": "goldfish", "budgie": "budgie", "budgies": "budgie", "tortoise": "tortoise"}


# A pet word that modifies the noun after it names no animal: "a lab report", "boxer shorts", "a python
# script", "dog food", "the cat video". (A name after the word is capitalised or follows named/called.)
_COMPOUND_HEAD = re.compile(r"(?i)\s+(?:reports?|results?|tests?|work|coats?|partners?|mates?|techs?|sessions?|"
                            r"meetings?|class(?:es)?|shorts|scripts?|code|food|beds?|toys?|sitters?|walkers?|"
                            r"parks?|shows?|hair|fur|allerg\w*|people|person|lovers?|videos?|memes?|treats?|"
                            r"days?|years?|fights?|rescues?|shelters?|groom\w*|trainers?|training|breeds?|"
                            r"owners?|friendly|equipment|bench|notebook|manual|assistant|"
                            # "the cat café", "a dog hotel", "the cat flap": a place or a thing for animals
                            r"caf[eé]s?|hotels?|kennels?|daycare|flaps?|litter|insurance|sitting|walking|naps?)\b")


def _b_pet(m, clause):
    word = m.group("sp").lower()
    species = _SPECIES_EN.get(word) or _BREEDS_EN.get(word)
    if not species or _COMPOUND_HEAD.match(clause, m.end("sp")):
        return []
    name = m.groupdict().get("v") or m.groupdict().get("before")
    name = name if name and name not in _NOT_NAMES else ""
    if not name:
        later = re.search(r"(?i:named|called|calling|call|name's|names|name\s+is|'s\s+name\s+is)\s+(?:(?i:him|her|it|them)\s+)?(?P<n>[A-Za-z][a-z]+)", clause[m.end() - 2:])
        if later and later.group("n") not in _NOT_NAMES:
            name = later.group("n")
    breed = word if word in _BREEDS_EN else _KIND_WORDS.get(word)
    after = clause[m.end():]
    if breed is None:
        # "My dog's name is Bruno, he's a beagle", "my rabbit Thumper is a Holland Lop".
        # "my dog's a 4 year old lab called Bruno", "our new puppy, a cockapoo, is called Mochi".
        # "the dog (a pug named Waffles)", "my cat, a ragdoll called Miso": the breed in brackets or apposition
        # right after the species, before the name the match took.
        said = re.search(rf"(?i)^[^.]{{0,30}}?(?:\b(?:is|he's|she's|hes|shes)\s+|'s\s+|^\s*[,(]\s*)(?:an?\s+)?(?:(?P<a>\d{{1,2}})[- ](?:year|yr)s?[- ]old\s+)?(?:(?:little|big|rescue|mini|miniature)\s+)?(?P<b>{_PET_WORD})\b", after)
        beside = re.match(rf"(?i)\s*[,(]\s*(?:an?\s+)?(?P<b>{_PET_WORD})\b", clause[m.end("sp"):])
        if beside and beside.group("b").lower() in _BREEDS_EN and not (said and said.group("b").lower() in _BREEDS_EN):
            breed = beside.group("b")
        if said and said.group("b").lower() in _BREEDS_EN:
            breed = said.group("b")
            if said.group("a") and not m.groupdict().get("age"):
                m_age = said.group("a")
                age_said = A.plausible_age(A.en_int(m_age))
                if age_said is not None:
                    return [_f(f"user.pet.{species}", name, breed=breed, age=age_said)]
    age = m.groupdict().get("age")
    if not age:
        # "Miso (my cat, 12, ginger)", "my dog, 9 years old, still acts like a puppy": an age in apposition.
        beside_age = re.match(r"(?i)^\s*[,(]?\s*(?:aged\s+|age\s+)?(?P<a>\d{1,2})\s*(?:(?:years?|yrs?)(?:\s+old)?|yo|y/o)?\s*(?=[,)]|$)", after)
        age = beside_age.group("a") if beside_age else None
    if not age:
        # "a lab named Maple, is 10 now", "a rescue greyhound, Pepper, she's 3".
        said = re.match(r"(?i)^[^.]{0,25}?\b(?:is|'s|he's|she's|turns|turned|just\s+turned)\s+(?P<a>\d{1,2})\b(?!\s*(?:weeks|months|days|kg|lbs|am|pm|%|min))", after)
        age = said.group("a") if said else None
    return [_f(f"user.pet.{species}", name, breed=breed, age=A.en_int(age) if age else None)]


# "He's a beagle." or a sentence that is the breed alone: "Got a puppy last week! Golden retriever, no name yet".
_BREED_LATER = re.compile(rf"(?:^|(?<=[.!?])\s+)(?:(?i:he|she|it)(?:'s|\s+is)\s+(?:(?i:an?)\s+)?(?:(?i:little|big|rescue|mini|miniature|young|old)\s+)?(?P<b>(?i:{_PET_WORD}))\b"
                          rf"|(?:(?i:an?)\s+)?(?P<f>(?i:{_PET_WORD}))\s*(?=[,.!;–—-]|$))")


def breed_said_later(text: str) -> str | None:
    """"We got a puppy last week. He's a beagle.": the breed a sentence of its own gives the one pet of a turn."""
    for match in _BREED_LATER.finditer(text):
        said = match.group("b") or match.group("f")
        if said.lower() in _BREEDS_EN:
            return said
    return None


def _b_pet_keeper(m, clause):
    species = _SPECIES_EN.get(m.group("sp").lower())
    breed = re.search(rf"(?i)\bto\s+(?:(?:two|three|four|\d)\s+)?(?P<b>{_PET_WORD})", clause[m.end():])
    word = breed.group("b").lower().rstrip("s") if breed else None
    return [_f(f"user.pet.{species}", "", breed=word if word in _BREEDS_EN else None)] if species else []


def _b_pets(m, clause):
    word = m.group("sp").lower()
    species = _SPECIES_EN.get(word) or _BREEDS_EN.get(word)
    names = [n for n in re.split(r"\s*,\s*|\s+and\s+|\s*&\s*", m.group("names")) if n]
    # In a capitalised text the names are the capitalised words ("Tom and Jerry, hate each other").
    if any(ch.isupper() for ch in clause):
        names = [n for n in names if n[:1].isupper()]
    return [_f(f"user.pet.{species}", name, breed=_BREEDS_EN.get(word) and word or _KIND_WORDS.get(word)) for name in names] if species else []


def _legacy_pet(match: re.Match) -> list[Candidate]:
    value = _proper(match.group("v"))
    if not value:
        return []
    return [_c(f"user.pet.{_PETS[match.group('role').lower()]}", value)]


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?:^|\b)(?i:my)\s+{_PET}(?:(?i:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+named|\s+called)|,)?\s+{_NAME}"), _legacy_pet),
    (re.compile(rf"{_I}\s+(?i:have)\s+(?i:a|an)\s+{_PET}\s+(?i:named|called)\s+{_NAME}"), _legacy_pet),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
# Words that describe a pet without being its species or name: "a rescue greyhound", "my old dog Rex".
_PET_MODIFIERS = (r"(?:(?:(?i:rescue|rescued|adopted|new|little|old|senior|elderly|tiny|fat|lazy|black|white|ginger|"
                  r"orange|grey|gray|brown|young|baby|sweet|big|fluffy|giant|mini|miniature|one-eyed|blind|deaf|deaf|tabby|stray)|"
                  r"(?:\d|one|two|three)[- ]legged)\s+){0,2}")


FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "walking Rufus, my beagle", "rush Waffles (our corgi) to the vet": the name first, the pet after it.
    (re.compile(rf"(?P<before>[A-Z][a-z]+)\s*(?:,|\()\s*(?i:my|our)\s+{_PET_MODIFIERS}(?P<sp>(?i:{_PET_WORD}))\b\s*(?:\)|,|$|[.!?]|\s+(?i:and|who|is|was|has|had)\b)"), _b_pet),
    # "the hamster is called Nugget and the gecko is Pickle": a pet named by "is" and a capitalised name that ends its clause.
    (re.compile(rf"(?:^|(?<=\band\s)|(?<=,\s))(?:(?i:the|our|my)\s+)(?:(?i:new|little|old)\s+)?(?P<sp>(?i:{_PET_WORD}))(?:'s|\s+is)\s+(?P<v>[A-Z][a-z]+)(?=\s*(?:$|[,.;!?—–]|\s+(?i:and|now|btw|lol)\b))"), _b_pet),
    # Possessed, not merely seen: "a big dog chased me" is nobody's pet ("a … named X" is below).
    (re.compile(rf"(?i:my|our|the|got\s+a|have\s+a|adopted\s+a|rescued\s+a|brought\s+home\s+a|bought\s+a|took\s+in\s+a|fostering\s+a|own\s+a|keep\s+(?:a|some)|i\s+keep)\s+{_PET_MODIFIERS}(?P<sp>(?i:{_PET_WORD}))(?=(?i:s|es)?\b)(?:\s*\(?(?i:a\s+\w+\s+)?)?(?:,?\s*(?:(?i:named|called|calling\s+(?:him|her|it)|named\s+(?:him|her|it)|is\s+called|is\s+named|'s\s+name\s+is)\s+)?(?P<v>[A-Z][a-z]+)\b)?(?:[^.]{{0,20}}?\b(?i:is)\s+(?P<age>\d{{1,2}})\b)?"), _b_pet),
    (re.compile(rf"(?i:a)\s+{_PET_MODIFIERS}(?P<sp>(?i:{_PET_WORD}))\s+(?i:named|called)\s+(?P<v>[A-Z][a-z]+)"), _b_pet),
    # "pup's name is Milo", "kitten is called Ziggy": a pet named without "my".
    (re.compile(rf"^(?:(?i:the|our|my)\s+)?(?:(?i:new|little|old)\s+)?(?P<sp>(?i:{_PET_WORD}))(?:'s\s+name\s+is|'s\s+called|\s+is\s+called|\s+is\s+named)\s+(?P<v>[A-Z][a-z]+)"), _b_pet),
    # "There's a leopard gecko living on my desk", "there's a rabbit in our flat now": the pet lives with the user.
    (re.compile(rf"(?i:there's|there\s+is|theres)\s+(?i:a|an)\s+{_PET_MODIFIERS}(?P<sp>(?i:{_PET_WORD}))\s+(?:(?i:living|that\s+lives|who\s+lives|asleep|sleeping)\s+)?(?i:in|on|at|under)\s+(?i:my|our)\b"), _b_pet),
    # "我的dog叫Max", "我家cat叫Luna": an English species in a Chinese sentence, named with 叫.
    (re.compile(rf"(?:我的|我家|my\s+)(?P<sp>(?i:{_PET_WORD_ASCII}))\s*(?:叫|名叫|名字叫|的名字是)\s*(?P<v>[A-Z][a-z]+)"), _b_pet),
    # "a cat, Smudge, and a dog, Rolo": a name in apposition.
    (re.compile(rf"(?i:a|an)\s+{_PET_MODIFIERS}(?P<sp>(?i:{_PET_WORD}))\s*,\s*(?P<v>[A-Z][a-z]+)\b"), _b_pet),
    # "I have two rabbits", "we've got three cats": an unnamed group is one fact (FACTS.md), after the named lists below.
    # "a cat mum to two ragdolls", "dog dad": the user keeps that species.
    (re.compile(r"(?P<sp>(?i:cat|dog|bunny|rabbit|bird|hamster|fish))\s+(?i:mum|mom|mama|dad|parent|lady|owner)\b"), _b_pet_keeper),
    # "I have a 2 year old husky named Storm": the age before the species.
    (re.compile(rf"(?i:have|got|adopted|my|our|with)\s+(?i:an?\s+)?(?P<age>\d{{1,2}})[- ](?i:year|yr)s?[- ](?i:old)\s+{_PET_MODIFIERS}(?P<sp>(?i:{_PET_WORD}))(?:\s+(?i:named|called)\s+(?P<v>[A-Z][a-z]+))?"), _b_pet),
    (re.compile(rf"(?:(?i:have|got|own|adopted|with|ive\s+got|i've\s+got|my|our)|^(?i:(?:my\s+|our\s+|the\s+)?(?:pets|animals|furbabies|zoo|menagerie))\s*[:=–-]|^(?=(?i:two|three|four|2|3|4)\s))\s*(?i:two|three|four|2|3|4|a\s+couple\s+of)\s+(?P<sp>(?i:{_PET_WORD}))(?:\s*[,:(-]\s*|\s+(?i:named|called|are|are\s+called|are\s+named)\s+|\s+(?=[A-Z]))(?P<names>[A-Za-z][a-z]+(?:(?:\s*,\s*|\s+and\s+|\s*&\s*)[A-Za-z][a-z]+)+)"), _b_pets),
    (re.compile(rf"(?i:have|got|own|adopted|rescued|with)\s+(?i:two|three|four|five|2|3|4|5|a\s+couple\s+of|several)\s+{_PET_MODIFIERS}(?P<sp>(?i:{_PET_WORD}))\b"), _b_pet),
]
