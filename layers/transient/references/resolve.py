"""The working-memory registry of one session and reference resolution over it (offline, zh and en).

A referring expression ("它", "那家", "the blue one", "those two", "there") sets constraints: person or
not, gender, place, plural, a head noun ("那家奶茶店", "that aquarium"), an attribute ("便宜的",
"the June one"); the predicate of the utterance adds more ("调亮" needs a light, "pause" something
playing). Among the registry's compatible entities the most recent wins (the assistant's last action
counts as the most recent); the confidence falls with the number of rivals and with guessed types.
Pure Python: the service (layers/transient/services/entities.py) loads and saves the registry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from layers.transient.references import lexicon as lx
from layers.transient.references.extract import Mention, _en_head, mentions_extract

# Below this a candidate is not claimed (REFERENCES.md: a null case answered above it is a false positive).
CONFIDENCE_THRESHOLD = 0.5
# Bounds of the work per turn (an append may carry 100 turns of 32,000 characters).
MAX_TURN_CHARS = 2000
MAX_REFERENCES = 20
_DEVICE_LIKE = {lx.DEVICE, lx.PRODUCT}


@dataclass
class Entity:
    name: str
    type: str
    first_turn: int
    last_turn: int
    last_pos: int = 0
    gender: str = ""
    plural: bool = False
    weak: bool = False
    mentions: int = 1
    aliases: list[str] = field(default_factory=list)
    attributes: list[str] = field(default_factory=list)  # segments stated with it
    clauses: list[str] = field(default_factory=list)  # the whole clauses it was named in
    numbers: list[float] = field(default_factory=list)
    turn_group: int = 0  # the turn that named it with its siblings ("a lamp and a rug")
    key: str = ""

    @property
    def recency(self) -> tuple[int, int]:
        return self.last_turn, self.last_pos

    def surfaces(self) -> list[str]:
        return [self.name, *self.aliases]


@dataclass
class Resolution:
    text: str
    start: int
    end: int
    entities: list[Entity]
    confidence: float

    @property
    def resolved(self) -> bool:
        return bool(self.entities) and self.confidence >= CONFIDENCE_THRESHOLD


_ZH_ASK = re.compile(r"叫什么|什么名字|哪家|哪一家|哪个|是哪|在哪|推荐")
_ZH_ANSWER = re.compile(r"(?:是|叫|去的是|推荐)([\u4e00-\u9fff]{2,8}?)(?=[，。,.！!（(、]|$|，|在)")


def _key(name: str) -> str:
    low = name.lower()
    low = re.sub(r"^(the|my|a|an|your|our)\s+", "", low)
    return re.sub(r"[\s的《》'’]", "", low)


def _family(kind: str) -> str:
    return "thing" if kind in _DEVICE_LIKE else kind


class Registry:
    """A bounded, recency-ordered list of the session's entities (a ring buffer: the least recently
    mentioned is evicted first)."""

    def __init__(self, entities: list[Entity] | None = None, *, size: int = 50):
        self.entities = list(entities or [])
        self.size = size
        for entity in self.entities:
            entity.key = entity.key or _key(entity.name)

    def _find(self, mention: Mention) -> Entity | None:
        key = _key(mention.name)
        best = None
        for entity in self.entities:
            keys = [_key(s) for s in entity.surfaces()]
            same_kind = _family(entity.type) == _family(mention.type) or entity.weak or mention.weak
            if key in keys and (same_kind or len(key) > 3):
                return entity
            if not same_kind or len(key) < 2:
                continue
            if any((key in k or k in key) and min(len(k), len(key)) >= 2 for k in keys):
                if best is None or entity.recency > best.recency:
                    best = entity
        return best

    def update(self, turn: int, role: str, text: str) -> list[Entity]:
        touched = []
        # A long turn (a pasted document, a tool's output) is read at its end, where the latest mentions
        # are: the work stays bounded on the append path whatever the turn's size.
        text = text[-MAX_TURN_CHARS:]
        mentions = mentions_extract(text, role)
        asked_before = getattr(self, "asked_types", set()) & lx.PLACE_LIKE
        if role != "user" and asked_before and getattr(self, "asked_name", False):
            # "上次那家粤菜馆叫什么" → "你上次去的是点都德，在天河路。": the answer is the name.
            for match in _ZH_ANSWER.finditer(text):
                start, end = match.start(1), match.end(1)
                if not any(start < m.end and m.start < end for m in mentions):
                    mentions.append(Mention(name=match.group(1), type=min(asked_before), start=start, end=end))
            mentions.sort(key=lambda m: m.start)
        if role == "user":
            self.asked_types = {m.type for m in mentions if not m.weak}
            self.asked_name = bool(_ZH_ASK.search(text)) or bool(re.search(r"\b(what|which)\b", text, re.I))
        for mention in mentions:
            asked = getattr(self, "asked_types", set()) & lx.PLACE_LIKE
            if role != "user" and mention.weak and mention.type in (lx.OTHER, lx.PLACE) and len(asked) == 1:
                # "Find a coffee shop" → "Blue Bottle …": the name answers what was asked for.
                mention.type = next(iter(asked))
            if role != "user" and asked and mention.type in lx.PLACE_LIKE and (
                    mention.name[:1].isupper() or not _has_head_name(mention.name)):
                # The description asked for ("a Thai restaurant") is this name from now on.
                described = [e for e in self.entities if e.type in lx.PLACE_LIKE and e.first_turn == turn - 1
                             and e.mentions == 1 and _has_head(e)]
                if described:
                    # The thing asked for comes first ("Find a coffee shop near the office").
                    entity = min(described, key=lambda e: e.last_pos)
                    entity.aliases.append(entity.name)
                    entity.name, entity.key = mention.name, _key(mention.name)
                    entity.type = mention.type
                    self.asked_types = set()
            pos = len(text) + 1 if mention.acted else mention.end
            entity = self._find(mention)
            if entity is None:
                entity = Entity(name=mention.name, type=mention.type, first_turn=turn, last_turn=turn,
                                last_pos=pos, gender=mention.gender, plural=mention.plural, weak=mention.weak,
                                mentions=0, turn_group=turn, key=_key(mention.name))
                self.entities.append(entity)
            else:
                if mention.name not in entity.surfaces():
                    if len(mention.name) > len(entity.name) and not mention.weak:
                        entity.aliases.append(entity.name)
                        entity.name = mention.name
                    else:
                        entity.aliases.append(mention.name)
                if not mention.weak and (entity.weak or mention.type == lx.MEDIA):
                    # A cue beats a guess; "playing X" beats a head noun inside a title ("Hotel California").
                    entity.type, entity.weak = mention.type, False
                entity.gender = entity.gender or mention.gender
                entity.last_turn, entity.last_pos = turn, pos
            entity.mentions += 1
            if mention.segment and mention.segment not in entity.attributes:
                entity.attributes.append(mention.segment)
            if mention.clause and mention.clause not in entity.clauses:
                entity.clauses.append(mention.clause)
                del entity.clauses[:-6]
            del entity.attributes[:-6]
            if mention.numbers and not entity.numbers:
                entity.numbers = mention.numbers
            touched.append(entity)
        self.entities.sort(key=lambda e: e.recency)
        if len(self.entities) > self.size:
            del self.entities[: len(self.entities) - self.size]
        return touched

    def ranked(self) -> list[Entity]:
        return sorted(self.entities, key=lambda e: e.recency, reverse=True)


# ---- referring expressions -------------------------------------------------------------------

@dataclass
class _Ref:
    text: str
    start: int
    person: bool | None = None
    gender: str = ""
    plural: bool = False
    count: int = 0
    place: bool = False
    head: str = ""  # a head noun the referent must have
    head_type: str | None = None
    attribute: str = ""
    with_attribute: bool = False  # "the one with the kettle": the entity *with* it, not it


_ZH_CL = "个家款件班盏台本位只条份张双笔次辆套部瓶种样"
_ZH_TIME = ("上次", "上回", "刚才", "刚刚", "之前", "那天", "昨天", "今天", "还是", "再", "就", "也", "去", "订", "那",
            "把", "给", "的")
_ZH_DEMO = re.compile(
    rf"(?P<attr>[\u4e00-\u9fffA-Za-z0-9]{{0,6}}?)(?P<de>的)?(?P<dem>那|这)(?P<num>[两俩三几]?)(?P<cl>[{_ZH_CL}]?)"
    rf"(?P<head>[\u4e00-\u9fffA-Za-z]{{0,5}})")
_EN_REF = re.compile(
    r"\b(?:(?P<det>the|that|this|those|these)\s+(?:(?P<num>two|three|both)\s+)?"
    r"(?:(?P<attr>[\w'-]+(?:\s+[\w'-]+)?)\s+)?(?P<one>one|ones|place|store|shop|spot)\b"
    r"(?:\s+(?:with|near|on|in|at|by|from|next\s+to)\s+(?:the\s+|my\s+)?(?P<with>[\w-]+(?:\s+[\w-]+)?))?"
    r"|(?P<both>both of them|those two|these two|the two|both)\b(?!\s+(?:of\s+)?(?:the|my|your)\b)"
    r"|(?P<det2>that|those|these|this)\s+(?:(?P<num2>two|three)\s+)?(?P<noun>(?:[\w'-]+\s+){0,2}[\w'-]+)"
    r"|\b(?P<pro>she|her|he|him|his|it|its|they|them|their|there)\b)", re.I)


def _zh_demonstratives(text: str):
    """Every 那/这 with what follows and the attribute words before it (not one left-to-right scan,
    which would swallow "那订早上的那班" whole)."""
    for index, char in enumerate(text):
        if char not in "那这":
            continue
        begin = index
        while begin > 0 and index - begin < 6 and text[begin - 1] not in _ZH_ATTR_STOP:
            begin -= 1
        match = _ZH_DEMO.match(text, begin)
        while match and match.start("dem") != index:
            begin += 1
            match = _ZH_DEMO.match(text, begin)
        if match:
            yield match


_ZH_ATTR_STOP = set("，,。.!！?？；; 、：:把给带就是去买要用选拿看发打开换还吧那这订和跟与也都让请帮")


_PRONOUN_RES = {word: re.compile(re.escape(word)) for word in lx.ZH_PRONOUNS}


def _zh_refs(text: str) -> list[_Ref]:
    refs: list[_Ref] = []
    taken: list[tuple[int, int]] = []

    def claim(start: int, end: int) -> bool:
        if any(start < e and s < end for s, e in taken):
            return False
        taken.append((start, end))
        return True

    for match in _zh_demonstratives(text):
        num, cl, head = match.group("num"), match.group("cl"), match.group("head")
        if not (cl or num) and not head.startswith(("里", "儿", "边", "地方")):
            continue
        if match.group("dem") == "这" and not num and cl not in ("样", "个", "家"):
            continue
        attr = match.group("attr") or ""
        for word in sorted(_ZH_TIME, key=len, reverse=True):
            while attr.startswith(word):
                attr = attr[len(word):]
        attr = attr.lstrip("的")
        start = match.start("attr") + (len(match.group("attr")) - len(attr))
        ref = _Ref(text="", start=start)
        if head.startswith(("里", "儿", "边", "地方")):
            ref.place = True
            head = ""
        # The head noun after the classifier: keep the part that is a known head.
        known = ""
        for kind, heads in lx.ZH_HEADS.items():
            for word in heads:
                if head.startswith(word) or (word in head[:4] and len(word) > 1):
                    if len(word) > len(known):
                        known, ref.head_type = word, kind
        if head.startswith("店") or head.startswith("地方"):
            known, ref.head_type, ref.place = head[:1] if head.startswith("店") else "地方", lx.PLACE, True
        if cl == "家":
            ref.place = True
        if cl == "位":
            ref.person = True
        if cl == "班":
            ref.head_type = ref.head_type or lx.VEHICLE
        end = match.end("cl") if cl else match.end("num")
        if known:
            end = match.start("head") + head.find(known) + len(known)
            ref.head = known
        if num:
            ref.plural, ref.count = True, {"两": 2, "俩": 2, "三": 3, "几": 0}.get(num, 0)
        ref.attribute = attr if match.group("de") or attr else ""
        if ref.attribute in ("", "一", "每"):
            ref.attribute = ""
        ref.text = text[ref.start:end]
        if claim(ref.start, end):
            refs.append(ref)
    for match in re.finditer(r"这两样|这俩|那俩|它俩|他俩|她俩|这些|那些", text):
        if claim(match.start(), match.end()):
            refs.append(_Ref(text=match.group(0), start=match.start(), plural=True, count=2,
                             person=True if match.group(0) in ("他俩", "她俩") else None))
    for word in sorted(lx.ZH_PRONOUNS, key=len, reverse=True):
        for match in re.finditer(_PRONOUN_RES[word], text):
            if claim(match.start(), match.end()):
                feats = lx.ZH_PRONOUNS[word]
                refs.append(_Ref(text=word, start=match.start(), person=feats.get("person"),
                                 gender=feats.get("gender", ""), plural=feats.get("plural", False),
                                 place=feats.get("place", False)))
    return refs


def _en_refs(text: str) -> list[_Ref]:
    refs = []
    for match in _EN_REF.finditer(text):
        span = match.group(0)
        ref = _Ref(text=span, start=match.start())
        if match.group("pro"):
            word = match.group("pro").lower()
            after = text[match.end():match.end() + 12].lower()
            if word in ("it", "its") and re.match(r"\s*(rain|snow|is (raining|cold|hot|sunny)|\'s (raining|cold))", after):
                continue
            if word == "there" and re.match(r"\s*(is|are|was|were)\b", after) and \
                    not re.search(r"\b(get|go|drive|fly|stay|there\?)", text.lower()):
                continue
            feats = lx.EN_PRONOUNS[word]
            ref.person, ref.gender = feats.get("person"), feats.get("gender", "")
            ref.plural, ref.place = feats.get("plural", False), feats.get("place", False)
            if word in ("they", "them", "their"):
                ref.person = None
        elif match.group("both"):
            ref.plural, ref.count = True, 2
            # "those two Wayfair items", "these two lamps": the noun after it restricts the group.
            after = re.match(r"\s+((?:[\w'-]+\s+){0,2}?)([\w'-]+)", text[match.end():])
            if after and (_en_head(after.group(2)) or after.group(2).lower() in ("items", "things")):
                noun = after.group(2).lower()
                ref.text = text[match.start():match.end() + after.end()]
                ref.head_type = _en_head(noun)
                ref.attribute = after.group(1).strip().lower()
                if ref.head_type and noun not in ("items", "things"):
                    ref.head = noun[:-1] if noun.endswith("s") else noun
        elif match.group("one"):
            one = match.group("one").lower()
            if one in ("place", "store", "shop", "spot"):
                ref.place = True
                ref.head, ref.head_type = ("" if one in ("place", "spot") else one), lx.PLACE
            ref.attribute = (match.group("attr") or "").lower()
            if ref.attribute in ("same", "last", "latest"):
                ref.attribute = ""
            if match.group("with") and not ref.attribute:
                ref.attribute, ref.with_attribute = match.group("with").lower(), True
            if match.group("num") or one == "ones":
                ref.plural, ref.count = True, 2
        else:
            noun = match.group("noun").lower().split()
            # "that restaurant take reservations": the noun phrase ends at its first head noun.
            for cut, word in enumerate(noun):
                if _en_head(word) or word.rstrip("s") in lx.EN_PEOPLE or word in ("items", "things", "cities"):
                    noun = noun[:cut + 1]
                    break
            head_type = _en_head(noun[-1]) if noun else None
            person_word = noun and noun[-1].rstrip("s") in lx.EN_PEOPLE
            if head_type is None and not person_word and noun[-1] not in ("items", "item", "things", "cities",
                                                                           "guys", "people"):
                continue
            ref.text = " ".join(span.split()[: 1 + (1 if match.group("num2") else 0) + len(noun)])
            ref.head = noun[-1].rstrip("s") if noun[-1] not in ("items", "item", "things") else ""
            ref.head_type = head_type or (lx.PERSON if person_word or noun[-1] in ("guys", "people") else None)
            if noun[-1] == "cities":
                ref.head, ref.head_type = "", lx.PLACE
            if ref.head_type in lx.PLACE_LIKE:
                ref.place = ref.head in ("store", "shop", "place")
            if len(noun) > 1:
                ref.attribute = " ".join(noun[:-1])
            if match.group("num2") or match.group("det2").lower() in ("those", "these") or noun[-1].endswith("s") \
                    and noun[-1] != "glass":
                ref.plural = bool(match.group("num2") or match.group("det2").lower() in ("those", "these"))
                ref.count = 2 if match.group("num2") else 0
        refs.append(ref)
    return refs


def references_find(text: str) -> list[_Ref]:
    refs = _zh_refs(text) + _en_refs(text)
    refs.sort(key=lambda r: r.start)
    return refs


# ---- resolution ------------------------------------------------------------------------------

_ORDINALS = ("other", "first", "另一个", "另外那个", "第一个", "前面")
_COMPARATIVES = [
    (("cheaper", "cheapest", "便宜", "实惠", "less expensive"), "min"),
    (("pricier", "expensive", "贵"), "max"),
    (("older", "oldest", "bigger", "biggest", "larger", "largest", "大", "longer", "heavier", "more powerful",
      "more experienced", "higher"), "max"),
    (("younger", "youngest", "smaller", "smallest", "小", "shorter", "lighter", "lower"), "min"),
    (("earlier", "更早", "早一点"), "min"), (("later", "更晚", "晚一点"), "max"),
]


def _predicate(text: str) -> dict:
    low = text.lower()
    for cues, constraint in lx.ZH_PREDICATES + lx.EN_PREDICATES:
        if any(cue in low for cue in cues):
            return constraint
    return {}


def _fits_predicate(entity: Entity, constraint: dict) -> bool:
    names = " ".join(entity.surfaces()).lower()
    heads, types = constraint.get("heads"), constraint.get("types")
    if heads and any(h in names for h in heads):
        return True
    if types and (entity.type in types or entity.weak):
        return True
    return not heads and not types


def _compatible(entity: Entity, ref: _Ref) -> bool:
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
            if not (entity.type == ref.head_type and (ref.head_type not in lx.PLACE_LIKE or not _has_head(entity))):
                return False
    elif ref.head_type and _family(entity.type) != _family(ref.head_type) and not (
            ref.head_type in lx.PLACE_LIKE and entity.type in lx.PLACE_LIKE):
        return False
    return True


_ALL_HEADS = [h for heads in lx.ZH_HEADS.values() for h in heads if len(h) > 1]


def _has_head(entity: Entity) -> bool:
    return _has_head_name(" ".join(entity.surfaces()))


def _has_head_name(names: str) -> bool:
    return any(h in names for h in _ALL_HEADS) or any(_en_head(w) for w in re.findall(r"[A-Za-z]+", names))


def _comparative(candidates: list[Entity], attr: str) -> list[Entity] | None:
    for cues, direction in _COMPARATIVES:
        if any(cue in attr for cue in cues):
            numbered = [e for e in candidates if e.numbers]
            if len(numbered) >= 2:
                pick = (min if direction == "min" else max)(numbered, key=lambda e: e.numbers[0])
                return [pick]
    return None


def _by_attribute(candidates: list[Entity], ref: _Ref) -> list[Entity]:
    """The candidates that have the attribute of the mention; all of them when none or all do."""
    attr = ref.attribute.strip()
    if not attr or not candidates:
        return candidates
    negative = attr.startswith("不") or attr.startswith("not ") or attr.startswith("non")
    word = re.sub(r"^(不|not |non-?)", "", attr)
    word = re.sub(r"(的|色|那)$", "", word) or word
    # An entity is not its own attribute: in "地铁站旁边那家" the station is the landmark, not the shop.
    candidates_all, candidates = candidates, [e for e in candidates
                                              if not any(_key(s) and _key(s) in _key(attr) and _key(s) != _key(attr)
                                                         for s in e.surfaces())]
    if not candidates:
        return candidates_all
    if ref.with_attribute:
        for tier in (lambda e: e.attributes, lambda e: e.clauses):
            hits = [e for e in candidates if not any(word in t.lower() for t in e.surfaces())
                    and any(word in t.lower() for t in tier(e))]
            if hits:
                return hits
        return candidates
    tiers = [lambda e: e.surfaces(), lambda e: e.attributes, lambda e: e.clauses]
    if ref.plural:
        tiers = [lambda e: e.surfaces(), lambda e: e.clauses]
    compared = None if negative else _comparative(candidates, attr)
    if compared:
        return compared
    for tier in tiers:
        hits = [e for e in candidates if any(word in t.lower() for t in tier(e))]
        if negative and hits and len(hits) < len(candidates):
            return [e for e in candidates if e not in hits]
        if hits and not negative and (len(hits) < len(candidates) or ref.plural):
            return hits
    return candidates


def _resolve_one(registry: Registry, ref: _Ref, utterance: str) -> Resolution:
    span = (ref.text, ref.start, ref.start + len(ref.text))
    candidates = [e for e in registry.ranked() if _compatible(e, ref)]
    if ref.head:
        named = [e for e in candidates if ref.head.lower() in " ".join(e.surfaces()).lower()]
        candidates = named or candidates
    ordinal = ref.attribute in _ORDINALS
    if ref.attribute and not ordinal:
        candidates = _by_attribute(candidates, ref)
    bare = ref.person is None and not ref.place and not ref.head_type and not ref.head
    they = ref.text.lower() in ("they", "them", "their")
    if ref.person is False or (bare and not ref.plural and not they):
        # "it" and "that one" are rarely a place or a person: only when nothing else fits.
        things = [e for e in candidates if e.type not in lx.PLACE_LIKE and e.type != lx.PERSON]
        candidates = things or [e for e in candidates if e.type != lx.PERSON or ref.attribute]
    constraint = _predicate(utterance)
    if constraint and not ref.plural:
        fits = [e for e in candidates if _fits_predicate(e, constraint)]
        if fits:
            candidates = fits
    if not candidates:
        return Resolution(*span, [], 0.0)
    if ref.plural:
        return _resolve_plural(candidates, ref)
    if they:
        group = _group(candidates)
        if len(group) >= 2 or group[0].plural:
            return Resolution(*span, group, _confidence(group[0], candidates, ref))
    best = candidates[0]
    if ordinal:
        # "the other one": not the latest of its kind; "the first one": the earliest named.
        same = [e for e in candidates if _family(e.type) == _family(best.type)]
        if ref.attribute in ("other", "另一个", "另外那个") and len(same) >= 2:
            best = same[1]
        elif ref.attribute in ("first", "第一个", "前面") and same:
            best = min(same, key=lambda e: (e.first_turn, e.recency))
    return Resolution(*span, [best], _confidence(best, candidates, ref))


def _group(candidates: list[Entity]) -> list[Entity]:
    """The latest set of siblings: compatible entities of one family named in the same turn (or a
    collective phrase: "两件衬衫", "my parents")."""
    lead = candidates[0]
    if lead.plural:
        return [lead]
    group = []
    for entity in candidates:
        if entity.plural:
            return [entity]
        group = [e for e in candidates if e.turn_group == entity.turn_group and _family(e.type) == _family(entity.type)]
        if len(group) >= 2:
            break
    if len(group) < 2:
        group = [e for e in candidates if _family(e.type) == _family(lead.type)][:2]
    return sorted(group, key=lambda e: (e.first_turn, e.recency))


def _resolve_plural(candidates: list[Entity], ref: _Ref) -> Resolution:
    group = _group(candidates)
    if ref.count and len(group) > ref.count and not group[0].plural:
        group = sorted(group, key=lambda e: e.recency, reverse=True)[: ref.count]
        group.sort(key=lambda e: (e.first_turn, e.recency))
    confidence = 0.8 if len(group) >= 2 or group[0].plural else 0.55
    return Resolution(ref.text, ref.start, ref.start + len(ref.text), group, confidence)


def _confidence(best: Entity, candidates: list[Entity], ref: _Ref) -> float:
    score = 0.95 if len(candidates) == 1 else 0.8
    if best.weak:
        score -= 0.2
    if ref.person is None and not ref.place and not ref.head and not ref.attribute:
        score -= 0.05
    return round(max(score, 0.0), 2)


def references_resolve_text(registry: Registry, utterance: str) -> list[Resolution]:
    """Every referring expression of `utterance` resolved against the registry (before the
    utterance's own mentions are added)."""
    utterance = utterance[:MAX_TURN_CHARS]
    return [_resolve_one(registry, ref, utterance) for ref in references_find(utterance)[:MAX_REFERENCES]]
