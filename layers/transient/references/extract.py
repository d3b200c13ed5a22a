"""Offline entity extraction from one turn (zh, en and mixed): no model.

Spans come from a few families of rules: 《书名号》 titles and file names; order, ticket, train and
flight codes; zh head nouns with their room, owner or name in front ("客厅的灯", "卧室空调", "他的猫",
"三亚亚特兰蒂斯酒店"); kinship words, surname + title and 小/阿 names; en noun phrases around a head
noun and capitalised names. Overlaps keep the longer span. Each mention keeps the text around it (its
segment) so that attributes stated with it ("红色的", "$140", "who's 9") can pick it out later.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from layers.transient.references import lexicon as lx

HAN = r"\u4e00-\u9fff"
# Clause ends; a comma or point inside a number ("$2,100", "4.5 hours") is not one.
_CLAUSE_SPLIT = re.compile(r"[，;；。!！?？：\n]|(?<!\d)[,.:]|[,.:](?!\d)|(?<=\s)-(?=\s)")
# Characters a zh name never runs over when it is extended to the left of its head noun.
_ZH_STOP = set("的了在去到住是吃喝那这个家我你他她它们和与跟及有查找订想要把给让从往再还也都就很最好帮看买点"
               "一两二三几些每叫说对被向比用为边过着呢吗吧啊呀哦嗯天已")
# One-character heads that compound freely with what is in front ("帆布鞋", "皮鞋", "双肩包").
_ZH_COMPOUNDING = ("鞋", "包")
_ZH_VERBS = "带上拿放穿背用换洗修找要退寄送收装卖"
_ZH_STOP_WORDS = ("什么", "哪些", "哪家", "哪个", "上次", "刚才", "今天", "明天", "昨天", "附近", "最近", "周末", "今年", "去年", "这次", "上午", "下午",
                  "中午", "晚上", "早上", "上周", "下周", "上个月", "下个月", "以前", "之前", "后来", "里面", "前面")
_ACTION_ZH = ("已为你", "已帮你", "已把", "已经把", "已将", "已预订", "已下单", "已购买", "已更新", "已添加", "已改",
              "正在播放", "已开始", "已设")
_ACTION_EN = re.compile(r"\b(added|booked|bought|ordered|moved|renamed|changed|updated|scheduled|reserved|"
                        r"cancelled|canceled|playing|is starting|now playing|requested|set up|switched)\b", re.I)
_REDUP_STOP = set("常天刚慢好谢哈渐偷轻看试想问走等爸妈哥姐弟妹宝星人样个点些多")
_CLASSIFIER = "个件双台盏本位只条份张款辆套部把瓶盒支块"
_NUM_WORD = {"两": 2, "二": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "几": 3}

_EN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’.\-]*[A-Za-z0-9]|[A-Za-z]|#?\d[A-Za-z0-9\-.]*|\$\d[\d,.]*")
_EN_STOP = set("""
a an the my your his her our their its this that these those some any all both each every no one ones two three
i you he she it we they me him us them mine yours
is are was were be been being am do does did have has had will would can could should may might must shall
and or but so if then than as of on in at to for from with by about into over under near after before up down
out off again also just only very too not yes no ok okay please thanks thank hi hello hey sure great nice good
what which who whom whose when where why how there here now today tomorrow yesterday tonight next last
turn open close play add send put pull show find check get give make set start stop let call text email tell ask
book cancel move switch pause queue compare order buy return rename export download upload summarize
new old same other another more most less few many much own right left
""".split())
_EN_HEAD_TYPE = {word: kind for kind, words in lx.EN_HEADS.items() for word in words}
_EN_CITIES = set("""
austin boston denver seattle chicago houston dallas miami atlanta phoenix portland vegas orlando nashville
york francisco angeles diego jose washington philadelphia detroit minneapolis honolulu anchorage monterey
kyoto tokyo osaka paris london rome madrid barcelona berlin amsterdam lisbon dublin prague vienna sydney
melbourne toronto vancouver montreal mexico bangkok singapore seoul beijing shanghai dubai istanbul bali
hawaii tahoe yosemite zion bryce arches yellowstone napa sedona asakusa shibuya hokkaido florence venice
""".split())


@dataclass
class Mention:
    name: str
    type: str
    start: int
    end: int
    gender: str = ""
    plural: bool = False  # a collective phrase: "两件衬衫", "my parents", "string lights"
    weak: bool = False  # typed by guess (an unknown capitalised name)
    guess: bool = False  # a noun the lexicon does not know, taken from how it was said ("bought a kayak")
    acted: bool = False  # the assistant acted on it in this turn ("已为你预订G7次", "Added the Kobo Clara")
    segment: str = ""  # the words stated with it, for attributes
    clause: str = ""
    numbers: list[float] = field(default_factory=list)


class _Found:
    """A literal occurrence, with the two methods of a regex match the callers use."""
    __slots__ = ("_start", "_end")

    def __init__(self, start: int, end: int):
        self._start, self._end = start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


def _find_all(text: str, word: str):
    at = text.find(word)
    while at >= 0:
        yield _Found(at, at + len(word))
        at = text.find(word, at + len(word))


def _han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def _add(found: list[Mention], name: str, kind: str, start: int, **extra) -> None:
    name = name.strip(" 的")
    if not name:
        return
    found.append(Mention(name=name, type=kind, start=start, end=start + len(name), **extra))


def _zh_extend_left(text: str, start: int, *, names: bool) -> int:
    """Where the phrase ending in a head at `start` begins: a room word (with 的), an owner ("他的"), a
    time ("9点的"), a Latin brand, or (for places, restaurants and events) the name in front."""
    begin = start
    for room in sorted(lx.ZH_ROOMS, key=len, reverse=True):
        for sep in ("的", ""):
            piece = room + sep
            if text[:begin].endswith(piece):
                return begin - len(piece)
    for owner in ("我的", "他的", "她的", "我们的", "你的", "我家的", "家里的", "公司的"):
        if text[:begin].endswith(owner):
            return begin - len(owner)
    time = re.search(r"(\d{1,2}点(半)?|早上|上午|中午|下午|晚上)的?$", text[:begin])
    if time:
        return time.start()
    for modifier in ("智能", "无线", "蓝牙", "迷你", "便携", "电动", "电"):
        if text[:begin].endswith(modifier):
            return begin - len(modifier)
    latin = re.search(r"[A-Za-z][A-Za-z0-9\- ]*[A-Za-z0-9] ?$", text[:begin])
    if latin and not names:
        return latin.start()
    if names:
        i = begin
        while i > 0 and _han(text[i - 1]) and text[i - 1] not in _ZH_STOP and begin - i < 7:
            i -= 1
        for word in _ZH_STOP_WORDS:
            found_at = text[i:begin].rfind(word)
            if found_at >= 0:
                i += found_at + len(word)
        if latin and latin.end() == begin and i == begin:
            return latin.start()
        return i
    return begin


_ZH_SPEC = re.compile(r"\d+(?:\.\d+)?(?:英寸|寸|升|毫升|L|ml|公斤|kg|匹|米|人份|色)$|[红白黑灰蓝绿粉紫黄金银]色的?$")
_ZH_BRAND_END = re.compile(rf"(?:{'|'.join(sorted(lx.ZH_BRANDS, key=len, reverse=True))})的?$")


def _zh_brand_left(text: str, start: int) -> int:
    """"小米24寸行李箱", "新秀丽20寸登机箱", "戴森HD15吹风机": a spec, then a brand, in front of the head."""
    spec = _ZH_SPEC.search(text[:start])
    if spec:
        start = spec.start()
    latin = re.search(r"[A-Za-z][A-Za-z0-9\-]*$", text[:start])
    brand = _ZH_BRAND_END.search(text[:latin.start() if latin else start])
    if brand:
        return brand.start()
    return start


_ZH_TITLED = re.compile(rf"([{''.join(sorted(lx.ZH_SURNAMES))}])({'|'.join(sorted(lx.ZH_TITLES, key=len, reverse=True))})")


def _zh_mentions(text: str, role: str) -> list[Mention]:
    found: list[Mention] = []
    for match in re.finditer(r"《[^》]{1,40}》", text):
        media = re.search(r"播放|在听|听|歌|专辑|电影|看", text[max(0, match.start() - 8):match.start()])
        _add(found, match.group(0), lx.MEDIA if media else lx.DOCUMENT, match.start())
    for match in re.finditer(rf"[\w{HAN}\-]+\.(?:pdf|docx?|xlsx?|pptx?|csv|txt|key|md|zip|png|jpe?g)\b", text, re.I):
        _add(found, match.group(0), lx.DOCUMENT, match.start())
    for match in re.finditer(r"(?:订单号?|工单号?|单号)\s*[A-Za-z0-9][\w\-]*\d[\w\-]*", text):
        _add(found, match.group(0), lx.ORDER, match.start())
    for match in re.finditer(r"(?<![A-Za-z0-9])[GDCKZT]\d{1,4}次?(?![A-Za-z0-9])", text):
        _add(found, match.group(0), lx.VEHICLE, match.start())
    for match in re.finditer(rf"([{HAN}A-Za-z0-9]{{1,6}})订单", text):
        _add(found, match.group(0)[-(min(len(match.group(1)), 4) + 2):], lx.ORDER, match.end() - min(len(match.group(1)), 4) - 2)
    # Head nouns, with what is in front of them.
    for kind, heads in lx.ZH_HEADS.items():
        for head in heads:
            for match in _find_all(text, head):
                names = kind in (lx.PLACE, lx.RESTAURANT, lx.EVENT, lx.DOCUMENT) or len(head) > 1 and kind == lx.VEHICLE
                start = _zh_extend_left(text, match.start(), names=names)
                if kind in (lx.DEVICE, lx.PRODUCT):
                    start = _zh_brand_left(text, start)
                end = match.end()
                model = re.match(r"[A-Za-z0-9\-]+", text[end:])
                after_model = text[end + model.end():end + model.end() + 2] if model else ""
                if model and (re.match(r"[:：点度%元块号寸斤克升岁个]|公斤|[.．]\d", after_model or " ")):
                    model = None
                if model:
                    end += model.end()
                # A one-character head needs a real modifier ("客厅的灯", "他的猫"), not "小岛" or "出门".
                if len(head) == 1 and match.start() - start < 2 and head not in "灯猫狗":
                    before = text[max(0, match.start() - 2):match.start()]
                    if kind == lx.PRODUCT and re.fullmatch(rf"[{_CLASSIFIER}]", before[-1:] or " ") \
                            and re.search(r"[两二三四五几俩一]$", before[:-1]):
                        pass  # "两双鞋", "一个包": counted, so a thing
                    elif head in _ZH_COMPOUNDING and len(before) == 2 and all(_han(c) and c not in _ZH_STOP and c not in _ZH_VERBS
                                                                           and c not in _CLASSIFIER for c in before):
                        start = match.start() - 2  # "帆布鞋", "双肩包": a kind of it
                    elif head in _ZH_COMPOUNDING and before[-1:] and _han(before[-1]) and before[-1] not in _ZH_STOP and before[-1] not in _ZH_VERBS \
                            and before[-1] not in _CLASSIFIER and (len(before) < 2 or not _han(before[0])
                                                                   or before[0] in _ZH_STOP or before[0] in _CLASSIFIER):
                        start = match.start() - 1  # "皮鞋", "的皮鞋"
                    else:
                        continue
                if head == "预约" and start == match.start():
                    continue  # "已预约明天的牙医": the verb; "牙医预约" is the appointment
                if head == "会" and not re.search(r"(个|场|次|开|的)$", text[:match.start()]):
                    continue
                if head == "车" and (text[end:end + 1] in "库位站票厢" or text[:match.start()].endswith(
                        ("购物", "停", "开", "打", "堵", "坐", "骑", "修", "洗", "下", "上"))):
                    continue
                count = re.search(rf"([两二三四五几俩])[{_CLASSIFIER}]$", text[:start])
                plural = bool(count)
                if count:
                    start = count.start()
                _add(found, text[start:end], kind, start, plural=plural)
    for name, kind in lx.ZH_NAMES.items():
        for match in _find_all(text, name):
            _add(found, name, kind, match.start())
    for match in re.finditer(rf"(?:在|去)([{HAN}]{{2,5}}?)(?:吃|喝)", text):
        if match.group(1)[:2] not in _ZH_STOP_WORDS and match.group(1) not in ("哪儿", "哪里", "外面", "家里"):
            _add(found, match.group(1), lx.RESTAURANT, match.start(1))
    # People.
    for word, gender in lx.ZH_PEOPLE.items():
        for match in _find_all(text, word):
            start = match.start()
            if text[:start].endswith("我") and not word.startswith("我"):
                start -= 1
            _add(found, text[start:match.end()], lx.PERSON, start, gender=gender,
                 plural=word in ("父母", "爸妈", "家人", "孩子们"))
    for match in _ZH_TITLED.finditer(text):
        _add(found, match.group(0), lx.PERSON, match.start(), gender=lx.ZH_TITLE_GENDER.get(match.group(2), ""))
    for match in re.finditer(rf"([小阿老])([{HAN}])", text):
        second = match.group(2)
        if match.group(1) == "老" and second not in lx.ZH_SURNAMES:
            continue
        if second in _ZH_STOP or second in "区时候心孩朋米面姐哥妹弟":
            continue
        if match.group(1) == "小" and second not in lx.ZH_SURNAMES and second not in "美丽红明芳静雪强伟杰军敏玲":
            continue
        _add(found, match.group(0), lx.PERSON, match.start())
    for match in re.finditer(rf"([{HAN}])\1", text):
        char = match.group(1)
        if char not in _REDUP_STOP and char not in _ZH_STOP:
            before = text[max(0, match.start() - 1):match.start()]
            after = text[match.end():match.end() + 2]
            if before in ("叫", "是", "和", "跟", "给", "") or after[:1] in ("和", "跟", "说", "的", "生", "要", "也"):
                pet = re.search(r"[猫狗兔鸟龟鹦鹉仓鼠]|宠物", text[max(0, match.start() - 6):match.start()])
                _add(found, match.group(0), lx.OTHER if pet else lx.PERSON, match.start())
    return found


def _en_head(word: str) -> str | None:
    low = word.lower().strip(".'’")
    if low in _EN_HEAD_TYPE:
        return _EN_HEAD_TYPE[low]
    for suffix in ("es", "s"):
        if low.endswith(suffix) and low[: -len(suffix)] in _EN_HEAD_TYPE:
            return _EN_HEAD_TYPE[low[: -len(suffix)]]
    return None


def _capitalised(word: str) -> bool:
    return bool(re.match(r"[A-Z]|[a-z]+[A-Z]", word)) or bool(re.match(r"#?\d", word)) and len(word) < 12


def _inner_capital(tokens: list, index: int) -> bool:
    """"Veracruz All Natural": a capitalised stop word between two capitalised words is part of the name."""
    word = tokens[index][0]
    return word[:1].isupper() and word not in ("I", "And", "Or", "But") and index + 1 < len(tokens) \
        and tokens[index + 1][0][:1].isupper() and tokens[index + 1][1] == tokens[index][2] + 1


def _en_names(text: str, tokens: list, used: list[bool], initial, found: list[Mention]) -> None:
    """Capitalised names ("Blue Bottle on 3rd St", "Alvarez NDA", "Henderson contract"), typed by a cue
    before them, a place word or head noun inside or right after them, a given name, or a guess (weak)."""
    dining, travel, lodging = bool(_DINING.search(text)), bool(_TRAVEL.search(text)), bool(_LODGING.search(text))
    index = 0
    while index < len(tokens):
        word, start, end = tokens[index]
        low = word.lower().strip(".")
        if used[index] or not _capitalised(word) or re.match(r"#?\d", word) or low in _EN_STOP or len(word) < 2 \
                or low in _EN_CALENDAR or low in lx.EN_PEOPLE or "'" in word and word.split("'")[0].lower() in _EN_STOP:
            index += 1
            continue
        if low in lx.EN_PERSON_TITLES and index + 1 < len(tokens) and tokens[index + 1][0][:1].isupper() \
                and text[tokens[index][2]:tokens[index + 1][1]] in (" ", ". "):
            # "Dr. Patel", "Mrs. Lin": a title and the name after it are one person.
            _add(found, text[start:tokens[index + 1][2]], lx.PERSON, start, gender=lx.EN_PERSON_TITLES[low])
            used[index] = used[index + 1] = True
            index += 2
            continue
        if initial(index) and (re.search(r"(ed|ing)$", word) or low in _EN_COMMON) and index + 1 < len(tokens):
            index += 1  # "Playing Bohemian Rhapsody": the verb is not part of the name
            continue
        last = index

        def joined(nxt: int) -> bool:
            gap = text[tokens[nxt - 1][2]:tokens[nxt][1]]
            # "Spoke & Wheel" is one name; "AirPods Pro 1899元" ends before its price.
            return gap == " " or gap == " & " and _capitalised(tokens[nxt][0])

        while last + 1 < len(tokens) and not used[last + 1] and joined(last + 1) \
                and (_capitalised(tokens[last + 1][0]) or tokens[last + 1][0].lower() in ("on", "of", "de", "la"))\
                and (tokens[last + 1][0].lower() not in _EN_STOP - {"on", "of"} or _inner_capital(tokens, last + 1)) \
                and tokens[last + 1][0].lower().strip(".") not in _EN_CALENDAR \
                and not (re.match(r"\d", tokens[last + 1][0]) and _PRICE_AFTER.match(text, tokens[last + 1][2])):
            last += 1
        while last > index and tokens[last][0].lower() in ("on", "of", "de", "la"):
            last -= 1
        if last == index and initial(index) and _name_gender(word) is None and not _en_head(word) \
                and _NOT_A_NAME_AFTER.match(text, tokens[index][2]):
            index += 1  # "Sunny with a high of 75", "Fun!", "Inflatable ones": a capital, not a name
            continue
        words = [t[0] for t in tokens[index:last + 1]]
        if last == index and (_en_head(word) or initial(index) and (
                re.search(r"(ed|ing|ly)$", word) or low in _EN_COMMON)):
            index += 1
            continue
        trailing = None
        if last + 1 < len(tokens) and tokens[last + 1][1] == tokens[last][2] + 1 and text[tokens[last][2]] == " " \
                and tokens[last + 1][0].islower() and _en_head(tokens[last + 1][0]):
            trailing = _en_head(tokens[last + 1][0])
            last += 1
        name = text[start:tokens[last][2]]
        gender = _name_gender(words[0])
        prev = tokens[index - 1][0].lower() if index else ""
        lows = [w.lower().strip(".") for w in words]
        if prev in ("play", "playing", "queue", "up", "watch", "watching", "stream", "listen") or \
                re.match(r"\s*(by|-)\s", text[tokens[last][2]:]):
            _add(found, name, lx.MEDIA, start)
        elif trailing:
            _add(found, name, trailing, start)
        elif any(w in _EN_CITIES or w in _EN_PLACE_WORDS for w in lows):
            _add(found, name, lx.PLACE, start)
        elif len(words) > 1 and (lows[-1] in lx.EN_RESTAURANT_NAME_ENDS or lows[0] in lx.EN_RESTAURANT_NAME_ENDS
                                 or dining and prev not in _PERSON_CUES and gender is not None):
            _add(found, name, lx.RESTAURANT, start)
        elif len(words) > 1 and (_en_head(words[-1]) or _en_head(words[0])):
            _add(found, name, _en_head(words[-1]) or _en_head(words[0]), start)
        elif gender is not None and len(words) <= 2:
            _add(found, name, lx.PERSON, start, gender=gender)
        elif any(re.search(r"\d", w) for w in words):
            _add(found, name, lx.PRODUCT, start, weak=True)
        elif prev == "by":
            _add(found, name, lx.PERSON, start, weak=True)  # "Hotel California by Eagles": the artist
        elif dining and prev in ("at", "to", "try", "from", "visit", "and", "or", "go", "like"):
            _add(found, name, lx.RESTAURANT, start, weak=True)  # "dinner at Nobu", "let's try Ippudo"
        elif prev in ("at", "in", "near", "visit", "to") and travel or prev in ("at", "in", "near") or lodging:
            _add(found, name, lx.PLACE, start, weak=True)
        elif prev in ("with", "and", "tell", "text", "call", "ask", "email", "to", "from", "invite", "meet"):
            _add(found, name, lx.PERSON, start, weak=True)
        else:
            _add(found, name, lx.OTHER, start, weak=True)
        for k in range(index, last + 1):
            used[k] = True
        index = last + 1


_EN_FOOD_PLACE = re.compile(r"\b(?:taco|tacos|pizza|sushi|ramen|burger|burgers|bbq|barbecue|noodle|noodles|dumpling|"
                            r"pho|curry|thai|italian|mexican|chinese|indian|korean|japanese|french|greek|vegan|"
                            r"brunch|breakfast|coffee|tea|bagel|donut|dessert|seafood|steak|wine|cocktail|dim sum)"
                            r"\s+(?:place|spot|joint|shop|truck|bar)\b", re.I)


def _en_mentions(text: str, role: str) -> list[Mention]:
    found: list[Mention] = []
    for match in _EN_FOOD_PLACE.finditer(text):
        _add(found, match.group(0), lx.RESTAURANT, match.start())  # "the taco place", "that BBQ spot"
    tokens = [(m.group(0), m.start(), m.end()) for m in _EN_WORD.finditer(text)]
    sentence_starts = {0} | {m.end() for m in re.finditer(r"[.!?:;]\s+|[\n，。！？：；]\s*", text)}

    def initial(index: int) -> bool:
        start = tokens[index][1]
        lead = text[:start].rstrip(" '\"(")
        return not lead or start in sentence_starts or lead[-1] in ".!?:;，。！？：；\n" or _han(lead[-1])

    used = [False] * len(tokens)
    # Codes: tickets, orders, flights.
    for match in re.finditer(r"#\s?\d{3,}", text):
        _add(found, match.group(0), lx.ORDER, match.start())
    for match in re.finditer(r"(?<![A-Za-z0-9])[A-Z]{2}\s?\d{3,4}(?![A-Za-z0-9])", text):
        _add(found, match.group(0), lx.VEHICLE, match.start())
    _en_names(text, tokens, used, initial, found)
    for index, (word, start, end) in enumerate(tokens):
        if used[index]:
            continue
        kind = _en_head(word)
        low = word.lower()
        owner = re.match(r"(.+)['’]s$", low)
        if owner and owner.group(1) in lx.EN_PEOPLE:
            # "my mom's birthday": the mother is mentioned too, not only her birthday.
            _add(found, word[:len(owner.group(1))], lx.PERSON, start, gender=lx.EN_PEOPLE[owner.group(1)])
            used[index] = True
            continue
        if low in lx.EN_PEOPLE and not (index + 1 < len(tokens) and tokens[index + 1][1] == end + 1
                                        and _en_head(tokens[index + 1][0]) in (lx.EVENT, lx.DOCUMENT, lx.ORDER)):
            # ("client call", "team meeting" are events, not the client)
            first = index
            if index > 0 and tokens[index - 1][0].lower() in ("my", "our", "your"):
                first = index
            name_after = index + 1 < len(tokens) and tokens[index + 1][0][:1].isupper() and \
                tokens[index + 1][1] == end + 1 and tokens[index + 1][0].lower() not in _EN_STOP and \
                tokens[index + 1][0].lower().strip(".") not in _EN_CALENDAR and not low.endswith("s")
            last = index + 1 if name_after else index
            gender = lx.EN_PEOPLE[low] or _name_gender(tokens[last][0])
            _add(found, text[tokens[first][1]:tokens[last][2]], lx.PERSON, tokens[first][1], gender=gender,
                 plural=low in ("parents", "kids", "children", "grandparents", "twins"))
            for k in range(first, last + 1):
                used[k] = True
            continue
        if kind is None:
            continue
        after_subject = index > 0 and tokens[index - 1][0].lower() in _VERB_SLOT
        if (initial(index) or after_subject) and low in ("book", "order", "return", "call", "plan", "review", "file",
                                                         "show", "case", "switch", "lock", "record", "check", "set",
                                                         "play", "stream", "text", "park", "email", "ship"):
            continue  # "Book a table", "Order more paper": the imperative, not the noun
        if index + 1 < len(tokens) and tokens[index + 1][1] == end + 1 and (
                tokens[index + 1][0].lower() in _EN_AFTER_MODIFIER or (_en_head(tokens[index + 1][0]) and
                                                                       not tokens[index + 1][0][:1].isupper())):
            continue
        # Extend left over modifiers (capitalised names, numbers, plain nouns and adjectives).
        first = index
        while first > 0 and index - first < 4:
            prev, pstart, pend = tokens[first - 1]
            if used[first - 1] or text[pend:tokens[first][1]].strip() not in ("", "-"):
                break
            if prev.lower() in _EN_STOP and prev.lower() not in ("left", "right", "new", "old"):
                break
            if prev[:1].isupper() and initial(first - 1) and prev.lower() in _EN_STOP | {"next", "now"}:
                break
            first -= 1
        if first == index and low in ("case", "version", "model", "session", "review", "call", "order",
                                      "return", "plan", "form", "policy", "sheet", "game", "show", "track",
                                      "care", "center", "centre", "kitchen", "grill", "bar", "item", "items",
                                      "garage", "office", "house", "city", "town", "trip", "dinner", "lunch"):
            if not (index > 0 and tokens[index - 1][0].lower() in ("the", "my", "a", "an", "this", "that")):
                continue
        plural = low.endswith("s") and not low.endswith("ss") and _en_head(low) and low not in _EN_HEAD_TYPE
        plural = plural or low in ("lights", "blinds", "items", "cabins", "batteries")
        _add(found, text[tokens[first][1]:end], kind, tokens[first][1], plural=bool(plural))
        for k in range(first, index + 1):
            used[k] = True
    return found


_NOT_A_NAME_AFTER = re.compile(r"!|\s+(?!(?:is|was|has|had|will|would|can|could|does|did|are|were|opens|closes|offers|"
                               r"says|said|and|or|on|in|at)\b)[a-z]")
_PRICE_AFTER = re.compile(r"\s?(?:元|块|美元|dollars?\b|[%％])")
# After these a word like "book" or "order" is the verb ("Can you book it", "I'll order one").
_VERB_SLOT = {"you", "i", "we", "they", "to", "can", "could", "will", "would", "please", "let's", "lets", "don't",
              "should", "must", "i'll", "we'll", "you'll", "also", "then", "just", "and"}
_PERSON_CUES = ("with", "tell", "text", "call", "ask", "email", "meet", "invite", "to", "from")
_DINING = re.compile(r"\b(eat|ate|dinner|lunch|brunch|breakfast|restaurants?|table|reservation|menu|food|ramen|"
                     r"italian|chinese|thai|mexican|japanese|indian|korean|french|vegan|vegetarian|"
                     r"sushi|pizza|tacos?|burgers?|noodles?|coffee|drinks?|brunch|dessert|takeout|delivery)\b", re.I)
_TRAVEL = re.compile(r"\b(trip|travel|fly|flying|flight|visit|hotel|stay|vacation|moved?|drive|road|going)\b", re.I)
_LODGING = re.compile(r"\b(room|rooms|nights?|suite|check-?in|checkout|check-out|lobby)\b", re.I)
_EN_CALENDAR = set("""
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
january february march april may june july august september october november december jan feb mar apr jun jul aug
sep sept oct nov dec christmas thanksgiving easter halloween memorial labor independence
""".split())
_EN_PLACE_WORDS = {"st", "st.", "street", "ave", "avenue", "blvd", "road", "rd", "lane", "drive", "plaza", "square",
                   "park", "bay", "beach", "lake", "mountain", "valley", "island", "heights", "village"}
# Nouns that, right after a head noun, make it a modifier ("battery life", "phone number").
_EN_AFTER_MODIFIER = {"life", "level", "status", "settings", "size", "price", "number", "time", "mode", "case",
                      "cover", "label", "cable", "port", "screen", "app", "account", "password", "bill"}
_EN_COMMON = set("""
want need try would could should let's lets maybe good

sounds sure great nice perfect happy exciting wonderful sorry sent saved noted got done okay hmm well actually
also maybe first then finally hi hey welcome traffic both your it's i'm i'll let's don't that's there's here's
what's who's yeah yep nope good cool awesome thanks thank
""".split())


def _name_gender(word: str) -> str | None:
    low = re.sub(r"['’]s$", "", word.lower())
    if low in lx.EN_FEMALE_NAMES:
        return "f"
    if low in lx.EN_MALE_NAMES:
        return "m"
    return None


def _numbers(segment: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"\d+(?:[.,]\d+)?", segment)]


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


_SUB = re.compile(rf"(?:(?<![周第期统唯万之])一[{_CLASSIFIER}]是?|\bone\s(?:from|is|at|with|for|on|in|near)?|"
                  rf"\b(?:an?|the)\s(?=\d+(?:[:.]\d+)?\s?(?:am|pm|-?inch|gb|tb|mb|ml|kg|lb|oz|mm|cm|w|l)\b))\s*"
                  rf"(?P<body>[^，,。；;、和\n]{{1,14}}?)(?=[，,。；;、\n]|和|$|\s+(?:and|in|on|at|for|with|from|is|was)\s)")


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


# Nouns the lexicon does not know are still things when said as one: owned ("my treadmill"), got, bought,
# wanted or returned ("buying a kayak", "买了一台筋膜枪", "放了一个鱼缸"). They are typed by the classifier
# in zh and as `other` in en, weak either way; a known span over them wins.
_EN_HAVE = (r"(?:buy|buying|bought|got|get|getting|have|has|had|own|owns|ordered|order|want|wants|need|needs|"
            r"returned|return|returning|use|using|fix|fixing|broke|sold|rent|rented|borrowed|received|gave|give|"
            r"found|lost|picked up|set up|installed|assembled|cleaned|clean)")
_EN_GUESS = re.compile(rf"\b(?:(?:{_EN_HAVE})\s+(?:a|an|the|my|our|this|that|some)|my|our)\s+"
                       r"(?:new\s+|old\s+|little\s+|big\s+)?(?P<noun>[a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)", re.I)
_EN_GUESS_END = set("""for to with is was are were from in at on that which who and or but by of as has have had
will would can could should does did do just still keep need needs making makes made looks seems since last""".split())
_ZH_GUESS = re.compile(r"(?:买|入手|订|放|装|送|收到|拿到|换|租|借|养|挑|选|有)了?(?:一|两|几|个)?"
                       r"(?P<cl>[台部个款件条双把张套盒瓶支块盆只本辆])(?P<noun>[\u4e00-\u9fff]{2,5}|[A-Za-z][A-Za-z -]{1,24}[A-Za-z])")
_ZH_GUESS_TYPE = {"台": lx.DEVICE, "部": lx.DEVICE, "辆": lx.VEHICLE, "盆": lx.OTHER, "只": lx.OTHER, "个": lx.OTHER}


# "把 Q4 roadmap 发给张总": what 把 takes is a thing handled, whatever the word for it.
_ZH_BA = re.compile(r"把\s*(?P<noun>[^，,。？?！!\s它他她这那我你][^，,。？?！!]{1,20}?)\s*(?=发给|发到|转给|抄送|给|调到|调成|"
                    r"关掉|关了|打开|放到|放进|加到|加入|改成|改为|删掉|删了|移到|存到|设为|设成|打印|导出|拿)")


def _guessed_nouns(text: str) -> list[Mention]:
    found: list[Mention] = []
    for match in _ZH_BA.finditer(text):
        noun = match.group("noun").strip()
        if len(noun) >= 2:
            _add(found, noun, lx.OTHER, match.start("noun"), weak=True, guess=True)
    for match in _EN_GUESS.finditer(text):
        words = match.group("noun").split()
        while words and (words[-1].lower() in _EN_GUESS_END or words[-1].lower() in _EN_STOP):
            words.pop()
        if words and words[0].lower() in _EN_GUESS_END | _EN_STOP:
            continue
        if words and not (words[-1].endswith(("ly", "ing", "ed")) and len(words) == 1):
            _add(found, " ".join(words), lx.OTHER, match.start("noun"), weak=True, guess=True)
    for match in _ZH_GUESS.finditer(text):
        noun = match.group("noun").strip()
        if _han(noun[0]):
            cut = next((i for i, ch in enumerate(noun) if ch in _ZH_STOP), len(noun))
            noun = noun[:cut]
            if len(noun) < 2:
                continue
        _add(found, noun, _ZH_GUESS_TYPE.get(match.group("cl"), lx.PRODUCT), match.start("noun"), weak=True,
             guess=True)
    return found


def _learned_nouns(text: str, learned: dict[str, str]) -> list[Mention]:
    """A noun this session taught ("按摩椅" from "买一把按摩椅") found again, with its brand in front
    ("奥佳华按摩椅8999元")."""
    found: list[Mention] = []
    for noun, kind in learned.items():
        for match in _find_all(text, noun):
            start = match.start()
            if _han(noun[0]):
                start = _zh_extend_left(text, start, names=True)
            _add(found, text[start:match.end()], kind, start)
    return found


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
        suffix = text[mention.end:seg_end]
        mention.segment = (prefix + mention.name + suffix + (" " + nxt[0].name if nxt else "")).strip()
        attached = re.search(r"\d+(?:\.\d+)?\s*[A-Za-z%¥$元块]{0,3}\s*的?\s*$", prefix)
        mention.numbers = _numbers(suffix) or (_numbers(attached.group(0)) if attached else []) or _numbers(mention.name)
        mention.clause = text[low:high]
        if role == "assistant":
            before = text[low:mention.start]
            if any(verb in before[-8:] for verb in _ACTION_ZH) or _ACTION_EN.search(before[-30:]) or \
                    re.match(r"\s*(is starting|is playing|has been)", text[mention.end:]):
                mention.acted = True
    return kept
