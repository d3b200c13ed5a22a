"""Referring expressions of an utterance (zh and en) and the constraints each sets on what it can mean:
person or not, gender, place, plural and how many, a head noun ("那家奶茶店", "that aquarium"), an
attribute ("便宜的", "the June one", "the one with the kettle")."""
from __future__ import annotations

import re
from dataclasses import dataclass

from layers.transient.references import lexicon as lx
from layers.transient.references import pronouns as pr
from layers.transient.references.extract import mentions_extract
from layers.transient.references.mentions_en import _en_head


@dataclass
class Reference:
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
    ordinal: int = 0  # "第二个", "the third one": its place in the latest list (-1: the last one)
    past: bool = False  # "上次那家", "the place from last month": somewhere visited before
    zero: bool = False  # no word at all: the object a zh predicate lacks ("调到24度")


_ZH_CL = "个家款件班盏台本位只条份张双笔次辆套部瓶种样首篇间场把盆版"
_ZH_TIME = (*lx.ZH_PAST_TIMES, *lx.ZH_HABITUAL, "刚才", "刚刚", "今天", "还是", "再", "就", "也", "去", "订", "那", "把", "给", "的", "在",
            "点", "叫", "从")
_ZH_DEMO = re.compile(
    rf"(?P<attr>[\u4e00-\u9fffA-Za-z0-9]{{0,6}}?)(?P<de>的)?(?P<dem>那|这)(?P<num>[两俩三几]?)(?P<cl>[{_ZH_CL}]?)"
    rf"(?P<head>[\u4e00-\u9fffA-Za-z]{{0,5}})")
# "the cheaper hotel", "the more expensive restaurant": a definite compared among things already named.
_EN_COMPARATIVE = "(?:" + "|".join(lx.EN_COMPARATIVE_WORDS) + ")"
_EN_REF = re.compile(
    r"\b(?:(?P<det>the|that|this|those|these)\s+(?:(?P<num>two|three|both)\s+)?"
    r"(?:(?P<attr>[\w'-]+(?:\s+[\w'-]+)?)\s+)?(?P<one>one|ones|place|store|shop|spot)\b"
    r"(?:\s+(?P<prep>with|near|on|in|at|by|from|next\s+to)\s+(?:the\s+|my\s+)?(?P<with>[\w-]+(?:\s+[\w-]+)?)"
    r"|\s+(?:that|which|who)\s+(?P<that>[\w'-]+(?:\s+[\w'-]+){0,2}))?"
    r"|(?P<both>both of them|those two|these two|the two|both)\b(?!\s+(?:of\s+)?(?:the|my|your)\b)"
    r"|(?P<det2>that|those|these|this|the\s+same|the(?=\s+(?:(?:more|less|most|least)\s+[a-z]+|" + _EN_COMPARATIVE + r")\s))"
    r"\s+(?:(?P<num2>two|three)\s+)?(?P<noun>(?:[\w'-]+\s+){0,2}[\w'-]+)"
    r"|\b(?P<pro>she|her|he|him|his|it|its|they|them|their|there)\b)", re.I)


def _zh_demonstratives(text: str):
    """Every 那/这 with what follows and the attribute words before it (not one left-to-right scan,
    which would swallow "那订早上的那班" whole)."""
    for index, char in enumerate(text):
        if char not in "那这":
            continue
        begin = index
        while begin > 0 and index - begin < 6 and (text[begin - 1] not in _ZH_ATTR_STOP or (
                begin > 1 and text[begin - 1] in _ZH_DONE_VERBS and text[begin - 2] in _ZH_ORDER_WORDS)):
            begin -= 1  # "先买的那笔", "后订的那个": when it was done is the attribute, verb and all
        match = _ZH_DEMO.match(text, begin)
        while match and match.start("dem") != index:
            begin += 1
            match = _ZH_DEMO.match(text, begin)
        if match:
            yield match


_ZH_DONE_VERBS = set("买订选加换寄")
_ZH_ORDER_WORDS = set("先后刚新早晚")
_ZH_VERB_CHARS = set("买要给是有在去用拿看做吃喝送发放换退能会")
_ZH_THIS_CL = set("样个家款台件盏本首双只部辆张份套")
_ZH_PAST = (*lx.ZH_PAST_TIMES, *lx.ZH_HABITUAL)
_ZH_ORDINAL = re.compile(rf"第(?P<n>[一二三四五六七八九十1-9])(?P<cl>[{_ZH_CL}])|(?P<last>最后)(?:一|那)?(?P<cl2>[{_ZH_CL}])")
_ZH_DIGITS = {c: i for i, c in enumerate("一二三四五六七八九十", start=1)} | {str(i): i for i in range(1, 10)}
_ZH_ATTR_STOP = set("，,。.!！?？；; 、：:把给带就是去买要用选拿看发打开换还吧那这订和跟与也都让请帮")


_PRONOUN_RES = {word: re.compile(re.escape(word)) for word in pr.ZH_PRONOUNS}


def _zh_refs(text: str) -> list[Reference]:
    refs: list[Reference] = []
    taken: list[tuple[int, int]] = []

    def claim(start: int, end: int) -> bool:
        if any(start < e and s < end for s, e in taken):
            return False
        taken.append((start, end))
        return True

    for match in _ZH_ORDINAL.finditer(text):
        if text[match.end():match.end() + 1] in ("次", "天") or match.group("cl") in ("次", "种"):
            continue  # "第一次", "第二天": time, not a thing
        cl = match.group("cl") or match.group("cl2")
        ref = Reference(text=match.group(0), start=match.start(),
                        ordinal=-1 if match.group("last") else _ZH_DIGITS[match.group("n")],
                        place=cl == "家", person=True if cl == "位" else None)
        if claim(match.start(), match.end()):
            refs.append(ref)
    for match in _zh_demonstratives(text):
        num, cl, head = match.group("num"), match.group("cl"), match.group("head")
        if not (cl or num) and not head.startswith(("里", "儿", "边", "地方")):
            continue
        # "这次", "这种", "这位"... are time or kind words unless a head follows; a classifier of things is not.
        if match.group("dem") == "这" and not num and cl not in _ZH_THIS_CL and not (cl and head):
            continue
        attr = match.group("attr") or ""
        said_before = attr
        stripped = None
        while stripped != attr:  # "在上回那家店": 在 first, then 上回
            stripped = attr
            for word in sorted(_ZH_TIME, key=len, reverse=True):
                while attr.startswith(word):
                    attr = attr[len(word):]
        past = any(word in said_before[:len(said_before) - len(attr)] for word in _ZH_PAST)
        attr = attr.lstrip("的")
        start = match.start("attr") + (len(match.group("attr")) - len(attr))
        ref = Reference(text="", start=start, past=past)
        if head.startswith(("里", "儿", "边", "地方")):
            ref.place = True
            head = ""
        # The head noun after the classifier: keep the part that is a known head.
        known = ""
        for kind, heads in lx.ZH_HEADS.items():
            for word in heads:
                at = head.find(word)
                # "那个红色杯子": a head a word or two on; "那个买个生日礼物": not past a verb.
                if head.startswith(word) or (0 < at <= 2 and len(word) > 1 and not any(c in _ZH_VERB_CHARS for c in head[:at])):
                    if len(word) > len(known):
                        known, ref.head_type = word, kind
        if head.startswith("店") or head.startswith("地方"):
            known, ref.head_type, ref.place = head[:1] if head.startswith("店") else "地方", lx.PLACE, True
        if cl == "次" and not known:
            continue  # "这次还是…", "那次": a time, not a thing
        if cl == "把" and text[match.end("cl"):match.end("cl") + 1] in "它他她我你这那们灯门窗空电":
            continue  # "那把它关了": 把 marks the object there, it is not a classifier
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
            refs.append(Reference(text=match.group(0), start=match.start(), plural=True, count=2,
                             person=True if match.group(0) in ("他俩", "她俩") else None))
    for word in sorted(pr.ZH_PRONOUNS, key=len, reverse=True):
        for match in re.finditer(_PRONOUN_RES[word], text):
            if claim(match.start(), match.end()):
                feats = pr.ZH_PRONOUNS[word]
                refs.append(Reference(text=word, start=match.start(), person=feats.get("person"),
                                 gender=feats.get("gender", ""), plural=feats.get("plural", False),
                                 place=feats.get("place", False), past=feats.get("past", False)))
    return refs


# "Does the hotel have a shuttle?": a definite place noun on its own points back to the one meant; with a
# qualifier after it ("the hotel near the airport") it describes a new one.
_EN_THE_PLACE = re.compile(r"\bthe\s+(?P<head>hotel|inn|motel|resort|restaurant|cafe|café|bistro|clinic|hospital|salon|"
                           r"spa|gym|museum|store|shop|bakery|pharmacy|vet|venue|cabin|rental|apartment|airbnb|"
                           r"aquarium|theater|theatre|gallery)\b(?!\s+(?:in|near|at|on|of|with|for|called|named|that|"
                           r"which|by|next|across|downtown|nearby)\b)", re.I)


def _en_refs(text: str) -> list[Reference]:
    refs = []
    for match in _EN_THE_PLACE.finditer(text):
        head = match.group("head").lower()
        refs.append(Reference(text=match.group(0), start=match.start(), place=True, head=head,
                              head_type=_en_head(head) or lx.PLACE))
    definite = [(r.start, r.start + len(r.text)) for r in refs]
    for match in _EN_REF.finditer(text):
        span = match.group(0)
        if any(match.start() < end and start < match.end() for start, end in definite):
            continue
        ref = Reference(text=span, start=match.start())
        if match.group("pro"):
            word = match.group("pro").lower()
            after = text[match.end():match.end() + 12].lower()
            if word in ("it", "its") and re.match(r"\s*(rain|snow|is (raining|cold|hot|sunny)|\'s (raining|cold)|(hot|cold|warm|"
                                                  r"sunny|windy|humid|raining|snowing|going to rain)\b)", after):
                continue
            # existential "there is" / "there's a blue speaker…" names no place
            if word == "there" and re.match(r"(\s*(is|are|was|were)|['’](s|re))\b", after) and \
                    not re.search(r"\b(get|go|drive|fly|stay|there\?)", text.lower()):
                continue
            feats = pr.EN_PRONOUNS[word]
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
            if ref.attribute in lx.EN_HABITUAL_ATTRIBUTES and (ref.place or ref.head_type in lx.PLACE_LIKE):
                ref.attribute, ref.past = "", True  # "the usual place": where one goes, gone to before
            if ref.attribute in ("same", "last", "latest"):
                ref.attribute = ""
            if ref.attribute in _EN_ORDINALS:
                ref.ordinal, ref.attribute = _EN_ORDINALS[ref.attribute], ""
            if match.group("with") and not ref.attribute:
                # "the one with the kettle" has the kettle; "the one by the window" is where it was said to be,
                # an attribute like any other. "the one with soccer first": the adverb is no part of it.
                ref.attribute = re.sub(r"\s+(?:first|please|now|today|tonight|instead|again|too|later|then)$", "",
                                       match.group("with").lower())
                ref.with_attribute = match.group("prep").lower() in ("with", "from")
            if match.group("that") and not ref.attribute:
                # "the one that takes reservations": what was said of it, in its clauses.
                words = [w for w in match.group("that").lower().split() if w not in ("is", "was", "has", "had", "you",
                                                                                       "i", "we", "the", "a")]
                if words:
                    ref.attribute, ref.with_attribute = " ".join(words[-2:]), True
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
            det_words = len(match.group("det2").split())
            ref.text = " ".join(span.split()[: det_words + (1 if match.group("num2") else 0) + len(noun)])
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
        if (ref.place or ref.head_type in lx.PLACE_LIKE) and _EN_PAST.search(text):
            ref.past = True
        refs.append(ref)
    return refs


_EN_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
_EN_PAST = re.compile(r"\b(?:" + lx.EN_LAST_PERIOD + r"|before|again|back to|we went|we ate|we stayed|we used|"
                      r"we ordered|been to|went to|the same)\b", re.I)


def references_find(text: str) -> list[Reference]:
    refs = _zh_refs(text) + _en_refs(text)
    refs.sort(key=lambda r: r.start)
    return refs


# zh drops the object of a command when it is the thing just talked about ("再调亮一点", "调到24度",
# "暂停一下"). Only a clause that begins with such a verb and names nothing itself is read that way.
_ZH_ZERO = re.compile(r"^(?:那就|那|再|请|帮我|麻烦|先|给我|稍微)*(?P<verb>调亮|调暗|调到|调高|调低|调大|调小|"
                      r"关掉|关了|关上|关一下|打开一半|开一半|拉上|拉开|暂停|继续播放|继续放|下一首|上一首|静音|"
                      r"锁上|解锁|重启|充上电|浇水|升到|降到)")
_ZH_CLAUSE_END = re.compile(r"[，,。.!！?？；;]")


def zero_reference(text: str) -> Reference | None:
    """The missing object of a zh command, as a reference spanning the command's clause, or None."""
    match = _ZH_ZERO.match(text.strip())
    if not match:
        return None
    lead = len(text) - len(text.lstrip())
    start = lead + match.start("verb")
    end_match = _ZH_CLAUSE_END.search(text, start)
    end = end_match.start() if end_match else len(text.rstrip())
    clause = text[lead:end]
    if any(m.type != lx.PERSON for m in mentions_extract(clause)):
        return None  # "调到24度" names nothing; "把卧室空调调到24度" does
    return Reference(text=text[start:end], start=start, person=False, zero=True)
