"""Habits: recurring activities with their time, weekdays and frequency."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_zh.common import _ADV, _OBJ, _c, _object, _zc
from layers.formation.extractor.rules_zh.family import _PEOPLE_ZH_ALT
from layers.formation.extractor.rules_zh.location import _CITY_ALT
from layers.formation.extractor.rules_zh.pos import tags
from layers.formation.extractor.text import is_past_state
from layers.formation.extractor.rules_zh.subject import zh_user_said
from layers.formation.extractor.text import tidy_value

# "一周去三次健身房": the count said after the verb still belongs to the frequency.
_SPLIT_FREQ = re.compile(r"(?P<p>一周|每周|一个月|每个?月|一天|每天)(?P<verb>[去跑游打上练做喝吃]?)(?P<n>[一两二三四五六七八九十\d]+次)")


_ZH_DAY_WORD = re.compile(r"每?个?(?:周|星期|礼拜)[一二三四五六日天末]|工作日")


def zh_habit_candidates(clause: str, context: str | None = None) -> list[Candidate]:
    # "我跟我roommate Jason每周六一起去gym": 一起 says with whom, never a weekday (每周六一起 is no Monday).
    together = "一起" in clause
    clause = clause.replace("一起", "")
    split = _SPLIT_FREQ.search(clause)
    if split and split.group("verb"):
        clause = clause.replace(split.group(), split.group("p") + split.group("n") + split.group("verb"), 1)
    freq = A.frequency(clause)
    days = A.weekdays(clause)
    # (a bare 常 as in "下班后常去打篮球", not 非常 / 日常 / 正常; "早上起来先冥想": what comes first on rising)
    # "提醒的话一天汇总一次就行": what will do is an arrangement asked for, not a routine.
    if re.search(r"就(?:行|好|可以)(?:了|啦|哈)?$", clause):
        return []
    habitual = re.search(r"都是(?=[\u4e00-\u9fff])|习惯|第一件事|头一件事|经常|常常|(?<![经日非正通时平无反异])常(?=去|来|在|跟|和|约|打|玩|看|喝|吃)|一般|通常|平时|总是|雷打不动|坚持|固定|定期|按时|准时|"
                         r"(?:起来|起床)(?:后|以后)?(?:就|先)|每|天天|都会|都要|都去|喜欢", context or clause) or (
        # "周末去gym", "周二周四晚上打球": a bare weekend or weekdays (not 这周末 / 下周二) recur.
        (bare := re.match(r"^(?:我)?(?:一般)?(?:周末|工作日|周[一二三四五六日](?:周[一二三四五六日]|[、和到至][周]?[一二三四五六日])+)", clause))
        and not A.zh_date(clause[bare.end():])
        # an activity verb right after: "周末要陪我妈去医院", "周末别找我" are this weekend's plan or a request
        # ("周末去了上海" is one weekend that is over)
        and re.match(r"(?:早上|晚上|上午|下午|中午)?(?:都|就|常|经常|基本)?(?:去|在|练|打|跑|游|上|看|学|逛|爬|骑|踢|约|泡|遛)(?![了过])", clause[bare.end():])) or (
        # "我晚上睡前会刷一会儿手机": 会 with a time of day and no date is a habit, not a plan
        re.search(r"会(?=[\u4e00-\u9fff])", clause) and not A.zh_date(clause))
    # "工作日早上七点出门": several days and a time recur without a marker.
    recurring_days = days and (len(days) > 1 or re.search(r"每|逢", clause)) and A.time_of_day(clause)
    if not (freq or (days and habitual) or (habitual and A.time_of_day(clause)) or recurring_days):
        return []
    # "明天晚上准时到": one dated occasion with no frequency is a plan's business, not a routine.
    if not freq and re.search(r"明天|今天|后天|今晚|明晚|昨天|前天|下周|下个?月|这周|本周|下礼拜|下星期", clause):
        return []
    # Whoever comes before the first word of time or frequency does it: "公司每周一早上开例会",
    # "超市每周三打折", "狗狗每天都需要遛两次" are not the user's routine; "我每天…" and "每天…" are.
    first = min((m.start() for m in (A.ZH_FREQ.search(clause), A.ZH_TIME.search(clause), _ZH_DAY_WORD.search(clause),
                                      re.search(r"习惯|一般|通常|平时|总是", clause)) if m), default=0)
    # "羽毛球每周上两次课", "吉他一周练三次": an activity named first, then how often the user has it.
    topic = re.match(r"^(?P<t>[\u4e00-\u9fffA-Za-z]{2,6}?)(?=(?:每周|一周|每个?月|每天|一天)[^，,。]{0,4}?(?:上[一两二三四五六七\d]*次?课|练|训练|上课))", clause)
    # (jieba reads some instruments as places: 吉他 is ns; a city is never the activity)
    if topic and all(flag.startswith(("n", "vn")) and flag not in ("nr", "nt") for _, flag in tags(topic.group("t"))) \
            and not re.fullmatch(_CITY_ALT, topic.group("t")):
        clause = clause[topic.end():] + "，" + topic.group("t")
        first = 0
        course = topic.group("t")
    else:
        course = None
    # "我跟我roommate Jason每周六一起去gym", "我们每周六去爬山": what the user does with others is theirs too
    # (but 我 opening the clause is the user only on its own: "我们楼下那个大爷天天…", "我家狗每天…" are someone else's).
    shared = together or re.match(rf"^我们(?:全家|一家|俩)?(?=每|周|星期|礼拜|天天|平时|一般|通常|经常)|^我(?:和|跟)(?:我的?)?(?:{_PEOPLE_ZH_ALT})", clause) is not None
    if not zh_user_said(clause, first, allow_we=shared) and not re.match(r"^(?:我(?!们|的|家)|每|周|星期|礼拜|早上|晚上|中午|下午|平时|一般|通常)", clause):
        return []
    # "以前每天早上都喝咖啡": a routine of the past.
    if is_past_state(clause):
        return []
    time = A.time_of_day(clause)
    # "每个月月底都要去看一次外婆": the part of the month (or year) it falls in is its time.
    part_of = re.search(r"月底|月初|月中|年底|年初", clause) if freq and re.search(r"月|年", freq) else None
    if part_of and time is None:
        time = part_of.group()
        # "每个月初": the 月 is also the frequency's, and stays for it.
        shared = re.search(r"每个?$", clause[:part_of.start()]) is not None
        clause = clause[:part_of.start() + (1 if shared else 0)] + clause[part_of.end():]
    if time == "一点" and not re.search(r"一点(?:钟|半|左右|前|后|以后|之前)", clause):
        time = None  # "会说英语、日语和一点韩语": a bit, not one o'clock
    if time is None and not freq and not days:
        return []
    # "晚上睡前", "早上七点": times of day said one after another are one time.
    joined = re.search(rf"(?:{A.ZH_TIME.pattern}){{2,}}", clause)
    if joined and time and time in joined.group():
        time = joined.group()
    clause = re.sub(r"一?会儿", "", clause)  # "刷一会儿手机": a while is no part of the activity
    # "中午12点到1点才有空": a span of time goes whole, its 到 with it.
    clause = re.sub(rf"(?:{A.ZH_TIME.pattern})[到至-](?:{A.ZH_TIME.pattern})", lambda t: t.group().split("到")[0].split("至")[0], clause)
    body = re.sub(r"每?(?:周|星期|礼拜)[一二三四五六日天](?![次天回趟遍])(?:[到至-](?:周|星期|礼拜)?[一二三四五六日天])?[一二三四五六日天、和]*|每?个?(?:周末|工作日)", "", clause)
    for pattern in (A.ZH_FREQ, A.ZH_TIME):
        # "喝下午茶", "吃夜宵": a time of day inside a noun stays.
        # "睡到中午", "加班到十点": the time a verb goes on to is part of the activity.
        body = pattern.sub(lambda t: t.group() if re.match(r"茶|饭|餐|班", body[t.end():t.end() + 1]) or body[t.start() - 1:t.start()] == "到" else "", body)
    body = re.sub(r"^(?:我|本人)|(?:(?:非常|特别|很|超|挺)?喜欢|(?:起来|起床)(?:后|以后)?(?:就|先)|(?<![经日非正通时平无反异])常(?=去|来|在|跟|和|约|打|玩|看|喝|吃)|习惯|一般|通常|平时|总是|经常|常常|雷打不动|固定|定期|按时|都会|都要|(?<![成首京帝古])都(?![市城])|(?<![开聚约晚舞社学机大工协例体理])会(?![计议员所场谈面])|准时|已经?坚持了?[一二三四五六七八九十\d几半]+(?:天|年|个月|周|星期)了?|坚持|一次|的|喜欢)", "", body)
    body = re.sub(r"^\s*(?:(?:我|和朋友|跟朋友|去一家|去|都|会|都会|都是|是|每天|早上|晚上|现在|目前|基本上?|差不多|大概|还|也|就|usually|normally|always)\s*)+", "", body)
    body = re.split(r"[，,。!！?？~～]", body)[0]
    # "自从辞职以后每天都睡到自然醒": since when is no part of the activity.
    body = re.sub(r"^(?:自从|自打)[^，,]{1,8}?(?:以后|之后|以来|后)", "", body)
    if course:
        body = course + ("课" if "课" in body else "")
    # "去菜市场买一周的菜", "这阵子天天泡图书馆": how much is bought and for how long are no part of the activity.
    body = re.sub(r"(?<=[买做备囤])(?:一周|一个?星期|一天|一个?月|[两三]天)的?|^(?:这阵子|这段时间|最近|近来)", "", body)
    body = re.sub(r"[半一两二三四五六七八九十\d]+(?:个)?(?:小时|分钟|钟头)", "", body)
    body = re.sub(r"(?<=[\u4e00-\u9fff])个(?=[\u4e00-\u9fff])", "", tidy_value(body))  # 睡个午觉 -> 睡午觉
    body = re.sub(r"^(?:回家)?(?:第一件事|头一件事)(?:就)?是|^(?:但是?|不过|而且|然后)", "", body)
    # "带孩子去上钢琴课": 去 before another verb is no part of the activity (as in plans).
    body = re.sub(r"去(?=上|看|打|练|跑|游|参加|学|做|吃|买|逛|爬|跳|踢|遛|跳)", "", body)
    body = re.sub(r"(?<=[看陪带送接给和跟])我(?:的|家的?)?(?=[\u4e00-\u9fff])", "", body)  # 看我奶奶 -> 看奶奶
    body = re.sub(r"^们(?:全家|一家|俩)?", "", body)  # the 我 of 我们 went with the subject above
    if shared:
        body = re.sub(rf"^(?:我)?(?:和|跟)(?:我的?)?(?:{_PEOPLE_ZH_ALT})(?:\s?[A-Z][a-zA-Z]+)?(?:都|会|去(?=[\u4e00-\u9fff]))*", "", body)
    body = re.sub(r"(?<=[看打下踢玩])(?:场|部|局|盘|把)|(?<=[喝吃抽])一?(?:杯|碗|根|瓶)(?=[\u4e00-\u9fff])", "", body)  # 看场电影, 喝(一)杯茶; 喝两杯 says how much, and stays
    # "每周都会去两次羽毛球馆": the count belongs to the frequency.
    times = re.search(r"[一两二三四五六七八九十\d]+次", body)
    if times and freq:
        body = body.replace(times.group(), "")
        freq = freq + times.group()
    body = re.sub(r"(?<=[背写读记])[一两二三四五六七八九十百千几\d]+个?(?=[\u4e00-\u9fff])", "", body)  # 背两百个单词 -> 背单词
    # Only numbers and measure words ("每周两节") or a blanked quotation are no activity.
    if re.search(r"[\u4e00-\u9fff]\s+[\u4e00-\u9fff]", body) or (body and all(flag in ("m", "q", "mq") for _, flag in tags(body))):
        return []
    # A state of mind ("每天都在想放假的事") is no activity.
    # "每天晚上十一点前必须睡": what must be done at that hour is still the routine.
    body = re.sub(r"^(?:还|也|就)?(?:必须|一定要?|非得|得|要)(?=[\u4e00-\u9fff])", "", body)
    # "每天还得去杭州上班": going to work says where the user works (rules_zh.location), not a routine.
    if re.fullmatch(r"(?:去|到|回)[\u4e00-\u9fff]{0,6}?(?:公司|单位)?(?:上班|坐班|打卡|工作)", body):
        return []
    body = {"睡": "睡觉", "起": "起床"}.get(body, body)  # "我一般晚上十一点睡"
    if _EXTENT_ONLY.search(body):
        return []
    # Advice, hearsay and people in general ("据说每天喝八杯水最健康", "医生建议…") are no routine of the user's.
    if not body or len(body) < 2 or len(body) > 14 or re.search(r"什么|吗|呢|不|没|干嘛|干啥|据说|听说|建议|最好|应该|的人", body) or re.match(r"在?(?:想|考虑|担心|纠结|琢磨|发愁)", body):
        return []
    if re.search(r"吃.*药|药|维生素|钙片|鱼油|褪黑素|叶酸|胰岛素|喷雾|滴眼液|胶囊|[片粒颗]|\d+\s*(?:mg|毫克|微克|μg|ug|ml|毫升|IU)", body):
        return []
    return [_zc("user.habits", body, time=time, weekdays=days, frequency=freq)]


def _extent_is_state(match: re.Match) -> bool:
    after = match.group("after")
    return not after or not any(flag.startswith(("n", "s", "t", "m")) and flag != "nr" for _, flag in tags(after))


# "每日揸车都揸到攰", "每天都睡到自然醒": a verb with the state it ends in says how hard or how easy a day is,
# not an activity; "睡到中午" (a time), "走到公司" (a place) say what is done.
class _Extent:
    _pattern = re.compile(r"^[\u4e00-\u9fff]{1,4}?(?:都)?[\u4e00-\u9fff]?到(?P<after>[\u4e00-\u9fff]{0,4})$")

    def search(self, body: str) -> bool:
        match = self._pattern.match(body)
        return bool(match) and _extent_is_state(match)


_EXTENT_ONLY = _Extent()


def _legacy_habit(match: re.Match) -> list[Candidate]:
    # "我经常点奶茶": a taste shown by a habit, kept as a like with lower confidence.
    value = _object(match.group("v"))
    if value and re.search(r"药|维生素|钙片|鱼油|褪黑素|叶酸|[片粒颗]", value):
        return []  # "我每天都吃一片复合维生素" is a medicine, read by rules_zh.health
    return [_c("user.likes", match.group("verb") + value, 0.7, inferred="habit")] if value else []


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我{_ADV}(?:经常|通常|一般|总是|常常|每天都|每周都)(?P<verb>吃|喝|看|听|买|玩|点){_OBJ}"), _legacy_habit),
]


# A part that says nothing but when: "一般是周二和周四晚上", "大概晚上八点".
_ONLY_WHEN = re.compile(r"(?:一般|通常|基本上?|大多|大概|差不多|都)*(?:是|在)?(?P<w>[^，,。]{2,16}?)(?:的时候|左右|前后)?(?:吧|啦|哈)?")


def habit_times_beside(segments: list[str], found: list[Candidate]) -> None:
    """"我每周上两次瑜伽课，一般是周二和周四晚上": the weekdays and time said in a part of their own
    after a habit are that habit's, when the habit has none of its own."""
    habits = [c for c in found if c.memory_key == "user.habits"]
    if len(habits) != 1:
        return
    habit = habits[0]
    for segment in segments:
        said = _ONLY_WHEN.fullmatch(segment)
        if not said:
            continue
        when = said.group("w")
        days, time = A.weekdays(when), A.time_of_day(when)
        rest = re.sub(rf"每?(?:周|星期|礼拜)[一二三四五六日天末]|{A.ZH_TIME.pattern}|[和、到至跟及]|周末|工作日", "", when)
        if rest or not (days or time):
            continue
        if days and not habit.attributes.get("weekdays"):
            habit.attributes["weekdays"] = days
        if time and not habit.attributes.get("time"):
            habit.attributes["time"] = time
