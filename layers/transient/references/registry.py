"""The working-memory registry of one session (a bounded, recency-ordered list of entities) and how
a turn's mentions update it: a new name is a new entity, a name said again (or a longer form of it) is
the same one, an answer to "叫什么 / which one" renames the description asked for.

Pure Python: the service (layers/transient/services/entities.py) loads and saves the registry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from layers.transient.references import lexicon as lx
from layers.transient.references.extract import mentions_extract
from layers.transient.references.mention import Mention
from layers.transient.references.mentions_en import _en_head

# Bounds of the work per turn (an append may carry 100 turns of 32,000 characters).
MAX_TURN_CHARS = 2000
MAX_REFERENCES = 20
DEVICE_LIKE = {lx.DEVICE, lx.PRODUCT}


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
    guess: bool = False  # a noun the lexicon does not know (extract.py, `_guessed_nouns`)
    mentions: int = 1
    aliases: list[str] = field(default_factory=list)
    attributes: list[str] = field(default_factory=list)  # segments stated with it
    clauses: list[str] = field(default_factory=list)  # the whole clauses it was named in
    numbers: list[float] = field(default_factory=list)
    turn_group: int = 0  # the turn that named it with its siblings ("a lamp and a rug")
    user_turn: int = 0  # the latest user turn that named it
    key: str = ""

    @property
    def recency(self) -> tuple[int, int]:
        return self.last_turn, self.last_pos

    def surfaces(self) -> list[str]:
        return [self.name, *self.aliases]



_ZH_LISTED = re.compile(r"(?:^|[：:；;。\n])\s*([\u4e00-\u9fff]{2,6}?)(?=是|在|，|,|、|人均)|[，,]\s*([\u4e00-\u9fff]{2,6}?)(?=是)")
_ZH_NOT_LISTED = {"有两家", "有三家", "附近", "推荐", "可以", "不过", "另外", "还有", "其中", "一家", "另一家"}
_ZH_COUNTED = re.compile(r"[两三四几]家")  # "附近有两家：…" lists what was asked for, asked as a question or not
_ZH_ASK = re.compile(r"有什么|叫什么|什么名字|哪家|哪一家|哪个|是哪|在哪|推荐")
_ZH_ANSWER = re.compile(r"(?:是|叫|去的是|推荐)([\u4e00-\u9fff]{2,8}?)(?=[，。,.！!（(、]|$|，|在)"
                        r"|(?:附近的|推荐你?去|可以去|试试|有一家|有家)([\u4e00-\u9fff]{2,6}?)(?=评价|口碑|很不错|不错|很好|挺好|很火|人均|，|。|在)")


def entity_key(name: str) -> str:
    low = name.lower()
    low = re.sub(r"^(the|my|a|an|your|our)\s+", "", low)
    return re.sub(r"[\s的《》'’]", "", low)


def type_family(kind: str) -> str:
    return "thing" if kind in DEVICE_LIKE else kind


_DEMONSTRATIVE_NP = re.compile(r"^(?:这个|那个|这一|那一|该|此|这|那|this(?=\w{2})|that(?=\w{2}))(?=\w{2})")
_ASKED_KIND = re.compile(r"\b(?:what|which|any|find|show me|look for|looking for|recommend)\b\s*(?:me\s+)?(?:a|an|the|some)?"
                         r"|有哪些|有什么|有没有|推荐|找一?[个家款]?", re.I)
_AT_PLACE = re.compile(r"\b(?:at|in|near|into|to|from)\s+$", re.I)  # "lands at Haneda": where, not what was asked
_ORIGIN_BEFORE = re.compile(r"(?:\bfrom|\baway from|距离|离|从)\s*(?:the\s+)?$", re.I)
_ANSWER_PRONOUNS = {"her", "him", "she", "he", "她", "他"}
_ANSWER_PRONOUNS_MAX_CHARS = 600  # an answer, not a pasted document or a tool's output: those are not read for pronouns
_THING_PRONOUN = re.compile(r"\b(it|its|them)\b|它", re.I)


class Registry:
    """A bounded, recency-ordered list of the session's entities (a ring buffer: the least recently
    mentioned is evicted first)."""

    def __init__(self, entities: list[Entity] | None = None, *, size: int = 50):
        self.entities = list(entities or [])
        self.size = size
        for entity in self.entities:
            entity.key = entity.key or entity_key(entity.name)

    def _find(self, mention: Mention, named_now: list[Entity] = ()) -> Entity | None:
        key = entity_key(mention.name)
        pointed = _DEMONSTRATIVE_NP.match(key)
        if pointed and not mention.weak:
            # "这个订单预计明天发出", "that order ships tomorrow": the one of that kind just talked about.
            head = key[pointed.end():]
            same = [e for e in self.ranked() if e.type == mention.type and not any(e is n for n in named_now)
                    and any(head in entity_key(s) and entity_key(s) != key for s in e.surfaces())]
            if same:
                return same[0]
        best = None
        for entity in self.entities:
            if any(entity is e for e in named_now) and key not in entity.key and entity.key not in key:
                continue  # "奥佳华按摩椅，荣泰按摩椅": siblings named in one turn are two entities
            keys = [entity_key(s) for s in entity.surfaces()]
            same_kind = type_family(entity.type) == type_family(mention.type) or entity.weak or mention.weak
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
        if role != "user" and len(text) <= _ANSWER_PRONOUNS_MAX_CHARS:
            self._answer_pronouns(turn, text)
        latest = next((e for e in self.ranked() if e.type != lx.PERSON and not e.weak), None)
        # Nouns this session introduced that the lexicon lacks are heads from now on ("按摩椅").
        learned = {min(e.surfaces(), key=len): e.type for e in self.entities if e.guess}
        mentions = mentions_extract(text, role, context_type=latest.type if latest else None, learned=learned)
        asked_before = getattr(self, "asked_types", set()) & lx.PLACE_LIKE
        if role != "user" and asked_before and (getattr(self, "asked_name", False) or _ZH_COUNTED.search(text)):
            # "上次那家粤菜馆叫什么" → "你上次去的是点都德，在天河路。": the answer is the name.
            listed = [m for m in _ZH_LISTED.finditer(text) if (m.group(1) or m.group(2)) not in _ZH_NOT_LISTED]
            for match in _ZH_ANSWER.finditer(text) if len(listed) < 2 else ():
                group = 1 if match.group(1) else 2
                start, end = match.start(group), match.end(group)
                if not any(start < m.end and m.start < end for m in mentions):
                    # The sentence that answers is its clause: "你上次去的是点都德" says it was visited.
                    low = max(text.rfind(mark, 0, start) for mark in "。！？!?\n") + 1
                    high = min([i for i in (text.find(mark, end) for mark in "。！？!?\n") if i >= 0] or [len(text)])
                    # The question is part of what the answer says of it ("上个月…那家本帮菜叫什么" → "是老吉士酒家").
                    asked = getattr(self, "asked_text", "")
                    mentions.append(Mention(name=match.group(group), type=min(asked_before), start=start, end=end,
                                            clause=f"{asked} {text[low:high]}".strip()))
            # "附近有什么火锅店" → "有两家：小龙坎是麻辣锅底…；捞王是猪肚鸡锅，不辣…": each item of the list.
            starts = [m.start(1) if m.group(1) else m.start(2) for m in listed] + [len(text)]
            for index, match in enumerate(listed if len(listed) >= 2 else ()):
                group = 1 if match.group(1) else 2
                start, end = match.start(group), match.end(group)
                overlapping = [m for m in mentions if start < m.end and m.start < end]
                if any(not (m.weak or m.type == lx.PERSON) for m in overlapping):
                    continue
                stop = re.search(r"[；;。\n]", text[end:])
                said_end = min(end + (stop.start() if stop else len(text) - end), starts[index + 1])
                said = text[start:said_end].rstrip("，, ")
                # What is said of the item ("是猪肚鸡锅，不辣") describes it: no second place inside it.
                described = [m for m in mentions if end <= m.start < said_end and m.type in lx.PLACE_LIKE]
                mentions = [m for m in mentions if m not in overlapping and m not in described]
                mentions.append(Mention(name=match.group(group), type=min(asked_before), start=start, end=end,
                                        segment=said, clause=said))
            mentions.sort(key=lambda m: m.start)
        if role == "user":
            self.asked_types = {m.type for m in mentions if not m.weak}
            named = re.search(r"\bname of (?:the|that|this|our|my)\s+", text, re.I)
            asked_for = [m for m in mentions if named and m.start >= named.end() and not m.weak][:1]
            if asked_for:  # "the name of the taco place we went to in Austin": the taco place is asked for
                self.asked_types = {asked_for[0].type}
            self.asked_name = bool(_ZH_ASK.search(text)) or bool(re.search(r"\b(what|which)\b", text, re.I))
            self.asked_text = text[:300] if self.asked_name else ""
            # "What trains go to Boston tomorrow?": the kind asked for, named right after the question word.
            question = _ASKED_KIND.search(text)
            self.asked_kind = next((m.type for m in mentions if question and not m.weak and m.type != lx.PERSON
                                    and question.end() <= m.start <= question.end() + 12), None)
        # What was asked for types every name of the answer ("Manner离你300米，Seesaw离你1.2公里"), though only
        # the first renames the description asked for.
        answered = getattr(self, "asked_types", set()) & lx.PLACE_LIKE
        for mention in mentions:
            asked = getattr(self, "asked_types", set()) & lx.PLACE_LIKE
            if role != "user" and mention.weak and mention.type in (lx.OTHER, lx.PLACE, lx.PERSON) and \
                    getattr(self, "asked_kind", None) not in (None, *lx.PLACE_LIKE) and mention.name[:1].isupper() \
                    and not _AT_PLACE.search(text[max(0, mention.start - 8):mention.start]):
                # "What trains go to Boston?" → "the Acela at 7:05 am and a Northeast Regional…": trains, not
                # the place also named in the question.
                mention.type = self.asked_kind
            elif role != "user" and mention.weak and mention.type in (lx.OTHER, lx.PLACE) and len(answered) == 1:
                # "Find a coffee shop" → "Blue Bottle …": the name answers what was asked for.
                mention.type = next(iter(answered))
            if role != "user" and asked and mention.type in lx.PLACE_LIKE and (
                    mention.name[:1].isupper() or not has_head_name(mention.name)):
                # The description asked for ("a Thai restaurant") is this name from now on.
                described = [e for e in self.entities if e.type in lx.PLACE_LIKE and e.first_turn == turn - 1
                             and e.mentions == 1 and (has_head(e) or e.name.islower()) and not landmark(e)
                             and not e.plural]  # "hotels" answered by a list is not renamed to its first member
                if described:
                    # The thing asked for comes first ("Find a coffee shop near the office").
                    entity = min(described, key=lambda e: e.last_pos)
                    entity.aliases.append(entity.name)
                    entity.name, entity.key = mention.name, entity_key(mention.name)
                    entity.type = entity.type if mention.weak else mention.type  # a guess does not retype it
                    self.asked_types = set()
            pos = len(text) + 1 if mention.acted else mention.end
            if _ORIGIN_BEFORE.search(text[max(0, mention.start - 8):mention.start]):
                # "Arches is 4.5 hours from Bryce": the place measured from is not what the turn is about.
                pos = 0
            entity = self._find(mention, touched)
            if entity is None:
                entity = Entity(name=mention.name, type=mention.type, first_turn=turn, last_turn=turn,
                                last_pos=pos, gender=mention.gender, plural=mention.plural, weak=mention.weak,
                                guess=mention.guess, mentions=0, turn_group=turn, key=entity_key(mention.name))
                self.entities.append(entity)
            else:
                if mention.name not in entity.surfaces():
                    if len(mention.name) > len(entity.name) and not mention.weak:
                        entity.aliases.append(entity.name)
                        entity.name = mention.name
                    else:
                        entity.aliases.append(mention.name)
                # A given name said again ("Savannah is charming") does not make the place it was said as a person.
                if not mention.weak and (entity.weak or mention.type == lx.MEDIA) and not (
                        mention.type == lx.PERSON and entity.type in lx.PLACE_LIKE):
                    # A cue beats a guess; "playing X" beats a head noun inside a title ("Hotel California").
                    entity.type, entity.weak = mention.type, False
                entity.gender = entity.gender or mention.gender
                entity.last_turn, entity.last_pos = turn, pos
            entity.mentions += 1
            if role == "user":
                entity.user_turn = turn
            if mention.segment and mention.segment not in entity.attributes:
                entity.attributes.append(mention.segment)
            if mention.clause and mention.clause not in entity.clauses:
                entity.clauses.append(mention.clause)
                del entity.clauses[:-6]
            del entity.attributes[:-6]
            if mention.numbers and not entity.numbers:
                entity.numbers = mention.numbers
            touched.append(entity)
        known = [m for m in mentions if not m.weak]
        if not known and (_THING_PRONOUN.search(text) or role != "user" and mentions):
            # "You can scrub them off and re-season it.", "可能是滤芯该换了，可以在App里查看": a turn that
            # names nothing it knows says it of the thing just talked about, so it counts among its clauses.
            things = [e for e in self.ranked() if e.type != lx.PERSON and e.type not in lx.PLACE_LIKE
                      and (e.guess or not e.weak)]
            if things and text[:300] not in things[0].clauses:
                things[0].clauses.append(text[:300])
                del things[0].clauses[:-6]
        self.entities.sort(key=lambda e: e.recency)
        if len(self.entities) > self.size:
            del self.entities[: len(self.entities) - self.size]
        return touched

    def _answer_pronouns(self, turn: int, text: str) -> None:
        """"My mom is flying in" → "Should I book a ride for her? Your sister Amy offered to help": the answer's
        personal pronouns keep what they mean current (said again in this turn, where the pronoun is), so the
        user's topic still outranks what the answer adds. Only confident, single choices count."""
        from layers.transient.references.resolve import references_resolve_text  # noqa: PLC0415 - resolve imports this module

        for resolution in references_resolve_text(self, text[:MAX_TURN_CHARS]):
            if resolution.text.lower() in _ANSWER_PRONOUNS and len(resolution.entities) == 1 \
                    and resolution.confidence >= 0.8 and resolution.entities[0].user_turn:
                entity = resolution.entities[0]
                entity.last_turn, entity.last_pos = turn, resolution.end

    def ranked(self) -> list[Entity]:
        # Latest turn first; within an answer, what the user's request named comes before what the answer
        # added ("The living room lamp is on; the fan is still running").
        return sorted(self.entities, key=lambda e: (e.last_turn, e.user_turn == e.last_turn - 1, e.last_pos),
                      reverse=True)


# "brunch spots near the hotel", "酒店附近的咖啡店": a place said as where to look is a landmark, not what was asked for.
_LANDMARK_BEFORE = re.compile(r"\b(?:near|around|by|close\s+to|next\s+to|from|opposite|across\s+from|walking\s+distance\s+of)"
                              r"\s+(?:the\s+|my\s+|our\s+)?$", re.I)


def landmark(entity: Entity, *, near_only: bool = False) -> bool:
    """Said as where to look ("near the hotel", "酒店附近"); `near_only`: as what something is near, not what
    something is measured from."""
    before = _NEAR_BEFORE if near_only else _LANDMARK_BEFORE
    for clause in entity.clauses:
        at = clause.find(entity.name)
        if at >= 0 and (before.search(clause[:at]) or clause[at + len(entity.name):].startswith(("附近", "旁边", "周边"))):
            return True
    return False


_NEAR_BEFORE = re.compile(r"\b(?:near|around|close\s+to|next\s+to)\s+(?:the\s+|my\s+|our\s+)?$", re.I)


_ALL_HEADS = [h for heads in lx.ZH_HEADS.values() for h in heads if len(h) > 1]


def has_head(entity: Entity) -> bool:
    return has_head_name(" ".join(entity.surfaces()))


def has_head_name(names: str) -> bool:
    # A capitalised word is part of a proper name ("Studio Nine", "Hotel Gracery"), not a head noun of it.
    return any(h in names for h in _ALL_HEADS) or any(_en_head(w) for w in re.findall(r"\b[a-z]+", names))
