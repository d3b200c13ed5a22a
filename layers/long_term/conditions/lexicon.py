"""What conditional preferences talk about, in zh and en: the preference topics (a memory key, the values it
takes and the words that say each value), and the condition dimensions (destination, audio channel, dish,
time of day, weather) with the words that name each of their values.

One lexicon serves three readers (layers/long_term/conditions/): the statement parser ("avoid highways unless
I'm going to the airport"), the matcher that decides whether a stored condition holds for a request ("navigate
to the airport"), and the conflict reader that hears a request asking for another value ("play it loud").
Patterns are families of wording, not single sentences: a negated form sits beside its positive one and the
reader keeps the longest match, so "不走高速" is `avoid` although it holds "走高速".
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_HWY = r"(?:highways?|motorways?|freeways?|expressways?|toll\s+roads?)"


@dataclass(frozen=True)
class Topic:
    memory_key: str
    # value -> regular expressions (case-insensitive) that say it
    values: dict[str, tuple[str, ...]]
    # value -> the value an "unless"/"except" branch takes when it names none
    opposites: dict[str, str]
    # words that make a request about this topic even when no value is said ("navigate to …")
    domain: tuple[str, ...]
    # dimensions that qualify the topic inside one clause ("music volume", "导航的声音")
    facets: tuple[str, ...] = ()
    # value -> patterns heard only when the text also says one of `anchor` (layers/long_term/conditions/reading.py)
    anchored: dict[str, tuple[str, ...]] | None = None
    anchor: tuple[str, ...] = ()
    # how a variant reads as content: value -> (en, zh); {when} is the condition in words
    render: dict[str, tuple[str, str]] | None = None


TOPICS: tuple[Topic, ...] = (
    Topic(
        "user.preference.route.highways",
        values={
            "avoid": (rf"\b(?:avoid(?:ing)?|no|skip|stay(?:ing)?\s+(?:off|away\s+from)|keep(?:ing)?\s+(?:(?:me|us)\s+)?off"
                      rf"|steer(?:ing)?\s+clear\s+of|without|hate|dislike)\s+(?:the\s+)?{_HWY}",
                      rf"\b(?:don'?t|do\s+not|never|not)\s+(?:take|use|go\s+on|get\s+on|want|like)\s+(?:the\s+|any\s+)?{_HWY}",
                      rf"\b{_HWY}\s+(?:are\s+)?(?:off|out)\b",
                      r"(?:不|别|不要|不想|避开|避免|绕开|躲开|不喜欢)(?:走|上|开)?高速", r"高速(?:就)?(?:别|不要|不)走"),
            "allowed": (rf"\b(?:take|use|via|prefer|go\s+on|get\s+on|on)\s+(?:the\s+)?{_HWY}",
                        rf"\b{_HWY}\s+(?:are|is)\s+(?:fine|ok(?:ay)?|allowed)", rf"\b(?:allow|fine\s+with)\s+{_HWY}",
                        r"(?:走|上)高速", r"高速(?:也)?(?:可以|没问题|没关系|行)"),
        },
        opposites={"avoid": "allowed", "allowed": "avoid"},
        domain=(r"\bnavigat", r"\broute\b", r"\bdriv(?:e|ing)\b", r"\bdirections?\b", r"\btake\s+me\b",
                r"\bget\s+me\s+(?:to|there)\b", r"\bhead(?:ing)?\s+to\b", r"\bway\s+to\b", r"\bhow\s+do\s+i\s+get\s+to\b",
                r"导航", r"路线", r"开车", r"带我去", r"送我去", r"开到", r"开去", r"怎么走", r"怎么去"),
        render={"avoid": ("avoid highways", "不走高速"), "allowed": ("highways are fine", "可以走高速")},
    ),
    Topic(
        "user.preference.volume",
        values={
            "low": (r"\b(?:quiet(?:ly)?|soft(?:ly)?|not\s+(?:too\s+)?loud)\b", r"(?:小声|轻声|低音量|音量低|声音小|小音量)"),
            "high": (r"\b(?:loud(?:er|ly)?|blast)\b", r"(?:大声|响一?点|音量大|声音大|大音量)"),
            "medium": (r"(?:适中|正常音量)",),
        },
        # words that say a level only where the text is about sound ("low" alone could be a price)
        anchored={
            "low": (r"\b(?:low|lower|turn(?:ed)?\s+(?:it\s+)?down|down\s+low)\b", r"(?:调小|调低|低一?点|小一?点|轻一?点|别太大|不要太大)"),
            "high": (r"\b(?:high|higher|turn(?:ed)?\s+(?:it\s+)?up|crank|max(?:imum)?)\b",
                     r"(?:调大|调高|大一?点|高一?点|最大)"),
            "medium": (r"\b(?:medium|moderate|normal)\b", r"(?:中等)"),
        },
        anchor=(r"\bvolume\b", r"\bsound\b", r"\bvoice\b", r"\bmusic\b", r"\bsongs?\b", r"\bplay",
                r"\bnavigation\b", r"\bringtone\b", r"音量", r"声音", r"播放", r"音乐", r"歌", r"导航", r"播报", r"铃声"),
        opposites={"low": "high", "high": "low", "medium": "low"},
        domain=(r"\bvolume\b", r"\bplay\b", r"\bmusic\b", r"\bsongs?\b", r"\bsound\b", r"\bvoice\b",
                r"音量", r"声音", r"播放", r"放(?:首|点|一?首)", r"音乐", r"歌"),
        facets=("audio",),
        render={"low": ("volume low", "音量低"), "high": ("volume high", "音量大"),
                "medium": ("volume medium", "音量适中")},
    ),
    Topic(
        "user.preference.sort.price",
        values={
            "ascending": (r"\b(?:low(?:est)?\s+to\s+high(?:est)?|cheap(?:est)?\s+(?:ones?\s+)?first|ascending|price\s+up)\b",
                          r"(?:从低到高|由低到高|升序|便宜的(?:在)?(?:前|先)|先看便宜)"),
            "descending": (r"\b(?:high(?:est)?\s+to\s+low(?:est)?|(?:most\s+)?expensive\s+(?:ones?\s+)?first|descending|price\s+down)\b",
                           r"(?:从高到低|由高到低|降序|贵的(?:在)?(?:前|先)|先看贵)"),
        },
        opposites={"ascending": "descending", "descending": "ascending"},
        domain=(r"\bsort", r"\border\s+by\b", r"\bprice", r"\brank", r"排序", r"排", r"价格"),
        render={"ascending": ("sort by price, low to high", "价格从低到高排序"),
                "descending": ("sort by price, high to low", "价格从高到低排序")},
    ),
    Topic(
        "user.preference.spice",
        values={
            "none": (r"\b(?:no|not|nothing|non)[\s-]+spicy\b", r"\b(?:no|without)\s+(?:chil[il]i|spice)\b",
                     r"\b(?:don'?t|do\s+not|can'?t|never)\s+(?:eat|like|want|do|handle)\s+(?:anything\s+)?spic(?:y|e)",
                     r"(?:不要|不吃|别放|不放|不能吃|免|不加|别加|不)辣"),
            "mild": (r"\b(?:mild(?:ly)?(?:\s+spicy)?|a\s+(?:little|bit)\s+(?:of\s+)?spic(?:y|e)|slightly\s+spicy)\b",
                     r"(?:微辣|小辣|一点点?辣|少辣|稍微辣)"),
            "hot": (r"\b(?:extra|very|super|really)\s+spicy\b", r"\b(?:hot|spicy)\s+as\s+possible\b",
                    r"(?:特辣|重辣|变态辣|超辣|多放辣|多加辣|特别辣|要辣|加辣|麻辣)"),
        },
        opposites={"none": "mild", "mild": "none", "hot": "none"},
        domain=(r"\beat\b", r"\bfood\b", r"\border\b", r"\bdinner\b", r"\blunch\b", r"\bmeal\b", r"\bspic",
                r"\brestaurant", r"吃", r"点(?:个|份|菜|餐)", r"外卖", r"餐", r"菜", r"辣"),
        render={"none": ("no spicy food", "不要辣"), "mild": ("mildly spicy", "可以微辣"),
                "hot": ("extra spicy", "要特辣")},
    ),
)
TOPIC_BY_KEY = {topic.memory_key: topic for topic in TOPICS}


def topic_key(memory_key: str) -> str:
    """The lexicon's key for a stored key: a client may write `preference.volume` for `user.preference.volume`."""
    return memory_key if memory_key in TOPIC_BY_KEY or memory_key.startswith("user.") else f"user.{memory_key}"

# dimension -> canonical value -> words that name it (zh and en)
DIMENSIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "destination": {
        "airport": (r"\bairports?\b", r"\bflights?\b", r"\bterminal\b", r"机场", r"航站楼", r"赶飞机"),
        "office": (r"\boffice\b", r"\bwork(?:place)?\b", r"\bcompany\b", r"公司", r"单位", r"上班"),
        "home": (r"\bhome\b", r"\bmy\s+house\b", r"回家", r"家里"),
        "school": (r"\bschool\b", r"学校", r"接孩子", r"送孩子"),
        "station": (r"\b(?:train|railway)\s+station\b", r"火车站", r"高铁站"),
        "hospital": (r"\bhospital\b", r"医院"),
    },
    "audio": {
        "music": (r"\bmusic\b", r"\bsongs?\b", r"\bplaylist\b", r"\bjazz\b", r"\bradio\b", r"\bpodcasts?\b",
                  r"音乐", r"歌", r"电台", r"播客"),
        "navigation": (r"\bnavigation\b", r"\bdirections?\b", r"\bvoice\s+guidance\b", r"\bturn[\s-]by[\s-]turn\b",
                       r"导航", r"语音播报", r"播报"),
        "call": (r"\b(?:phone\s+)?calls?\b", r"\bringtone\b", r"电话", r"通话", r"铃声"),
    },
    "dish": {
        "hotpot": (r"\bhot\s?pot\b", r"火锅"),
        "bbq": (r"\bbbq\b", r"\bbarbecue\b", r"烧烤", r"烤串"),
        "sichuan": (r"\bsichuan\b", r"\bszechuan\b", r"川菜"),
        "noodles": (r"\bnoodles?\b", r"面条", r"拉面", r"米线"),
    },
    "time": {
        "night": (r"\bnight\b", r"\blate\b", r"\bevening\b", r"晚上", r"夜里", r"深夜", r"半夜"),
        "morning": (r"\bmorning\b", r"早上", r"上午", r"早晨"),
        "weekend": (r"\bweekends?\b", r"周末"),
    },
    "weather": {
        "rain": (r"\brain(?:s|y|ing)?\b", r"下雨", r"雨天"),
        "snow": (r"\bsnow(?:s|y|ing)?\b", r"下雪", r"雪天"),
    },
    "category": {
        "hotel": (r"\bhotels?\b", r"酒店", r"宾馆", r"民宿"),
        "electronics": (r"\belectronics\b", r"\bgadgets?\b", r"数码", r"电子产品"),
        "clothes": (r"\bclothes\b", r"\bclothing\b", r"衣服", r"服装"),
    },
    "company": {
        "kids": (r"\bkids?\b", r"\bchildren\b", r"\bbaby\b", r"孩子", r"小孩", r"宝宝"),
        "guests": (r"\bguests?\b", r"\bfriends?\s+over\b", r"客人", r"朋友来"),
    },
}


def _compile(patterns) -> re.Pattern:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


TOPIC_VALUE_PATTERNS = {topic.memory_key: {value: _compile(pats) for value, pats in topic.values.items()}
                        for topic in TOPICS}
TOPIC_ANCHORED_PATTERNS = {topic.memory_key: {value: _compile(pats) for value, pats in topic.anchored.items()}
                           for topic in TOPICS if topic.anchored}
TOPIC_ANCHOR_PATTERNS = {topic.memory_key: _compile(topic.anchor) for topic in TOPICS if topic.anchor}
TOPIC_DOMAIN_PATTERNS = {topic.memory_key: _compile(topic.domain) for topic in TOPICS}
DIMENSION_PATTERNS = {dim: {value: _compile(pats) for value, pats in values.items()}
                      for dim, values in DIMENSIONS.items()}


def words_pattern(value: str) -> re.Pattern:
    """How a dimension value that the lexicon does not know is heard: its own words (a Latin word on word
    boundaries, CJK as a substring)."""
    escaped = re.escape(value.strip())
    if re.search(r"[A-Za-z0-9]", value):
        return re.compile(rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])", re.IGNORECASE)
    return re.compile(escaped)


def value_pattern(dimension: str, value: str) -> re.Pattern:
    """The words that name `value` of `dimension`: the lexicon's family when it knows the value (by its
    canonical name or any word of it, so "机场" and "airport" are one value), else the value's own words."""
    known = DIMENSION_PATTERNS.get(dimension, {})
    if value in known:
        return known[value]
    for canonical, pattern in known.items():
        if pattern.fullmatch(value.strip()):
            return known[canonical]
    return words_pattern(value)


def canonical_value(dimension: str, value: str) -> str:
    """A value as stored: the lexicon's canonical name when the words are one of its values ("机场" → airport)."""
    value = value.strip()
    for canonical, pattern in DIMENSION_PATTERNS.get(dimension, {}).items():
        if value.casefold() == canonical or pattern.fullmatch(value):
            return canonical
    return value


# Topics a preference is commonly about that have no value lexicon above: the nouns that name each (taken off
# its values: "Aisle seat" → aisle), values that say it by themselves ("靠窗", "地铁") and what makes a request
# about it although it names neither ("book the flight" is about seats). Conditional statements about them are read by their frame
# (layers/long_term/conditions/frames.py); a key outside this table is named after the statement's own noun.
GENERIC_TOPICS: dict[str, dict[str, tuple[str, ...]]] = {
    "seat": {"names": (r"\bseats?\b", r"座位", r"座"),
             "values": (r"\bwindow\b", r"\baisle\b", r"靠窗", r"过道"),
             "domain": (r"\bflights?\b", r"\btrains?\b", r"\bplane\b", r"\bfly(?:ing)?\b", r"\btickets?\b", r"航班",
                        r"机票", r"高铁", r"火车", r"动车", r"飞机", r"车票")},
    "temperature": {"names": (r"\btemperature\b", r"\bthermostat\b", r"\b(?:ac|a/c)\b", r"\bair\s*con(?:ditioning)?\b",
                              r"\bheating\b", r"空调", r"温度", r"暖气"),
                    "values": (r"\d+\s*(?:degrees|°)", r"\d+\s*度"),
                    "domain": (r"\bdegrees?\b", r"\bwarm(?:er)?\b", r"\bcool(?:er)?\b", r"制冷", r"制热")},
    "lighting": {"names": (r"\blight(?:s|ing)?\b", r"\blamps?\b", r"灯光", r"灯"),
                 "values": (r"\bwarm\s+white\b", r"暖光", r"白光", r"冷光"),
                 "domain": (r"\bbright(?:ness)?\b", r"\bdim\b", r"亮度", r"台灯")},
    "meeting_room": {"names": (r"\b(?:meeting|conference)\s+rooms?\b", r"会议室"), "values": (),
                     "domain": (r"\bbook\s+a\s+room\b", r"\bmeeting\b", r"\b1:1s?\b", r"\bdemo\b", r"开会", r"会议")},
    "coffee": {"names": (r"\bcoffee\b", r"咖啡"),
               "values": (r"\blatte\b", r"\bamericano\b", r"\bflat\s+white\b", r"\bespresso\b", r"\bdecaf\b",
                          r"\bcappuccino\b", r"美式", r"拿铁"), "domain": ()},
    "reply_language": {"names": (r"\b(?:reply|replies|answer|respond)\s+in\b", r"\blanguage\b", r"用(?:中文|英文|英语)回",
                                 r"回复语言"), "values": (),
                       "domain": (r"\bwrite\b", r"\breply\b", r"\bemail\b", r"\bletter\b", r"\btranslate\b", r"写",
                                  r"回复", r"邮件", r"翻译")},
    "notifications": {"names": (r"\bnotifications?\b", r"\bpush(?:es)?\b", r"\balerts?\b", r"通知", r"推送"), "values": (),
                      "domain": (r"\bnotify\b", r"\bremind\b", r"提醒", r"消息")},
    "payment": {"names": (r"\bpay(?:ment|ing)?\b", r"付款", r"支付", r"付钱"),
                "values": (r"\balipay\b", r"\bwechat\s+pay\b", r"\bcredit\s+card\b", r"支付宝", r"微信支付", r"信用卡"),
                "domain": (r"\bbill\b", r"\bcheckout\b", r"\bcard\b", r"\bwechat\b", r"买单", r"结账", r"刷卡", r"缴费",
                           r"交费")},
    "transport": {"names": (r"\bdirections\b", r"\broute\b", r"\bget(?:ting)?\s+around\b", r"出行", r"通勤"),
                  "values": (r"\bbus\b", r"\bsubway\b", r"\bmetro\b", r"\btaxi\b", r"\bbike\b", r"\bwalk(?:ing)?\b",
                             r"骑车", r"地铁", r"公交", r"打车", r"叫车", r"步行", r"走路"),
                  "domain": (r"\bget\s+me\s+to\b", r"\btake\s+me\s+to\b", r"\bhow\s+do\s+i\s+get\b", r"怎么去",
                             r"送我去")},
    "hotel_floor": {"names": (r"\bfloors?\b", r"楼层"), "values": (),
                    "domain": (r"\bhotels?\b", r"\broom\b", r"酒店", r"宾馆", r"订房")},
    "delivery": {"names": (r"\bdeliver(?:y|ies)?\b", r"外卖", r"快递", r"配送"), "values": (r"放门口", r"送上楼"),
                 "domain": (r"\bparcel\b", r"\bpackage\b", r"\btakeout\b", r"\bdoor(?:step)?\b", r"送到")},
}
# slug -> the topic's nouns (taken off values) / what names the topic in a statement / what a request about it says
GENERIC_TOPIC_NAMES = {slug: _compile(words["names"]) for slug, words in GENERIC_TOPICS.items()}
GENERIC_TOPIC_SAID = {slug: _compile(words["names"] + words["values"]) for slug, words in GENERIC_TOPICS.items()}
GENERIC_TOPIC_DOMAINS = {slug: _compile(words["names"] + words["values"] + words["domain"])
                         for slug, words in GENERIC_TOPICS.items()}

# What a condition the lexicon does not know is about, for the dimension's name (its value is its own words).
GENERIC_CONDITION_KINDS: tuple[tuple[str, re.Pattern], ...] = tuple((name, _compile(patterns)) for name, patterns in (
    ("trip", (r"\blong[\s-]haul\b", r"\bshort[\s-]haul\b", r"\bdomestic\b", r"\binternational\b", r"长途", r"短途")),
    ("purpose", (r"\bbusiness\b", r"\bwork\s+trips?\b", r"出差", r"公务")),
    ("location", (r"\babroad\b", r"\boverseas\b", r"出国", r"国外", r"境外")),
    ("companion", (r"\bwith\s+(?:my\s+|the\s+)?(?:kids?|children|family|baby)\b", r"带孩子", r"带娃", r"带宝宝",
                   r"孩子")),
    ("guests", (r"\bguests?\b", r"\bvisitors?\b", r"\bclients?\b", r"老人", r"客人", r"朋友来")),
    ("attendees", (r"\bpeople\b", r"\bpersons?\b", r"\battendees\b", r"\d+\s*个?人")),
    ("season", (r"\bwinter\b", r"\bsummer\b", r"\bspring\b", r"\bautumn\b", r"\bfall\b", r"冬天", r"夏天", r"春天",
                r"秋天")),
    ("distance", (r"\bkm\b", r"\bmiles?\b", r"\bkilomet", r"公里", r"千米", r"远")),
    ("duration", (r"\bminutes?\b", r"\bhours?\b", r"分钟", r"小时")),
    ("time", (r"\d\s*(?:am|pm)\b", r"\b(?:after|before)\s+\d", r"\bmorning\b", r"\bevening\b", r"\bnight\b", r"点",
              r"早上", r"晚上", r"以后", r"之前")),
    ("input_language", (r"\bin\s+(?:chinese|english|japanese|french|spanish|german)\b", r"用中文", r"用英文", r"说中文")),
    ("activity", (r"\breading\b", r"\bworkout\b", r"\bexercis", r"\bsleep", r"\bwork(?:ing)?\b", r"读书", r"看书", r"运动",
                  r"睡觉", r"工作")),
))

# Languages by name, stored as their codes (a reply language, the language a request is written in).
LANGUAGE_CODES = {"english": "en", "chinese": "zh", "mandarin": "zh", "japanese": "ja", "korean": "ko", "french": "fr",
                  "spanish": "es", "german": "de", "中文": "zh", "汉语": "zh", "英文": "en", "英语": "en", "日语": "ja"}
