"""Offline entity extraction from one turn (zh, en and mixed): no model.

Spans come from a few families of rules: 《书名号》 titles and file names; order, ticket, train and
flight codes; zh head nouns with their room, owner or name in front ("客厅的灯", "卧室空调", "他的猫",
"三亚亚特兰蒂斯酒店"); kinship words, surname + title and 小/阿 names; en noun phrases around a head
noun and capitalised names. Overlaps keep the longer span. Each mention keeps the text around it (its
segment) so that attributes stated with it ("红色的", "$140", "who's 9") can pick it out later.

The rules live in mentions_zh.py, mentions_en.py and guessed.py; this module merges what they find
(longer spans first, a known span over a guessed one), splits groups into their items and attaches to
each mention the words said with it.
"""
from __future__ import annotations

import re

from layers.transient.references import lexicon as lx
from layers.transient.references.guessed import _guessed_nouns, _learned_nouns
from layers.transient.references.mention import Mention, _han
from layers.transient.references.mentions_en import _en_mentions
from layers.transient.references.mentions_zh import _CLASSIFIER, _zh_mentions

# Clause ends; a comma or point inside a number ("$2,100", "4.5 hours") is not one.
_CLAUSE_SPLIT = re.compile(r"[，;；。!！?？：\n]|(?<!\d)[,.:]|[,.:](?!\d)|(?<=\s)-(?=\s)")


_ACTION_ZH = ("已为你", "已帮你", "已把", "已经把", "已将", "已预订", "已下单", "已购买", "已更新", "已添加", "已改",
              "正在播放", "已开始", "已设")


_ACTION_EN = re.compile(r"\b(added|booked|bought|ordered|moved|renamed|changed|updated|scheduled|reserved|"
                        r"cancelled|canceled|playing|is starting|now playing|requested|set up|switched)\b", re.I)


_EN_NUMBER_WORDS = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"thirty": 30, "forty": 40, "fifty": 50}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?|\b(?:" + "|".join(_EN_NUMBER_WORDS) + r")\b(?=\s+(?:years?|months?|"
                     r"weeks?|days?|hours?|minutes?|stars?|people|kids|rooms|floors|miles|km)\b)", re.I)


_ZH_DIGIT = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}
_ZH_NUMBER = re.compile(r"(?<![\d一二两三四五六七八九十])([一二两三四五六七八九十]{1,3})(?=\s?(?:分钟|小时|天|周|个月|年|岁|页|人|元|块|寸|米|斤))")


def _zh_number(text: str) -> float:
    """一 … 九十九 ("三", "十五", "二十"): the counts people say."""
    if "十" not in text:
        return float(_ZH_DIGIT.get(text[-1], 0))
    tens, _, ones = text.partition("十")
    return float((_ZH_DIGIT.get(tens, 1) if tens else 1) * 10 + (_ZH_DIGIT.get(ones, 0) if ones else 0))


_RELATIVE = re.compile(r",\s*(?:who|which|whose)\b[^,.;!?]*", re.I)
_PREFIX_BREAK = re.compile(r"\b(?:and|but|while|whereas)\b|[,;]", re.I)


def _numbers(segment: str) -> list[float]:
    # "ten years of experience" counts as 10, as "10 years" would: a count said in words; "三分钟" as 3.
    found = [(m.start(), float(_EN_NUMBER_WORDS.get(m.group(0).lower(), 0)) if not m.group(0)[0].isdigit()
              else float(m.group(0).replace(",", ""))) for m in _NUMBER.finditer(segment)]
    found += [(m.start(), _zh_number(m.group(1))) for m in _ZH_NUMBER.finditer(segment)]
    return [value for _, value in sorted(found)]


_BARE_HEADS = {h for heads in lx.ZH_HEADS.values() for h in heads}


def _join_name_and_head(text: str, kept: list[Mention]) -> list[Mention]:
    """"一点点" + "奶茶店", "Logitech" + "鼠标": a name right before a bare head noun is one entity."""
    out: list[Mention] = []
    for mention in kept:
        prev = out[-1] if out else None
        if prev and prev.type != lx.PERSON and mention.name in _BARE_HEADS and \
                text[prev.end:mention.start].strip() == "" and mention.start - prev.end <= 1:
            out[-1] = Mention(name=text[prev.start:mention.end], type=mention.type if prev.weak or
                              prev.type == lx.OTHER else prev.type, start=prev.start, end=mention.end)
            continue
        out.append(mention)
    return out


_SUB = re.compile(rf"(?:(?<![周第期统唯万之])一[{_CLASSIFIER}]是?|\bone\s(?!of\b)(?:from|is|at|with|for|on|in|near)?|"
                  rf"\b(?:an?|the)\s(?=\d+(?:[:.]\d+)?\s?(?:am|pm|-?inch|gb|tb|mb|ml|kg|lb|oz|mm|cm|w|l)\b))\s*"
                  rf"(?P<body>[^，,。；;、和\n？?！!]{{1,14}}?)(?=[，,。；;、\n]|和|$|\s+(?:and|in|on|at|for|with|from|is|was)\s)")


def _sub_entities(text: str, kept: list[Mention], context_type: str | None) -> list[Mention]:
    """"两款保温杯，一款红色的象印，一款灰色的膳魔师": each "一款…" is one of the group, named by what is
    said of it, typed like the group (the nearest mention before it)."""
    added = []
    for match in _SUB.finditer(text):
        start, end = match.start("body"), match.end("body")
        if any(start < m.end and m.start < end for m in kept) and not any(
                m.start >= start and m.end <= end and m.name in _BARE_HEADS for m in kept):
            continue
        group = [m for m in kept if m.end <= match.start()]
        if not group and context_type:
            # "有两款：一款红色的象印…" answering "帮我看看保温杯": the group is the thing just talked about.
            group = [Mention(name="", type=context_type, start=0, end=0)]
        if not group:
            continue
        body = text[start:end].strip()
        inner = [m for m in kept if m.start >= start and m.end <= end]
        if inner and body.strip(" 的") == inner[0].name:
            continue
        kept = [m for m in kept if m not in inner]
        added.append(Mention(name=body, type=inner[0].type if inner else group[-1].type, start=start,
                             end=start + len(body)))
    return sorted(kept + added, key=lambda m: m.start)


_COORDINATION = re.compile(r"\s*(?:,?\s*(?:and|or|vs\.?|versus)\s+(?:(?:the|a|an|my)\s+)?|和|与|跟|或|还是|、|,\s*|，)\s*",
                           re.I)


_LOCATIVE_BEFORE = re.compile(r"\b(?:at|in|near|from|to|into|via)\s+(?:the\s+)?$", re.I)


def _coordinated_types(text: str, kept: list[Mention]) -> None:
    """"between Lisbon and Porto", "Tokyo 和 Osaka": a name of a guessed type joined to one of a known
    type is of that type."""
    for left, right in zip(kept, kept[1:]):
        if left.weak == right.weak or not (_COORDINATION.fullmatch(text[left.end:right.start])
                                           or re.fullmatch(r"\s+to\s+|\s*到\s*", text[left.end:right.start])):
            continue
        guessed, known = (left, right) if left.weak else (right, left)
        if known.type in lx.PLACE_LIKE and re.fullmatch(r"\s+to\s+|\s*到\s*", text[left.end:right.start]) and (
                re.search(r"\bfrom\s+$|从\s*$", text[max(0, left.start - 6):left.start])):
            guessed.type, guessed.weak = lx.PLACE, False  # "from Denver to Moab", "从北京到大理": both are places
            continue
        if _LOCATIVE_BEFORE.search(text[max(0, guessed.start - 8):guessed.start]):
            continue  # "ANA 7 lands at Haneda and JAL 5": where one lands, not a second flight
        if known.type != lx.PERSON or guessed.name[:1].isupper():
            guessed.type = known.type


_VISIT_BEFORE = re.compile(r"(?:去的|去了|去过|到过|住的|住过|\b(?:" + "|".join(lx.EN_VISIT_VERBS) + r"|order from|(?:going|heading|"
                           r"headed|driving|walking)\s+to|(?:taking|take|took|bringing|bring)\s+(?:my|our|the|"
                           r"her|his)\s+\w+\s+to|return(?:ed|ing)?\s+(?:(?:a|an|the|my|it|them|this|that)\s+)?(?:[\w-]+\s+){0,2}to)|"
                           r"去\s*)\s*(?:the\s+)?$", re.I)


# "Sightglass is 8 minutes away", "Luigi's is a 10-minute walk from the hotel", "Tartine is about half a mile
# from here", "鮨然离这里步行五分钟": how far it is, so somewhere. A count (digits, words, "a few", "half a")
# of a unit of distance or travel time, or a phrase of nearness.
_EN_COUNT = (r"(?:\d+(?:\.\d+)?(?:\s*(?:-|to|or)\s*\d+(?:\.\d+)?)?|a\s+few|a\s+couple(?:\s+of)?|half\s+an?|several|"
             r"an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)")
_EN_UNIT = (r"(?:minutes?|mins?|hours?|hrs?|blocks?|miles?|mi|km|kilomet(?:er|re)s?|met(?:er|re)s?|yards?|feet|"
            r"steps?|stops?|exits?)")
_DISTANCE_AFTER = re.compile(
    r"\s+(?:is|'s|are|sits|lies|was)\s+(?:(?:about|only|just|roughly|around|like|maybe|less\s+than|under|within|"
    r"right|also|still|a\s+short)\s+)*"
    rf"(?:(?:an?\s+)?{_EN_COUNT}[\s-]+{_EN_UNIT}(?:[\s-]+(?:walk|drive|ride|away|from|by|on\s+foot)|\b)"
    r"|(?:nearby|around\s+the\s+corner|close\s+by|close\s+to|next\s+door|next\s+to|down\s+the\s+(?:street|road|block)|"
    r"across\s+(?:the\s+)?(?:street|road)|(?:a\s+)?short\s+(?:walk|drive|ride)|(?:within\s+)?walking\s+distance|"
    r"not\s+far|steps\s+(?:from|away)|right\s+by|near\s+(?:here|you|the|your|my|our)))\b", re.I)
_ZH_DISTANCE_AFTER = re.compile(r"(?:离|距离?)(?:这里|这儿|你|我们|酒店|公司|家)?(?:大概|大约|只有|就)?(?:步行|走路|开车|打车|骑车)?"
                                r"(?:[\d.一二两三四五六七八九十几]+(?:分钟|公里|千米|米|站)|不远|很近)|就在(?:附近|旁边|楼下|对面)")


_NOT_SOMEWHERE = (lx.PRODUCT, lx.DEVICE, lx.OTHER, lx.DOCUMENT)  # "Blue Bottle" is no bottle when it is minutes away


def _visited_types(text: str, kept: list[Mention]) -> None:
    """"上个月去的 Shake Shack", "we went to Zuni", "Sightglass is 8 minutes away": a name of a guessed type
    that was gone to, or is some distance away, is a place."""
    for mention in kept:
        if mention.type in lx.PLACE_LIKE:
            if mention.weak and (mention.name[:1].isupper() and _DISTANCE_AFTER.match(text, mention.end)
                                 or _ZH_DISTANCE_AFTER.match(text, mention.end)):
                mention.weak = False  # guessed a place, and said to be some distance away: no longer a guess
            continue
        if mention.weak and _VISIT_BEFORE.search(text[:mention.start]):
            mention.type = lx.PLACE
        elif (mention.weak or mention.type in _NOT_SOMEWHERE) and (
                mention.name[:1].isupper() and _DISTANCE_AFTER.match(text, mention.end)
                or mention.weak and _ZH_DISTANCE_AFTER.match(text, mention.end)):
            # A cue, not a guess: it stays a place whatever the question asked for ("Find coffee near me").
            mention.type, mention.weak = lx.PLACE, False


_NAME_IS_A = re.compile(r"\s+(?:is|was|'s)\s+(?:a|an)\s+$", re.I)
_ZH_CALLED = re.compile(r"(?:叫做|名叫|叫|\s+(?:called|named)\s+(?=[A-Z]))\s*(?!什么|啥|哪|谁|多少)(?P<name>[A-Za-z][\w'&.-]*(?:\s[A-Z][\w'&.-]*){0,3}|[\u4e00-\u9fff]{2,6}?)"
                        r"(?=[，,。.；;！!？?、）)]|\s|$|还有|和|在|，)")


_ZH_CALLED_BEFORE = re.compile(r"叫(?!什么|啥|哪|谁|多少)(?P<name>[\u4e00-\u9fff]{2,5}?|[A-Za-z][\w'&.-]*(?:\s[A-Z][\w'&.-]*){0,3})的$")


def _described_names(text: str, kept: list[Mention]) -> list[Mention]:
    """"Nonna's is an Italian place", "一家粤菜馆叫点都德": a name and the description given to it are one
    entity, of the description's type; the description stays in what was said of the name (its segment)."""
    out = list(kept)
    for name, description in zip(kept, kept[1:]):
        if name.weak and not description.weak and description.type != lx.PERSON and \
                _NAME_IS_A.fullmatch(text[name.end:description.start]):
            name.type, name.weak = description.type, False
            out = [m for m in out if m is not description]
    # Bounded work on a long turn: the name is looked for next to each description, and mentions are compared
    # by identity (dataclass equality compares every field).
    for description in list(out):
        # "一家叫炳胜的粤菜馆": the name said before the head it names.
        if description.weak or description.type == lx.PERSON or "叫" not in text[max(0, description.start - 40):
                                                                                 description.start]:
            continue
        before = _ZH_CALLED_BEFORE.search(text, max(0, description.start - 40), description.start)
        if not before or before.end() != description.start:
            continue
        start, end = before.start("name"), before.end("name")
        dropped = {id(m) for m in out if start < m.end and m.start < end} | {id(description)}
        out = [m for m in out if id(m) not in dropped]
        out.append(Mention(name=before.group("name"), type=description.type, start=start, end=end))
    for description in kept:
        if description.weak or description.type == lx.PERSON or not any(m is description for m in out):
            continue
        called = _ZH_CALLED.match(text, description.end)
        if not called:
            continue
        start, end = called.start("name"), called.end("name")
        inside = [m for m in out if start < m.end and m.start < end]
        if any(m.start < start or m.end > end for m in inside):
            continue
        dropped = {id(m) for m in inside} | {id(description)}
        out = [m for m in out if id(m) not in dropped]
        out.append(Mention(name=called.group("name"), type=description.type, start=start, end=end))
    return sorted(out, key=lambda m: m.start)


_COUNTED_PAIR = re.compile(r"(?P<a>[A-Za-z][\w.-]*(?:\s[A-Za-z][\w.-]*)?)\s*(?:和|与|跟|及|、|,|，|\band\b|&)\s*"
                           r"(?P<b>[A-Za-z][\w.-]*(?:\s[A-Za-z][\w.-]*)?)\s*$")


def _counted_members(text: str, kept: list[Mention]) -> list[Mention]:
    """"proposal 和 budget 两个文件", "Figma and Notion, both tools": two words joined right before a collective
    that counts two are its members, of its type, though the lexicon may know neither."""
    added = []
    for group in kept:
        if not group.plural or not re.match(r"[两俩二]|two\b|both\b", group.name, re.I):
            continue
        pair = _COUNTED_PAIR.search(text, max(0, group.start - 60), group.start)
        if not pair:
            continue
        for name in ("a", "b"):
            start, end = pair.start(name), pair.end(name)
            if pair.group(name).lower() in _STOP_MEMBERS or any(start < m.end and m.start < end for m in kept + added):
                continue
            added.append(Mention(name=pair.group(name), type=group.type, start=start, end=end))
    return sorted(kept + added, key=lambda m: m.start) if added else kept


_STOP_MEMBERS = {"the", "a", "an", "my", "our", "this", "that", "it", "them", "and", "or"}


_ZH_EACH = re.compile(r"(?P<a>[\u4e00-\u9fff]{2,4}?)(?:和|跟|与|、)(?P<b>[\u4e00-\u9fff]{2,4}?)各(?:有|装了?|放了?|买了?)?"
                      r"(?:一|1)?[个台盏只把件部]?$")
_ZH_LIST_ITEMS = re.compile(r"和|跟|与|、|以及|还有|，|,")


MAX_LIST_ITEMS = 12  # the items of one list read as members (a pasted table is not a list of things just named)


def _members(text: str, kept: list[Mention]) -> list[Mention]:
    """"门口和后院各有一个摄像头": one of the kind at each ("门口", "后院"); "两个扫地机器人：楼上的石头和楼下的
    云鲸": a counted collective's list after the colon, each item one of its kind."""
    added = []
    for head in kept:
        if head.type in (lx.PERSON,) or head.weak:
            continue
        each = _ZH_EACH.search(text, max(0, head.start - 14), head.start)
        if each and each.end() == head.start:
            for name in ("a", "b"):
                start = each.start(name)
                added.append(Mention(name=each.group(name), type=head.type, start=start, end=start + len(each.group(name))))
            continue
        if head.plural and text[head.end:head.end + 1] in ("：", ":"):
            stop = re.search(r"[。；;\n]", text[head.end:])
            end = head.end + (stop.start() if stop else len(text) - head.end)
            at = head.end + 1
            for piece in _ZH_LIST_ITEMS.split(text[at:end])[:MAX_LIST_ITEMS]:
                start = text.find(piece, at) if piece else -1
                name = piece.strip()
                if start >= 0 and 2 <= len(name) <= 10:
                    inner = [m for m in kept if m.start >= start and m.end <= start + len(piece)]
                    if not any(m.name == name for m in inner):
                        added.append(Mention(name=name, type=head.type, start=start, end=start + len(name)))
                at = (start + len(piece)) if start >= 0 else at
    if not added:
        return kept
    spans = [(m.start, m.end) for m in added]
    # What an item holds ("楼上的石头": a brand) is the item itself now.
    rest = [m for m in kept if not any(s <= m.start and m.end <= e for s, e in spans)]
    return sorted(rest + added, key=lambda m: m.start)


_HAS_PART = re.compile(r"\b(?:has|have|had|comes\s+with|with)\s+(?:a|an|the|two|three|\d+)?\s*$", re.I)


def _parts_dropped(text: str, kept: list[Mention]) -> list[Mention]:
    """"The Kobo Libra has a 7-inch screen with page buttons": a noun the lexicon lacks said as what a thing
    has is a part or a feature of it, no entity of its own."""
    out = []
    for index, mention in enumerate(kept):
        owner = next((m for m in reversed(kept[:index]) if not m.guess), None)
        between = text[owner.end:mention.start] if owner else ""
        if (mention.guess or re.match(r"\d", mention.name)) and owner is not None \
                and owner.type not in (lx.PERSON, *lx.PLACE_LIKE) \
                and not re.search(r"[.;!?。；！？]", between) and _HAS_PART.search(between):
            continue
        out.append(mention)
    return out


_ZH_ENUMERATION = re.compile(r"(?P<items>[\u4e00-\u9fffA-Za-z0-9]{1,8}(?:、[\u4e00-\u9fffA-Za-z0-9]{1,8})+"
                             r"(?:(?:和|与|及|跟|以及)[\u4e00-\u9fffA-Za-z0-9]{1,8})?)")


def _zh_enumeration(text: str, kept: list[Mention]) -> list[Mention]:
    """"牙膏、洗发水和沐浴露": the items of a list, one of which is a known thing, are things of its kind, though the
    lexicon may not know the others (the first item starts after the verb: "我想买牙膏")."""
    added = []
    for match in _ZH_ENUMERATION.finditer(text):
        pieces, at = [], match.start()
        for piece in re.split(r"、|和|与|及|跟|以及", match.group(0))[:MAX_LIST_ITEMS]:
            start = text.find(piece, at)
            pieces.append((piece, start))
            at = start + len(piece)
        known = [m for m in kept if match.start() <= m.start < match.end() and not m.weak and m.type != lx.PERSON]
        if not known:
            continue
        kind = known[0].type
        for index, (piece, start) in enumerate(pieces):
            if index == 0:  # the first item runs back to the verb before it
                cut = max((i + 1 for i, ch in enumerate(piece) if ch in _ZH_ITEM_STOP), default=0)
                piece, start = piece[cut:], start + cut
            if len(piece) < 2 or any(start < m.end and m.start < start + len(piece) for m in kept + added):
                continue
            added.append(Mention(name=piece, type=kind, start=start, end=start + len(piece)))
    return sorted(kept + added, key=lambda m: m.start) if added else kept


_ZH_ITEM_STOP = set("买要把给有是了和在用拿带订点看换选想还再")


def _zh_latin_names(text: str, kept: list[Mention]) -> None:
    """"望京SOHO", "国贸CBD": a Latin name written onto the Chinese words before it is one name with them, and a
    place when said as where ("…附近", "在…")."""
    for mention in kept:
        if not (mention.weak and mention.name[:1].isascii() and mention.start > 0 and _han(text[mention.start - 1])):
            continue
        start = mention.start
        while start > 0 and mention.start - start < 4 and _han(text[start - 1]) and text[start - 1] not in _ZH_NAME_STOP:
            start -= 1
        if mention.start - start < 2 or any(m is not mention and start < m.end and m.start < mention.start for m in kept):
            continue
        mention.name, mention.start = text[start:mention.end], start
        if re.match(r"附近|旁边|周边|门口|里|那边", text[mention.end:]) or re.search(r"[在去到]$", text[:start]):
            mention.type, mention.weak = lx.PLACE, False


_ZH_NAME_STOP = set("的了在去到是和与跟我你他她它们把给从往用买看这那个也都就还")


def _brands_alone(text: str, kept: list[Mention], context_type: str | None) -> list[Mention]:
    """"石头的2999元，科沃斯的1899元" after "看看扫地机": a brand said alone is one of the kind just talked about."""
    if context_type not in (lx.DEVICE, lx.PRODUCT):
        return kept
    added = []
    for brand in lx.ZH_BRANDS:
        for match in re.finditer(re.escape(brand), text):
            if not any(match.start() < m.end and m.start < match.end() for m in kept + added):
                added.append(Mention(name=brand, type=context_type, start=match.start(), end=match.end()))
    return sorted(kept + added, key=lambda m: m.start)


def mentions_extract(text: str, role: str = "user", context_type: str | None = None,
                     learned: dict[str, str] | None = None) -> list[Mention]:
    """The entity mentions of one turn, non-overlapping, in text order, each with its segment. `learned`
    holds the nouns this session introduced that the lexicon does not know, with their types."""
    raw = _zh_mentions(text, role) + _en_mentions(text, role) + _learned_nouns(text, learned or {})
    guessed = _guessed_nouns(text)
    raw.sort(key=lambda m: (-(m.end - m.start), m.start))
    raw += sorted(guessed, key=lambda m: m.start)  # last: any known span overlapping one wins
    kept: list[Mention] = []
    for mention in raw:
        if any(mention.start < other.end and other.start < mention.end for other in kept):
            continue
        kept.append(mention)
    kept.sort(key=lambda m: m.start)
    kept = _join_name_and_head(text, kept)
    kept = _sub_entities(text, kept, context_type)
    kept = _brands_alone(text, kept, context_type)
    kept = _described_names(text, kept)
    kept = _counted_members(text, kept)
    kept = _members(text, kept)
    kept = _zh_enumeration(text, kept)
    kept = _parts_dropped(text, kept)
    _zh_latin_names(text, kept)
    _coordinated_types(text, kept)
    _visited_types(text, kept)
    clauses = [(m.start(), m.end()) for m in _CLAUSE_SPLIT.finditer(text)]
    bounds = [0] + [end for _, end in clauses] + [len(text)]

    def clause_of(pos: int) -> tuple[int, int]:
        for low, high in zip(bounds, bounds[1:]):
            if low <= pos < high:
                return low, high
        return 0, len(text)

    for index, mention in enumerate(kept):
        low, high = clause_of(mention.start)
        prev_end = max([m.end for m in kept[:index] if m.end <= mention.start and m.end > low] or [low])
        nxt = [m for m in kept[index + 1:] if m.start < high]
        seg_end = nxt[0].start if nxt else high
        # A clause that names nothing ("听说很辣") adds to the last thing named before it.
        while not nxt and seg_end < len(text):
            low2, high2 = clause_of(seg_end + 1 if seg_end < len(text) else seg_end)
            if any(low2 <= m.start < high2 for m in kept) or low2 >= high2:
                break
            seg_end = high2
        prefix = text[prev_end:mention.start]
        if index and prev_end > low:
            # "Maria has fifteen years of experience and Jess is…": what precedes "and" was said of Maria.
            cut = max((m.end() for m in _PREFIX_BREAK.finditer(prefix)), default=0)
            prefix = prefix[cut:]
        suffix = text[mention.end:seg_end]
        relative = _RELATIVE.match(text, mention.end)
        if relative and not suffix.strip(" ,"):
            # "Olivia, who knows CPR, and Chloe": the relative clause cut off by commas is said of the name
            suffix = relative.group(0)
        mention.segment = re.sub(r"\s{2,}", " ", prefix + mention.name + suffix + (" " + nxt[0].name if nxt else "")).strip()
        attached = re.search(r"\d+(?:\.\d+)?\s*[A-Za-z%¥$元块]{0,3}\s*的?\s*$", prefix)
        mention.numbers = _numbers(suffix) or (_numbers(attached.group(0)) if attached else []) or _numbers(mention.name)
        mention.clause = text[low:high]
        if role == "assistant":
            before = text[low:mention.start]
            if any(verb in before[-8:] for verb in _ACTION_ZH) or _ACTION_EN.search(before[-30:]) or \
                    re.match(r"\s*(is starting|is playing|has been)", text[mention.end:]):
                mention.acted = True
    return kept
