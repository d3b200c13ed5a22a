"""Plans and trips with their date and destination."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_zh.common import _c, _zc
from layers.formation.extractor.rules_zh.family import _PEOPLE_ZH_ALT

# Relatives and acquaintances with no role of their own: their plans are theirs ("我表妹明年考研").
_OTHER_PEOPLE = "表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|侄子|侄女|外甥|舅舅|姑姑|阿姨|叔叔|伯伯|婶婶|嫂子|姐夫|妹夫|哥们|姐们|发小|老乡|师兄|师姐|师弟|师妹|导师"
from layers.formation.extractor.rules_zh.location import _CITY_ALT, _COUNTRIES_ZH
from layers.formation.extractor.rules_zh.subject import zh_user_said
from layers.formation.extractor.text import tidy_value

DATE_ZH = re.compile(
    r"今天|今晚|明天|明早|明晚|后天|大后天|这周[一二三四五六日天末]?|本周[一二三四五六日天末]?|下周[一二三四五六日天末]?|"
    r"下个?星期[一二三四五六日天]?|这个?周末|下个?月(?:初|底|中)?|月底|年底|明年|今年\d{1,2}月|\d{1,2}月\d{1,2}[日号]|"
    r"\d{1,2}月(?:份|初|底)?|\d{1,2}号|周[一二三四五六日天]|星期[一二三四五六日天]|春节|国庆|五一|中秋|元旦|寒假|暑假|过两天|过几天")


_PLAN_MARK = re.compile(r"要|会|打算|准备|计划|将|得去|约了|安排了?|预约了?")


_PLAN_VERB = re.compile(r"去|回|飞|出差|搬家|搬|参加|考试|面试|结婚|旅游|旅行|看病|体检|开会|见|拜访|出发|出国|动手术|手术|复查|报到|入职")


_FUTURE_DATE = re.compile(r"下|明|后|来|年底|月底|年后|过年|春节|国庆|十一|五一|暑假|寒假")
_DONE = re.compile(r"^[^，,]{0,3}?[\u4e00-\u9fff](?:了|过)(?!解|来|去)")
_ARRANGED = re.compile(r"要|会|打算|准备|计划|得|将|约了|订了|定了|买了|安排了|预约了|报了|挂了")


def _told_as_done(date: str, rest: str) -> bool:
    """"我今天去了趟超市", "这周末回了趟老家": a day not certainly to come and the verb done (了 / 过) tell
    what happened; "这周末约了朋友去露营" is arranged, a plan."""
    return not _FUTURE_DATE.match(date) and _DONE.search(rest) is not None and not _ARRANGED.search(rest[:6])


def plan_candidate(clause: str) -> Candidate | None:
    subject = clause.find("我")
    date = DATE_ZH.search(clause)
    if subject < 0 or not date or subject > 12:
        return None
    after = clause[subject + 1:]
    # The subject must be the user ("我们"/"我女儿" plan for others) and the plan must not be denied.
    if re.match(r"们|的|(?:" + _PEOPLE_ZH_ALT + "|" + _OTHER_PEOPLE + ")", after) or re.search(r"不|没|别", after[:8]):
        return None
    if not (_PLAN_MARK.search(after) or DATE_ZH.match(after)) or not _PLAN_VERB.search(after):
        return None
    if re.search(r"报到|入职", after) or re.search(r"每|天天|一般|通常|习惯|平时|总是|经常|常常", clause):
        return None  # starting a job is the employer (FACTS.md), read by rules_zh.employment
    if _told_as_done(date.group(), clause[date.end():]):
        return None
    value = tidy_value(clause[:subject] + after)
    return _c("user.plan", value, date=date.group())


_PLAN_VERB_ZH = re.compile(r"去|回|飞|出差|搬家|搬|参加|考|面试|结婚|旅游|旅行|看病|体检|开会|会议|见|拜访|出发|出国|手术|复查|报到|"
                           r"入职|航班|机票|约了|带|休|开始|开课|自驾|婚礼|比赛|演唱会|答辩|毕业|出游|打疫苗|订了|"
                           # deadlines and errands with a date are plans too ("月底要交论文初稿")
                           r"交|提交|签|办|领|拿|装修|当伴娘|当伴郎|陪|接|送|报名|上课|动身|启程|加班|值班|出门|换工作|跳槽|辞职|买房|买车|要二胎|生二胎|要孩子|备孕")


def zh_plan_candidates(clause: str) -> list[Candidate]:
    date = A.zh_date(clause)
    if not date:
        return []
    start = clause.find(date)
    if not zh_user_said(clause, start, allow_we=True) and not zh_user_said(clause, 0, allow_we=True):
        return []
    rest = clause[start + len(date):]
    if re.search(r"(?:去年|前年|上个?月|上周|上个?星期|昨天|前天)$", clause[:start]):
        return []  # "去年5月20号领的证": a date in the past
    if re.match(r"上|去年|昨天|前天|前年|早些|之前", date) or re.search(r"每|天天|一般|通常|习惯|平时|总是|经常|常常|老是|偶尔|过生日|岁|生日|纪念日|周年|结婚的|结婚第|第[一二三四五六七八九十\d]+年|毕业|喜欢|爱|考上|考完|考过", clause):
        return []
    if not _PLAN_VERB_ZH.search(rest) or re.search(r"不|没|别|生日|纪念日|每", rest[:6]):
        return []
    # "周末上课", "周三健身": a bare weekday with no word of intent recurs; "这周六要考" is one day.
    if re.fullmatch(r"(?:(?:周|星期|礼拜)[一二三四五六日天末][、和]?)+(?:早上|上午|中午|下午|晚上)?", date) and not re.search(r"要|会|打算|准备|计划|约了|得", clause):
        return []
    # "婚礼定在十月二号了": the plan named before its date.
    named_first = re.match(r"^(?:我们?的?)?(?P<w>[\u4e00-\u9fff]{2,6}?)(?:定在|安排在|约在|改到|推到|订在|改在)$", clause[:start])
    if named_first:
        rest = named_first.group("w") + rest
    body = re.sub(r"^(?:的|我们?|要|会|打算|准备|计划|得|就|也|还|正式|要去)+", "", rest)
    body = re.sub(r"^(?:的)", "", body)
    body = re.split(r"[，,。!！?？~～]", body)[0]
    # The plan in few words: no filler (一趟), no possessive (带我家狗 -> 带狗), no 去 before another verb
    # (去考科目二 -> 考科目二; 去成都 keeps its 去, which names the trip).
    body = re.sub(rf"一?趟|(?<=[带陪给和跟])我(?:家的?|的)?(?=[\u4e00-\u9fff])|(?<=回)老家(?={_CITY_ALT})", "", tidy_value(body))
    # "回老家看看爷爷奶奶": a doubled verb is the verb ("看看" -> "看").
    body = re.sub(r"(看|走|逛|聊|玩|试|转|歇)\1", r"\1", body)
    body = re.sub(r"^去(?=看|考|打|吃|买|参加|见|办|做|拿|取|听|学|上课|体检|复查)", "", body)
    # "约了朋友吃日料" -> 和朋友吃日料: who the plan is with, without the arranging.
    body = re.sub(r"^约了?(?=[\u4e00-\u9fff]{1,4}?(?:吃|喝|看|打|逛|爬|唱|玩))", "和", body)
    # "5月20号领的证", "去年十月结的婚": 是…的 tells what happened, not a plan; "下个月就考了": a bare verb
    # with 了 names nothing; "今天算是亲眼见到了": today, done, no intent.
    if not body or len(body) < 2 or re.match(r"[\u4e00-\u9fff]{1,2}的[\u4e00-\u9fff]?$", body) or re.fullmatch(r"[\u4e00-\u9fff]了", body):
        return []
    if re.match(r"今天|今晚", date) and re.search(r"了$", body) and not re.search(r"要|会|打算|准备|得|去", rest[:4]):
        return []
    if _told_as_done(date, rest):
        return []
    if re.match(r"报到|开学|入学", body) and re.search(r"考上|录取|研究生|大学|学校", clause):
        return []  # "今年刚考上北师大的研究生，九月报到": starting school, read by rules_zh.education
    # A known place is the destination whatever follows it ("去澳洲读研"); another word only before a trip verb
    # or a study one ("明年去 London 读 LLM", "去Oxford交换").
    dest = re.search(rf"(?:去|到|飞|回|飞往|前往|在)(?:老家)?(?:一?趟)?(?P<d>{_CITY_ALT}|{_COUNTRIES_ZH})", rest) or \
        re.search(rf"(?:去|到|飞|回|飞往|前往|在)\s*(?:老家)?(?:一趟)?(?P<d>{_CITY_ALT}|{_COUNTRIES_ZH}|[A-Z][A-Za-z]*(?:\s[A-Z][A-Za-z]*)*|[\u4e00-\u9fff]{{2,4}}?)(?=出差|看|玩|过|见|考|旅|参加|开|度|吃|留学|读|进修|交换|工作|定居|生活|拜访|探亲|$|[，,。])", rest)
    destination = None
    if dest:
        destination = dest.group("d")
        # A destination is a place: never a verb phrase ("看牙医", "看爸妈", "腾讯报到").
        known = re.fullmatch(rf"{_CITY_ALT}|{_COUNTRIES_ZH}", destination)
        if not known and (re.match(r"一趟|公司|医院|学校|那边|这边|上班|面试|考试|看|见|吃|玩|参加|买|办|做|拜访|探|打", destination)
                          or re.search(r"报到|上班|入职|面试|开会", destination)):
            destination = None
    return [_zc("user.plan", body, date=date, destination=destination)]
