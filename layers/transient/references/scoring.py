"""Choosing among the compatible entities: attributes and comparatives pick one of several ("the blue
one", "便宜的那个"), ordinals ("the other one", "第一个"), groups for plurals, otherwise the most recent
(the assistant's last action counts as the most recent); and the confidence of the choice, which falls
with the number of rivals and with guessed types."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from layers.transient.references import lexicon as lx
from layers.transient.references.agreement import (
    compatible,
    fits_predicate,
    predicate_of,
    said_of_area,
)
from layers.transient.references.extract import mentions_extract
from layers.transient.references.referring import Reference
from layers.transient.references.registry import (
    Entity,
    Registry,
    entity_key,
    landmark,
    type_family,
)

# Below this a candidate is not claimed (REFERENCES.md: a null case answered above it is a false positive).
CONFIDENCE_THRESHOLD = 0.5


@dataclass
class Resolution:
    text: str
    start: int
    end: int
    entities: list[Entity]
    confidence: float
    # The compatible entities the choice was made among, best first (a single pick only): what a reviewer of a
    # low-confidence choice may choose from (llm.py).
    candidates: list[Entity] = field(default_factory=list)

    @property
    def resolved(self) -> bool:
        return bool(self.entities) and self.confidence >= CONFIDENCE_THRESHOLD



_ORDINALS = ("other", "first", "另一个", "另外那个", "第一个", "前面")
_NUM = r"(\d[\d,]*(?:\.\d+)?)"
# What a comparative compares, read from what was said with each entity: a price, a size, a weight, a
# time of day; `None` compares the first number said with it (an age, a rating).
_MEASURES = {
    "price": re.compile(rf"[$¥￥]\s?{_NUM}|{_NUM}\s?(?:元|块|美元|dollars?\b|usd\b|rmb\b)", re.I),
    "size": re.compile(rf"{_NUM}\s?(?:英寸|寸|-?inch(?:es)?\b|\"|升|毫升|ml\b|l\b|gb\b|tb\b|mm\b|cm\b|平米|平方)", re.I),
    "weight": re.compile(rf"{_NUM}\s?(?:公斤|千克|kg\b|斤|克|g\b|lbs?\b|磅|oz\b)", re.I),
    # A day of the month: "3号", "5月2日", "May 2", "June 1st" (month × 31 + day, so months order too).
    "date": re.compile(r"(?:(\d{1,2})月)?(\d{1,2})[号日]|\b(" + "|".join(m[:3] for m in lx.EN_MONTHS) + r")[a-z]*\.?\s+"
                       r"(\d{1,2})(?:st|nd|rd|th)?\b", re.I),
    # How long it takes: "in 30 minutes", "about an hour", "1 hour 35 minutes", "40分钟".
    "duration": re.compile(r"(\d+)\s?(?:minutes?|mins?\b|分钟)|(\d+)\s?(?:hours?|小时)(?:\s*(?:and\s+)?(\d+)\s?(?:minutes?|mins?\b|分钟?))?"
                           r"|\b(an|one|half an)\s+hour\b", re.I),
    # How far: meters ("300米", "1.2公里", "half a mile" not read) or, said as time, minutes ("5 minutes away").
    "distance": re.compile(r"(\d+(?:\.\d+)?)\s?(公里|千米|km\b|kilomet(?:er|re)s?|miles?|mi\b|米|m\b|met(?:er|re)s?|blocks?)"
                           r"|(\d+)\s?(?:minutes?|mins?|分钟)\s*(?:away|walk|drive|步行|车程)?", re.I),
    "time": re.compile(r"(\d{1,2})(?:[:：点](\d{2})?)?\s?(am|pm|a\.m\.|p\.m\.)?(?=\s|[,，。.、)]|$|出发|开|到|的|场|班|点)", re.I),
}


_MONTHS = [month[:3] for month in lx.EN_MONTHS]


def _measure(entity: Entity, kind: str) -> float | None:
    for text in [*entity.surfaces(), *entity.attributes]:
        # What follows the name is said of it ("the LG C3 is $1,299 and the TCL Q7 is $699").
        at = max((text.find(name) + len(name) for name in entity.surfaces() if name in text), default=0)
        match = _MEASURES[kind].search(text, at)
        if not match and kind == "date":
            match = _MEASURES[kind].search(text)  # "3号买了一台咖啡机": a day is said before the thing too
        if not match:
            continue
        if kind == "date":
            if match.group(3):
                month = _MONTHS.index(match.group(3).lower()[:3]) + 1
                return month * 31 + int(match.group(4))
            return (int(match.group(1)) if match.group(1) else 0) * 31 + int(match.group(2))
        if kind == "duration":
            if match.group(1):
                return float(match.group(1))
            if match.group(2):
                return float(match.group(2)) * 60 + float(match.group(3) or 0)
            return 30.0 if match.group(4).lower() == "half an" else 60.0
        if kind == "distance":
            if match.group(3):
                return float(match.group(3)) * 80  # minutes said for a distance: a walking pace, in meters
            unit = match.group(2).lower()
            scale = 1000 if unit in ("公里", "千米", "km") or unit.startswith("kilomet") else 1609 if unit.startswith(
                "mi") else 80 if unit.startswith("block") else 1
            return float(match.group(1)) * scale
        if kind == "time":
            hour, minute, half = int(match.group(1)), int(match.group(2) or 0), (match.group(3) or "").lower()
            if not half and not re.search(r"[:：点]", match.group(0)):
                continue  # a bare number is not a time
            return (hour % 12 + (12 if half.startswith("p") else 0) if half else hour) + minute / 60
        number = next(g for g in match.groups() if g)
        return float(number.replace(",", ""))
    return None


def _comparative(candidates: list[Entity], attr: str) -> list[Entity] | None:
    said = [(kind, min if direction == "min" else max) for cues, kind, direction in lx.COMPARATIVES
            if any(cue in attr for cue in cues)]
    # What the comparative measures first ("earlier": a date, then a time of day), the first number said last.
    for kind, pick in said:
        if kind:
            measured = [(e, _measure(e, kind)) for e in candidates]
            measured = [(e, v) for e, v in measured if v is not None]
            if len(measured) >= 2:
                return [pick(measured, key=lambda item: item[1])[0]]
    for _kind, pick in said[:1]:
        numbered = [e for e in candidates if e.numbers]
        if len(numbered) >= 2:
            return [pick(numbered, key=lambda e: e.numbers[0])]
    return None


_DAYPARTS = {
    "morning": re.compile(r"早上|上午|早晨|清晨|早班|早场|\bmorning\b|\b([5-9]|1[01])(:\d\d)?\s?a\.?m\b", re.I),
    "afternoon": re.compile(r"下午|午后|\bafternoon\b|\b([1-5])(:\d\d)?\s?p\.?m\b", re.I),
    "evening": re.compile(r"晚上|晚班|晚场|夜里|\bevening\b|\bnight\b|\b([6-9]|1[01])(:\d\d)?\s?p\.?m\b", re.I),
}


def _stem(word: str) -> str:
    """An English participle said as an attribute, as the stem of the words it was said with: "the experienced
    one" had experience, "the renovated one" a renovation, "the furnished one" furnishings, "the spiced one"
    spices, "the carpeted room" carpet; "the worried one" worry. Short words ("red", "used") stay whole."""
    head, _, last = word.rpartition(" ")
    if len(last) < 6 or not last.endswith("ed"):
        pass
    elif last.endswith("ied"):
        last = last[:-3] + "y"
    elif last[-3] == last[-4] and last[-3] not in "aeiousl":
        last = last[:-3]  # "stopped" → "stop", "starred" → "star"
    else:
        last = last[:-2]  # "experienc", "renovat", "furnish": the stem common to "experience", "renovation"
    return f"{head} {last}" if head else last


def _by_attribute(candidates: list[Entity], ref: Reference) -> list[Entity]:
    """The candidates that have the attribute of the mention; all of them when none or all do."""
    attr = ref.attribute.strip().lower()  # what it is compared with is lowered too: "4K的那款" is "4k"
    if not attr or not candidates:
        return candidates
    negative = attr.startswith("不") or attr.startswith("not ") or attr.startswith("non")
    word = re.sub(r"^(不|not |non-?)", "", attr)
    word = re.sub(r"(的|色|那)$", "", word) or word
    # "the more experienced one" is the one said to have experience: the adjective without its degree.
    word = _stem(re.sub(r"^(?:more|most|less|least)\s+", "", word))
    # An entity is not its own attribute: in "地铁站旁边那家" the station is the landmark, not the shop.
    candidates_all, candidates = candidates, [e for e in candidates
                                              if not any(entity_key(s) and entity_key(s) in entity_key(attr) and entity_key(s) != entity_key(attr)
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
    daypart = next((name for name, words in _DAYPARTS.items() if words.search(attr)), None)
    if daypart and not negative:
        # "早上的那班" is "早班CZ3102" and "the morning one" the 8am train: one part of the day, said or implied.
        others = [words for name, words in _DAYPARTS.items() if name != daypart]
        for tier in tiers[:2]:
            hits = [e for e in candidates if any(_DAYPARTS[daypart].search(t) for t in tier(e))
                    and not any(w.search(t) for w in others for t in tier(e))]
            if hits:
                return hits
    if not negative and re.search(r"[\u4e00-\u9fff]$", attr):
        # "小的那个" after "大的叫小宇…小的叫小航": the attribute as said, with its 的, before the bare word.
        said = [e for e in candidates if any(attr + "的" in t for t in e.attributes)]
        if said and len(said) < len(candidates):
            return said
    for tier in tiers:
        if negative:
            # "不辣的那家" is the one said to be 不辣, when both were said with 辣.
            said = [e for e in candidates if any(attr in t.lower() for t in tier(e))]
            if said and len(said) < len(candidates):
                return said
        hits = [e for e in candidates if any(word in t.lower() for t in tier(e))]
        if negative and hits and len(hits) < len(candidates):
            return [e for e in candidates if e not in hits]
        if hits and not negative and (len(hits) < len(candidates) or ref.plural):
            return hits
    if not negative and re.fullmatch(r"[\u4e00-\u9fff]{3,}", word):
        # "卖早茶的那家" for "一家卖广式早茶的": said with other words in between, the pairs of characters still meet.
        grams = {word[i:i + 2] for i in range(len(word) - 1)}

        def shared(entity: Entity) -> int:
            return sum(any(g in t for t in [*entity.surfaces(), *entity.attributes]) for g in grams)

        best = max(shared(e) for e in candidates)
        hits = [e for e in candidates if shared(e) == best]
        if best and len(hits) < len(candidates):
            return hits
    return candidates


def reference_resolve(registry: Registry, ref: Reference, utterance: str, *,
                      not_these: set[str] = frozenset(), named: list[str] | None = None) -> Resolution:
    """`not_these`: keys of the utterance's own nouns that the reference depends on or is sent to
    ("a claim for it", "attach it to the email"), which it cannot mean. `named`: the names the utterance
    itself says (its known mentions), read once per utterance by the caller; None reads them here."""
    span = (ref.text, ref.start, ref.start + len(ref.text))
    candidates = [e for e in registry.ranked() if compatible(e, ref)]
    if not_these:
        candidates = [e for e in candidates if not any(entity_key(s) in not_these for s in e.surfaces())]
    if ref.head:
        named = [e for e in candidates if ref.head.lower() in " ".join(e.surfaces()).lower()]
        candidates = named or candidates
    if ref.ordinal:
        return _resolve_ordinal(candidates, ref, span)
    ordinal = ref.attribute in _ORDINALS
    narrowed = False
    if ref.attribute and not ordinal:
        before = len(candidates)
        candidates = _by_attribute(candidates, ref)
        narrowed = len(candidates) < before
    constraint = predicate_of(utterance)
    area_said = said_of_area(utterance)  # read apart: "the best area to stay there" also says "stay there"
    if (ref.place or ref.head_type in lx.PLACE_LIKE) and (constraint.get("venue") or area_said):
        # "Is that place open late?" is a restaurant, not the city it is in; "那边天气怎么样" the city, not the
        # hotel in it, and of two areas the one the user named (where they are going) over a sight suggested.
        areas = [e for e in candidates if _is_area(e)]
        if constraint.get("venue"):
            candidates = [e for e in candidates if e not in areas] or candidates
        elif areas:
            candidates = [e for e in areas if e.user_turn] or areas
    there = ref.text.lower() in _THERE or (ref.place and utterance[ref.start:ref.start + 2] in _THERE)
    if there and not set(constraint.get("types", ())) - {lx.PLACE, lx.RESTAURANT} and not (
            constraint.get("venue") and _EATING.search(utterance)):
        # "明天中午在望京SOHO附近吃饭" → "附近有西贝和鼎泰丰" → "那边好停车吗": where the user said they will be, not a
        # restaurant suggested around it (a table or a menu there is the restaurant's: "get a table there").
        around = [e for e in candidates if e.type == lx.PLACE and e.user_turn and landmark(e, near_only=True)]
        candidates = around or candidates
    if ref.place and (not ref.head or ref.head in _GENERIC_PLACE_HEADS):
        # "那边", "there", "那家店": a place with a name ("成都", "盒马", "Phoenix") before one only said as a kind
        # ("需要帮你订酒店吗", "已到小区门口", "a ride from the airport"), which may not be a place there is.
        named = [e for e in candidates if not _bare_kind(e)]
        candidates = named or candidates
    if (ref.place or ref.person is True) and not ref.past:
        # "那里", "her": a name whose type was only guessed ("推荐Osprey的这款") is the last resort; a
        # place visited before ("the same place" we stayed at) is chosen by the visit instead, below.
        candidates = [e for e in candidates if not e.weak] or candidates
    if ref.past:
        # "上次那家", "the place we went last time": a place said with a visit, over one only suggested.
        visited = [e for e in candidates if any(_VISITED.search(c) for c in e.clauses)]
        candidates = visited or candidates
    bare = ref.person is None and not ref.place and not ref.head_type and not ref.head
    they = ref.text.lower() in ("they", "them", "their")
    said_of_place = bool(set(constraint.get("types", ())) & lx.PLACE_LIKE)
    if (ref.person is False or (bare and not ref.plural and not they and not narrowed)) and not said_of_place:
        # "it" and "that one" are rarely a place or a person: only when nothing else fits.
        things = [e for e in candidates if e.type not in lx.PLACE_LIKE and e.type != lx.PERSON]
        candidates = things or [e for e in candidates if e.type != lx.PERSON or ref.attribute]
    if constraint and not ref.plural:
        fits = [e for e in candidates if fits_predicate(e, constraint)]
        fits = [e for e in fits if not e.weak] or fits  # a known kind fits better than a guessed one ("App")
        if fits or ref.zero or constraint.get("switched"):
            # A predicate with no object at all ("调到24度") names nothing else, and only something that switches
            # is turned on ("Sunny, with a high of 24°C" → "Turn it on at 7" means nothing said): it must fit.
            candidates = fits
    elif constraint and constraint.get("agent"):
        # "Did they email me?": someone who can; a bag of coffee beans cannot, and then nothing is meant.
        candidates = [e for e in candidates if e.type in constraint["types"]]
    elif constraint and constraint.get("types") == ("person",):
        # "pick them up": a group of people, not the flight they are on.
        candidates = [e for e in candidates if e.type == lx.PERSON] or candidates
    elif ref.zero:
        candidates = [e for e in candidates if e.type in (lx.DEVICE, lx.MEDIA)]  # "关掉": something switched on
    if not candidates:
        return Resolution(*span, [], 0.0)
    if ref.plural:
        return _resolve_plural(candidates, ref)
    if they:
        group = _group(candidates)
        if len(group) >= 2 or group[0].plural:
            return Resolution(*span, group, _confidence(group[0], candidates, ref))
    best = candidates[0]
    if ref.person is not True and not (ref.place or ref.head or ref.head_type or ref.attribute) and len(candidates) > 1:
        if named is None:
            named = [m.name for m in mentions_extract(utterance) if not m.weak]
        best = _topical(candidates, utterance, ref, not_these, named) or best
    if ordinal:
        if ref.attribute in ("other", "另一个", "另外那个"):
            # "the other one": of the latest pair named together, the one not talked about last.
            best = _other(candidates) or best
        elif ref.attribute in ("first", "第一个", "前面"):
            same = [e for e in candidates if type_family(e.type) == type_family(best.type)]
            best = min(same, key=lambda e: (e.first_turn, e.recency))
    ranked = [best, *(e for e in candidates if e is not best)]
    return Resolution(*span, [best], _confidence(best, candidates, ref), candidates=ranked)


def _is_area(entity: Entity) -> bool:
    """A city, a region or a district (somewhere with weather), not a venue: a name the lexicon lists as one,
    a zh name ending in 市/省/县/区, or a name said after "in", "to" or "from" ("ramen in Shinjuku", "driving from
    Denver to Moab")."""
    if entity.type != lx.PLACE:
        return False
    for surface in entity.surfaces():
        low = surface.lower()
        if low in lx.EN_CITIES or surface in lx.ZH_AREAS or re.search(r"[\u4e00-\u9fff][市省县区]$", surface):
            return True
        if surface[:1].isupper() and any(re.search(r"\b(?:in|to|from)\s+" + re.escape(surface) + r"\b", c)
                                         for c in entity.clauses):
            return True
    return False


_THERE = {"那边", "那里", "那儿", "这里", "这儿", "there", "here"}
_EATING = re.compile(r"\btables?\b|\bmenu\b|\breservations?\b|\bbrunch\b|\blunch\b|\bdinner\b|订位|有位|菜单|包间|人均", re.I)


_GENERIC_PLACE_HEADS = ("店", "store", "shop", "地方", "place", "spot")
_BARE_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)


def _bare_kind(entity: Entity) -> bool:
    """Named only by a head noun of its kind ("酒店", "the airport"), never by a name."""
    words = {_BARE_ARTICLE.sub("", s).lower() for s in entity.surfaces()}
    return all(w in _HEAD_WORDS for w in words)


_HEAD_WORDS = {h for heads in lx.ZH_HEADS.values() for h in heads} | {h for heads in lx.EN_HEADS.values() for h in heads}

# Somewhere gone to, stayed at, booked or ordered from ("上次那家" is one of those, not one only suggested).
_VISITED = re.compile("|".join((*lx.ZH_VISIT_VERBS, *lx.ZH_PAST_TIMES)) + r"|\b(?:went|been|visited|stayed|booked|reserved|"
                      r"ordered from|ate at|" + lx.EN_LAST_PERIOD + r"|had (?:dinner|lunch|brunch|breakfast))\b", re.I)


_COMMON_ZH = {"一下", "什么", "怎么", "可以", "帮我", "一个", "这个", "那个", "还是", "多少", "现在", "时候", "需要", "的话",
              "打开", "关掉", "关闭", "关了", "调到", "播放", "今天", "明天", "一点", "已经", "好的",
              # commands said of anything (as _COMMON_EN's): they tell no thing apart
              "发给", "发到", "发送", "转发", "转给", "给我", "帮忙", "看看", "查一", "查下", "一份", "一个"}


@functools.lru_cache(maxsize=1024)
def _content_words(text: str) -> frozenset[str]:
    """Cached: each reference of a turn compares the same candidates' clauses."""
    words = {re.sub(r"(ed|ing|es|s|d)$", "", w) for w in re.findall(r"[a-z][a-z-]{3,}", text.lower())}
    words = {w for w in words if len(w) >= 4 and w not in _COMMON_EN}
    han = re.sub(r"[^\u4e00-\u9fff]", " ", text)
    return frozenset(words | {han[i:i + 2] for i in range(len(han) - 1) if " " not in han[i:i + 2]} - _COMMON_ZH)


_COMMON_EN = {"what", "when", "where", "which", "there", "they", "them", "that", "this", "thi", "with", "have",
              "does", "doe", "about", "would", "could", "should", "your", "from", "will", "just", "also", "much",
              "many", "long", "make", "take", "need", "want", "like", "know", "tell", "please", "thank",
              # commands said of anything: they tell no thing apart
              "turn", "switch", "open", "close", "play", "start", "stop", "show", "find", "check", "send",
              "book", "order", "keep", "help", "give", "move", "back", "again", "today", "tomorrow", "tonight"}


def _topical(candidates: list[Entity], utterance: str, ref: Reference, not_these: set[str],
             named: list[str]) -> Entity | None:
    """"How do I re-season it?" after "re-season it" was said of the wok: an older candidate whose own
    clauses share a content word with the utterance beats a later one whose clauses share none. The nouns
    the reference is tied to ("attach it to the email") are not the topic: the email is not "it"."""
    words = _content_words(utterance[:ref.start] + " " + utterance[ref.start + len(ref.text):])
    words -= set().union(set(), *(_content_words(key) for key in not_these))
    # A name the utterance says ("它几点到西安") is no topic word: the train is not the older "去西安的高铁".
    words -= set().union(set(), *(_content_words(name) for name in named))
    if not words:
        return None
    def said(entity: Entity) -> set[str]:
        # its clauses and what was said with it, which runs on over clauses naming nothing ("; it should ship Friday")
        return set().union(*(_content_words(c) for c in [*entity.clauses, *entity.attributes]))

    latest = candidates[0]
    if words & said(latest):
        return None
    for entity in candidates[1:4]:
        if words & said(entity):
            return entity
    return None


def _listed(candidates: list[Entity]) -> list[Entity]:
    """The latest list: the compatible entities (not collectives) last named in one turn that named
    at least two of one family, in the order they were named ("Ippudo, Totto Ramen, and Ichiran")."""
    singles = [e for e in candidates if not e.plural]
    for turn in sorted({e.last_turn for e in singles}, reverse=True):
        items = [e for e in singles if e.last_turn == turn]
        families = [type_family(e.type) for e in items if not e.weak]
        if families:
            main = max(set(families), key=families.count)
            items = [e for e in items if e.weak or type_family(e.type) == main]
        if len(items) >= 2:
            return sorted(items, key=lambda e: e.last_pos)
    return []


def _resolve_ordinal(candidates: list[Entity], ref: Reference, span: tuple) -> Resolution:
    items = _listed(candidates)
    if items and ref.ordinal <= len(items):
        best = items[-1] if ref.ordinal < 0 else items[ref.ordinal - 1]
        return Resolution(*span, [best], 0.8 if not best.weak else 0.7)
    if ref.ordinal == 1 and candidates:
        best = min(candidates, key=lambda e: (e.first_turn, e.recency))
        return Resolution(*span, [best], 0.6)
    return Resolution(*span, [], 0.0)  # "the third one" of a pair: there is none


def _other(candidates: list[Entity]) -> Entity | None:
    for entity in candidates:
        pair = [e for e in candidates if e.turn_group == entity.turn_group and not e.plural
                and type_family(e.type) == type_family(entity.type)]
        if len(pair) >= 2:
            return pair[1]  # candidates are latest first: the pair's older one
    return None


def _group(candidates: list[Entity]) -> list[Entity]:
    """The latest set of siblings: compatible entities of one family named in the same turn (or a
    collective phrase: "两件衬衫", "my parents")."""
    lead = candidates[0]
    if lead.plural:
        return _collective(lead, candidates)
    together = [e for e in candidates if e.last_turn == lead.last_turn and not e.plural
                and type_family(e.type) == type_family(lead.type)]
    if len(together) >= 2:  # named together again just now: "Did the invoice and receipt go through?"
        return sorted(together, key=lambda e: (e.first_turn, e.recency))
    group = []
    for entity in candidates:
        if entity.plural:
            return _collective(entity, candidates)
        group = [e for e in candidates if e.turn_group == entity.turn_group and type_family(e.type) == type_family(entity.type)]
        if len(group) >= 2:
            break
    if len(group) < 2:
        group = [e for e in candidates if type_family(e.type) == type_family(lead.type)][:2]
    return sorted(group, key=lambda e: (e.first_turn, e.recency))


def _collective(lead: Entity, candidates: list[Entity]) -> list[Entity]:
    """A collective phrase ("the garden lights", "两个文件"), with the siblings named beside it in its clause
    ("the porch light and the garden lights"; "proposal 和 budget 两个文件" names its members)."""
    clause = lead.clauses[-1] if lead.clauses else ""
    with_it = [e for e in candidates if e is not lead and e.last_turn == lead.last_turn and not e.plural
               and type_family(e.type) == type_family(lead.type) and clause and e.name in clause]
    if not with_it:
        return [lead]
    at = clause.find(lead.name)
    members = [e for e in with_it if clause.find(e.name) < at]
    # Named right before it and as many as it counts: its members ("proposal 和 budget 两个文件").
    if members and at >= 0 and re.match(r"[两俩二三四几]|two\b|three\b|both\b", lead.name, re.I):
        return sorted(members, key=lambda e: clause.find(e.name))
    return sorted([lead, *with_it], key=lambda e: (e.first_turn, clause.find(e.name)))


def _resolve_plural(candidates: list[Entity], ref: Reference) -> Resolution:
    group = _group(candidates)
    if ref.count and len(group) > ref.count and not group[0].plural:
        group = sorted(group, key=lambda e: e.recency, reverse=True)[: ref.count]
        group.sort(key=lambda e: (e.first_turn, e.recency))
    confidence = 0.8 if len(group) >= 2 or group[0].plural else 0.55
    return Resolution(ref.text, ref.start, ref.start + len(ref.text), group, confidence)


def _confidence(best: Entity, candidates: list[Entity], ref: Reference) -> float:
    score = 0.95 if len(candidates) == 1 else 0.8
    if best.weak:
        score -= 0.2
    if ref.person is None and not ref.place and not ref.head and not ref.attribute:
        score -= 0.05
    if ref.zero:
        score -= 0.1  # not even a pronoun was said
    return round(max(score, 0.0), 2)
