"""Follow-ups across turns: a turn that goes on about a person or pet an earlier turn introduced.

"我有两个孩子" then "大的叫毛毛，今年六岁"; "I have a dog" then "his name is Rex, he's 4"; "我有个弟弟" then
"他叫小明". The later turn names nobody of its own, so the rules of one turn (`offline._user_turn`) see only
a rank (老大, the older one) or a pronoun (他/她/它, he/she/it) and, at best, mistake the child's age or
school for the user's. Here the earlier turns' people and pets are kept as referents, and a sentence that
opens with a rank or a pronoun is read as being about one of them:

- a rank (老大, 大的, 小的, the older one, the youngest) points at the latest mention that counted several
  ("两个孩子", "two kids", "俩猫");
- 它 / it points at the latest pet; 他 / he and 她 / she at the latest person whose role fits the pronoun
  (a son is no "she"), else at the latest pet (people say "she" of a cat);
- only a named referent or a name given now makes a memory (an age with no one to hang it on says less
  than the earlier mention already did), except for the one unnamed referent a pronoun points at.

The user-level facts the same sentence seemed to state (user.age from "今年六岁", user.education from
"上初一") are the referent's, so they are dropped. Callers pass earlier turns of the session as
context (`TranscriptTurn.context`), so a follow-up resolves across extraction runs too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_en.family import attributes_said_later

_MALE = {"husband", "boyfriend", "son", "father", "brother", "older_brother", "younger_brother", "grandfather", "fiance"}
_FEMALE = {"wife", "girlfriend", "daughter", "mother", "sister", "older_sister", "younger_sister", "grandmother", "fiancee"}
# A mention that counts several ("两个孩子", "俩娃", "two kids", "twins"): a rank picks one of them.
_SEVERAL = re.compile(r"(?i)[两俩二三四几][个只条位]?(?:孩子|娃|儿子|女儿|闺女|宝|猫|狗|只|条)|双胞胎|龙凤胎|儿女|"
                      r"\b(?:two|three|four|2|3|4|a\s+couple\s+of)\s+(?:\w+\s+)?(?:kids|children|sons|daughters|boys|girls|cats|dogs|"
                      r"rabbits|hamsters|birds|fish)\b|\btwins\b|\btriplets\b")

_ZH_NAME = r"(?P<name>[\u4e00-\u9fff]{1,3}?|[A-Z][a-zA-Z]+)(?=$|[，,。.！!？?、\s~～]|今年|现在|已经|才|刚|\d|[一二两三四五六七八九十]+岁|是|也|，)"
_ZH_RANK = r"老[大二三四小幺]|大的|小的|大宝|二宝|小宝|大一点的|小一点的"
_ZH_PRONOUN = r"[他她它牠]"
# "大的叫毛毛", "它叫咪咪", "他的名字叫小明", "老二名叫豆豆"; a bare "叫毛毛" opens only the turn's first part.
_ZH_NAMED = re.compile(rf"^(?:(?P<rank>{_ZH_RANK})|(?P<pro>{_ZH_PRONOUN}))?(?:那个|那只|那条)?(?:的)?(?:名字|大名|小名|全名)?(?:叫做?|名叫|是)\s*{_ZH_NAME}")
_ZH_OPENS = re.compile(rf"^(?:(?P<rank>{_ZH_RANK})|(?P<pro>{_ZH_PRONOUN}))(?!们)")
_ZH_AGE = re.compile(rf"(?:今年|现在|已经|才|刚|快)?(?:满)?(?P<n>{A.ZH_NUMBER})(?:周)?岁")

_EN_RANK = r"(?:the\s+)?(?:older|oldest|eldest|elder|younger|youngest|little|big|baby|first|second|third)(?:\s+(?:one|kid|boy|girl|child))?"
_EN_NAMED = re.compile(
    rf"^(?:(?P<rank>{_EN_RANK})(?:'s|\s+is)\s+(?:called\s+|named\s+)?|(?P<pro>he|she|it)(?:'s|\s+is)\s+(?:called|named)\s+"
    r"|(?P<pos>his|her|its)\s+name(?:'s|\s+is)\s+|(?:(?:we\s+)?(?:call|named|called)\s+(?P<obj>him|her|it))\s+)"
    r"(?P<name>[A-Z][a-zà-ÿ'-]+)\b", re.IGNORECASE)
_EN_OPENS = re.compile(rf"^(?:(?P<rank>{_EN_RANK})|(?P<pro>he|she|it))(?:'s|\s+is|\s+just|\s+turned|\s+turns)\b", re.IGNORECASE)
_EN_AGE = re.compile(rf"(?i)(?:'s|\bis|\bturned|\bturns|\bjust\s+turned)\s+(?P<n>{A.EN_NUMBER})(?:\s+(?:years?|yrs?)(?:\s+old)?|\s*y/?o)?(?=\s*(?:$|[,.!;]|\s+(?:now|and|but|this|today)\b))")
_PARTS = re.compile(r"[^，,。.！!？?；;\n]+")
_SENTENCES = re.compile(r"[^。.！!？?；;\n]+")
# What a follow-up sentence said of the person that the one-turn rules took for the user's own.
_USER_LEVEL = ("user.age", "user.education", "user.name", "user.occupation", "user.birthday")


# A part with no subject of its own ("…，今年六岁", "…，上初一了") goes on about the referent just named;
# one that opens with the user or anyone else does not.
_OWN_SUBJECT = re.compile(r"^(?:我|俺|本人|咱|你|您|他们|她们|大家|别人|[^，,]{0,4}(?:朋友|同事|老公|老婆|爸|妈))")


def _goes_on_zh(part: str) -> bool:
    return not _OWN_SUBJECT.match(part) and not _ZH_OPENS.match(part)


@dataclass(frozen=True)
class Referent:
    key: str
    value: str
    several: bool
    attributes: dict


def referents_in(items, text: str) -> list[Referent]:
    """The people and pets a turn introduced, as later turns may refer back to them."""
    several = _SEVERAL.search(text) is not None
    return [Referent(i.memory_key, i.value or "", several and not i.value,
                     {k: v for k, v in i.attributes.items() if k not in ("lang", "correction", "inferred")})
            for i in items if (i.memory_key or "").startswith(("user.relationship.", "user.pet."))]


def _pick(referents: list[Referent], *, rank: bool, pronoun: str) -> Referent | None:
    if rank:
        pool = [r for r in referents if r.several]
    elif pronoun in ("它", "牠", "it", "its"):
        pool = [r for r in referents if r.key.startswith("user.pet.")]
    else:
        role = lambda r: r.key.rsplit(".", 1)[-1]  # noqa: E731
        unfit = _FEMALE if pronoun in ("他", "he", "his", "him") else _MALE if pronoun in ("她", "she", "her") else set()
        people = [r for r in referents if r.key.startswith("user.relationship.") and role(r) not in unfit]
        pool = people or [r for r in referents if r.key.startswith("user.pet.")]
    return pool[-1] if pool else None


def follow_up_candidates(text: str, referents: list[Referent]) -> tuple[list[Candidate], list[str]]:
    """The memories a turn's rank or pronoun sentences add about earlier referents, and the sentences
    that were about them (their user-level readings are the referent's, not the user's)."""
    if not referents or not text.strip():
        return [], []
    cjk = re.search(r"[\u4e00-\u9fff]", text) is not None
    out: list[Candidate] = []
    about: list[str] = []
    sentences = [m.group().strip() for m in (_PARTS if cjk else _SENTENCES).finditer(text) if m.group().strip()]
    current: tuple[Referent, str] | None = None  # the referent the last part was about, with the name said now
    for index, sentence in enumerate(sentences):
        named = (_ZH_NAMED if cjk else _EN_NAMED).match(sentence)
        opens = (_ZH_OPENS if cjk else _EN_OPENS).match(sentence)
        if named and (named.group("rank") or named.group("pro") or index == 0 or (not cjk and (named.group("pos") or named.group("obj")))):
            pronoun = (named.group("pro") or (None if cjk else named.group("pos") or named.group("obj")) or "").lower()
            referent = _pick(referents, rank=bool(named.group("rank")), pronoun=pronoun)
            # "叫毛毛" with no rank or pronoun needs one unnamed referent to be about.
            if referent is None or (not named.group("rank") and not pronoun and referent.value):
                current = None
                continue
            current = (referent, named.group("name"))
        elif opens:
            pronoun = (opens.group("pro") or "").lower()
            referent = _pick(referents, rank=bool(opens.group("rank")), pronoun=pronoun)
            current = (referent, "") if referent else None
        elif current is None or not (_goes_on_zh(sentence) if cjk else re.match(r"(?i)and\s", sentence)):
            current = None
            continue
        if current is None:
            continue
        referent, name = current
        value = name or referent.value
        # Several unnamed children and no name now: which one is meant stays unknown.
        if not value and referent.several:
            continue
        about.append(sentence)
        attributes = dict(referent.attributes) if value == referent.value else {}
        age = _ZH_AGE.search(sentence) if cjk else _EN_AGE.search(sentence)
        years = A.plausible_age((A.zh_int if cjk else A.en_int)(age.group("n"))) if age else None
        if years is not None:
            attributes["age"] = years
        if not cjk and referent.key.startswith("user.relationship."):
            for key, said in attributes_said_later(sentence, 0).items():
                attributes.setdefault(key, said)
        existing = next((i for i, c in enumerate(out) if c.memory_key == referent.key and c.value == value), None)
        if existing is not None:
            out[existing] = Candidate(referent.key, value, 1.0, {**out[existing].attributes, **attributes})
        elif value != referent.value or attributes != referent.attributes:
            out.append(Candidate(referent.key, value, 1.0, attributes))
    return out, about


def said_of_referent(item, about: list[str]) -> bool:
    """Whether `item` is a user-level reading of a sentence that was about a referent."""
    if item.memory_key not in _USER_LEVEL or not item.value:
        return False
    if item.memory_key == "user.age":
        return any(_ZH_AGE.search(sentence) or _EN_AGE.search(sentence) for sentence in about)
    return any(item.value in sentence for sentence in about)
