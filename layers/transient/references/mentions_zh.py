"""zh mentions: 《书名号》 titles and file names; order, ticket, train and flight codes; head nouns with
their room, owner, brand, spec or name in front ("客厅的灯", "卧室空调", "他的猫", "小米24寸行李箱",
"三亚亚特兰蒂斯酒店"); kinship words, surname + title and 小/阿 names."""
from __future__ import annotations

import re

from layers.transient.references import lexicon as lx
from layers.transient.references.mention import Mention, _add, _find_all, _han

HAN = r"\u4e00-\u9fff"


# Characters a zh name never runs over when it is extended to the left of its head noun.
_ZH_STOP = set("的了在去到住是吃喝那这个家我你他她它们和与跟及有查找订想要把给让从往再还也都就很最好帮看买点"
               "一两二三几些每叫说对被向比用为边过着呢吗吧啊呀哦嗯天已")


# One-character heads that compound freely with what is in front ("帆布鞋", "皮鞋", "双肩包").
_ZH_COMPOUNDING = ("鞋", "包")
_ZH_NOT_PLACES = {"家里", "家", "网上", "这里", "那里", "哪里", "哪儿", "外面", "路上", "楼下", "楼上", "手机上", "App上", "app上"}
_ONE_CHAR_KIND = {head: kind for kind, heads in lx.ZH_HEADS.items() for head in heads if len(head) == 1}


_ZH_VERBS = "带上拿放穿背用换洗修找要退寄送收装卖"


_ZH_STOP_WORDS = ("或者", "或是", "还是", "还有", "以及", "推荐", "什么", "哪些", "哪家", "哪个", "上次", "刚才", "今天", "明天", "昨天", "附近", "最近", "周末", "今年", "去年", "这次", "上午", "下午",
                  "中午", "晚上", "早上", "上周", "下周", "上个月", "下个月", "以前", "之前", "后来", "里面", "前面")


_REDUP_STOP = set("常天刚慢好谢哈渐偷轻看试想问走等爸妈哥姐弟妹宝星人样个点些多")


_CLASSIFIER = "个件双台盏本位只条份张款辆套部把瓶盒支块版笔家"


_NUM_WORD = {"两": 2, "二": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "几": 3}


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
                if kind == lx.VEHICLE and start < match.start():
                    # "北京到青岛高铁": the places are places, not part of the train's name.
                    places = [text.rfind(n, start, match.start()) + len(n) for n in lx.ZH_NAMES
                              if text.rfind(n, start, match.start()) >= 0]
                    start = max([start, *places])
                if kind in (lx.DEVICE, lx.PRODUCT):
                    start = _zh_brand_left(text, start)
                end = match.end()
                model = re.match(r"[A-Za-z0-9\-]+", text[end:])
                after_model = text[end + model.end():end + model.end() + 2] if model else ""
                if model and (re.match(r"[:：点度%元块号寸斤克升岁个]|公斤|[.．]\d", after_model or " ")):
                    model = None
                if model:
                    end += model.end()
                if len(head) == 1 and _ONE_CHAR_KIND.get(text[end:end + 1], kind) != kind:
                    continue
                if len(head) == 1 and kind == lx.PLACE and text[end:end + 1] in "路街道巷桥站口":
                    continue  # "中山路", "宝山站": a street or a station named after it, no mountain  # "登山包", "门灯": the head is the next character, this one only says what kind
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
                if start < match.start() and text[start] in _CLASSIFIER and text[start - 1:start] in "一每这那":
                    start += 1  # "写一份会议纪要": the classifier counts it, it is not part of the name
                count = re.search(rf"([两二三四五几俩])[{_CLASSIFIER}]$", text[:start])
                plural = bool(count)
                if count:
                    start = count.start()
                _add(found, text[start:end], kind, start, plural=plural)
    for name, kind in lx.ZH_NAMES.items():
        for match in _find_all(text, name):
            _add(found, name, kind, match.start())
    for match in re.finditer(rf"(?:在|去)\s*([{HAN}]{{2,5}}?|[{HAN}]{{2,4}}的[{HAN}]{{2,6}}|[A-Z][\w'&]*(?:\s[A-Z][\w'&]*){{0,3}})"
                             rf"\s*(?:吃|喝)", text):
        if match.group(1)[:2] not in _ZH_STOP_WORDS and match.group(1) not in ("哪儿", "哪里", "外面", "家里"):
            # "在南京西路吃的那家": a street or a square is where, the restaurant is the one eaten at there
            street = re.search(r"[路街道巷]$|广场$|大道$", match.group(1))
            _add(found, match.group(1), lx.PLACE if street else lx.RESTAURANT, match.start(1))
    # "在万象城的优衣库买了件外套", "在Costco买的": where something was bought, seen or done is a place.
    for match in re.finditer(rf"在\s*([{HAN}A-Za-z][{HAN}A-Za-z0-9 '&的]{{1,12}}?)\s*(?:买|逛|看的|剪|修|办|做的|拍的|玩|订|点)", text):
        place = match.group(1).strip()
        if place[:2] not in _ZH_STOP_WORDS and place not in _ZH_NOT_PLACES and not place.endswith("的"):
            _add(found, place, lx.PLACE, match.start(1) + match.group(1).find(place))
    # "上周我们去的是陶陶居", "吃的是太二": the name of where one went (the answer to "上次那家").
    for match in re.finditer(rf"(?:去的是|吃的是|住的是|去的那家是)([{HAN}]{{2,5}}?)(?=[，,。.！!？?；;]|$|吧|啊)", text):
        _add(found, match.group(1), lx.RESTAURANT if "吃" in match.group(0) else lx.PLACE, match.start(1))
    # "国庆我们去了黄山", "爬过泰山": a mountain, lake or island gone to (a one-character head otherwise needs a
    # modifier: "小岛", "出门").
    for match in re.finditer(rf"(?:去了|去过|到了|到过|爬了|爬过|游了|游过|逛了|住在)([{HAN}]{{1,3}}[山岛湖寺镇村])", text):
        _add(found, match.group(1), lx.PLACE, match.start(1))
    # People.
    for word, gender in lx.ZH_PEOPLE.items():
        for match in _find_all(text, word):
            start = match.start()
            if text[:start].endswith("我") and not word.startswith("我"):
                start -= 1
            _add(found, text[start:match.end()], lx.PERSON, start, gender=gender,
                 plural=word in ("父母", "爸妈", "家人", "孩子们"))
    # "我儿子小宇", "女儿朵朵", "我老婆王丽": a kinship word and the given name after it are one person.
    surnames = "".join(sorted(lx.ZH_SURNAMES))
    for match in re.finditer(rf"(?:我)?(?P<kin>{'|'.join(sorted((w for w in lx.ZH_PEOPLE if lx.ZH_PEOPLE[w]), key=len, reverse=True))})"
                             rf"(?P<name>[小阿][{HAN}]|([{HAN}])\3|[{surnames}][{HAN}])", text):
        if match.group("name")[-1] in _ZH_STOP or match.group("name")[-1] in "说和跟":
            continue
        _add(found, match.group(0), lx.PERSON, match.start(), gender=lx.ZH_PEOPLE[match.group("kin")])
    if any(word in text for word in lx.ZH_PEOPLE):
        # "两个侄子，大的叫小宇，小的叫小航": names given to people just mentioned.
        for match in re.finditer(rf"叫([小阿老]?[{HAN}]{{1,2}})(?=[，,。；;、和]|$)", text):
            _add(found, match.group(1), lx.PERSON, match.start(1))
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
