"""Employment: employer, occupation (role), former employer."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import Candidate, value_rule
from layers.formation.extractor.rules_zh.common import _ADV, _TERM, _c, _zc
from layers.formation.extractor.rules_zh.location import _CITY_ALT, _PLACE_BLOCK
from layers.formation.extractor.rules_zh.pos import tags
from layers.formation.extractor.text import has_question_word_zh, tidy_value

_PROFESSIONS = ("工程师|医生|老师|教师|护士|律师|设计师|程序员|会计|会计师|学生|经理|记者|作家|厨师|司机|研究员|科学家|"
                "销售|架构师|分析师|教授|博士生|研究生|大学生|公务员|警察|画家|演员|歌手|主播|店长|翻译|编辑|药剂师|"
                "全职妈妈|全职太太|家庭主妇|宝妈|产品经理|运营|摄影师|建筑师|咨询师|创业者|自由职业者|快递员|外卖员|外卖小哥|快递小哥|骑手|农民|军人|飞行员|空姐|牙医")


# A Latin name is Latin letters and digits only ("入职Airbnb了": the 了 is no part of it).
# "在Deloitte上海做audit", "在 Google 北京上班": a Latin name may be followed by the city of its office, as a
# Chinese one is ("在腾讯深圳总部上班"); _zb_job parts the two.
_ORG_ZH = (r"(?P<v>(?![在到去了])(?:[A-Za-z][A-Za-z0-9_&.'-]*(?:\s[A-Z][A-Za-z0-9_&.'-]*)*"
           rf"(?:(?:{_CITY_ALT})(?:总部|分公司|办公室|研发中心|分部)?)?|[\u4e00-\u9fff]{{2,10}}?))")


_ROLE_ZH_CAP = r"(?P<role>[\u4e00-\u9fffA-Za-z]{1,10}?)"


# Employers well enough known to be named bare ("我是程序员，在拼多多", "从华为辞职了，下个月去小米", "在华为待了
# 五年"): jieba tags many of them as a person's name or a verb (拼多多 v+m, 蔚来 nr+v), so the rules that need an
# organisation where the grammar does not say one (a bare 在X, 去X, 待了) read them from this list, as places are
# read from the city gazetteer.
KNOWN_EMPLOYERS = ("腾讯|阿里巴巴|阿里云|阿里|蚂蚁金服|蚂蚁|字节跳动|字节|抖音|百度|美团|京东|华为|小米|网易|拼多多|滴滴|快手|蔚来|理想汽车|小鹏|比亚迪|"
                   "宁德时代|大疆|中兴|联想|携程|B站|哔哩哔哩|小红书|米哈游|商汤|旷视|OPPO|vivo|荣耀|顺丰|京东物流|菜鸟|饿了么|"
                   "招商银行|招行|工商银行|工行|建设银行|建行|中国银行|农业银行|交通银行|平安|中国平安|中信|中金|华泰|中石化|中石油|"
                   "国家电网|南方电网|中国移动|中国联通|中国电信|海尔|格力|美的|万科|碧桂园|华润|吉利|长城汽车|上汽|一汽|东风|"
                   "微软|谷歌|苹果|亚马逊|特斯拉|英特尔|高通|英伟达|三星|IBM|甲骨文|思科|麦肯锡|波士顿咨询|贝恩|德勤|普华永道|安永|"
                   "毕马威|高盛|摩根士丹利|摩根大通|星巴克|麦当劳|肯德基|宜家|沃尔玛|宝洁|联合利华|欧莱雅|西门子|博世|大众|宝马|奔驰|"
                   "协和|华西|瑞金|湘雅|同仁|新东方|好未来|猿辅导|作业帮|知乎|微博|新浪|搜狐|360|金山|用友|科大讯飞|海康威视|"
                   "顺丰速运|京东方|中芯国际|中国建筑|中建|中铁|中交|中粮|茅台|伊利|蒙牛|农夫山泉|喜茶|瑞幸|蜜雪冰城|海底捞|盒马|叮咚买菜|"
                   # the nicknames employees and the industry call them by (鹅厂 Tencent, 菊厂 Huawei, 猪厂 NetEase)
                   "鹅厂|菊厂|猪厂|狗东")
_KNOWN_LONGEST_FIRST = "|".join(sorted(KNOWN_EMPLOYERS.split("|"), key=len, reverse=True))  # 京东物流 before 京东
KNOWN_EMPLOYER = re.compile(rf"(?:{KNOWN_EMPLOYERS})(?:集团|公司|科技|总部)?")


# A kind of workplace, not a named one ("我在医院上班"): FACTS.md labels only identifiable employers.
_GENERIC_WORKPLACES = {"医院", "学校", "银行", "工厂", "厂里", "政府", "机关", "事业单位", "超市", "餐厅", "饭店", "酒店",
                       "店里", "工地", "律所", "药店", "诊所", "幼儿园", "大学", "研究所", "设计院", "报社", "电视台"}


def _org_zh(raw: str) -> str | None:
    value = tidy_value(raw)
    if re.search(r"一家|一个|某|家小|个小", value):
        return None
    value = re.sub(r"^(?:了|在|到|去|进|一家|家)", "", value)
    value = re.sub(r"^给", "", value)
    if re.match(r"个|一名|一位|名|位", value) or "退休" in value:
        return None  # "我是个退休的工程师": a description, no organisation
    if re.search(r"住过|待过|呆过|待了|住了|生活过|读过|上过学", value):
        return None  # "之前在杭州待过两年": a stay, no employer
    if "实习" in value:
        return None  # an internship is no job held (FACTS.md past_state when it is over)
    generic = re.sub(r"^(?:社区|区|市|县|乡镇|镇|私立|公立|附近的?|本地的?|一家|家)", "", value)
    if not value or value in _PLACE_BLOCK or value in _GENERIC_WORKPLACES or generic in _GENERIC_WORKPLACES or re.match(r"一家|一个|某|不|没|这|那|哪|家里|公司|单位|外企|国企|私企|小公司|大厂", value):
        return None
    # "已经不在深圳工作了" names no organisation: a negation or an aspect word is never inside a name.
    if has_question_word_zh(value) or len(value) > 12 or re.search(r"[了的呢吗]$|不在|没在|不再|已经|曾经", value):
        return None
    return value


def _jieba_place(raw: str) -> re.Match | None:
    pairs = tags(tidy_value(raw))
    return re.fullmatch(r".+", pairs[0][0]) if len(pairs) == 1 and pairs[0][1] == "ns" else None


def _city_area(raw: str) -> str | None:
    """The city of "东莞松山湖" / "深圳南山区" / "北京望京": a known city, then an area jieba tags a place or a
    word ending as areas do; None when what follows the city is an organisation ("北京字节")."""
    said = re.fullmatch(rf"(?P<city>{_CITY_ALT})(?P<rest>[\u4e00-\u9fff]{{2,6}})", tidy_value(raw))
    if not said or re.fullmatch(KNOWN_EMPLOYERS, said.group("rest")):
        return None
    rest = said.group("rest")
    if re.search(r"(?:区|县|镇|街道|新区|开发区|高新区|园区|湖|山|村|路|街|桥|门|口)$", rest) or \
            (len(tags(rest)) == 1 and tags(rest)[0][1] == "ns"):
        return said.group("city")
    return None


def _role_said(role: str | None) -> str | None:
    """The role after 做/当/担任, without how long or how it is held ("了三年的", "兼职", "一名") or a
    trailing 工作/一职; None when what is left is no role (a question, a pronoun, an aspect particle)."""
    if not role:
        return None
    role = re.sub(r"^(?:了?[一二三四五六七八九十两\d]+年的?|兼职的?|全职的?|一名|个)", "", role)
    if role.startswith("兼职"):
        role = role[2:]
    role = re.sub(r"(?:工作|的工作|一职|的)$", "", role)
    return role if role and 1 < len(role) <= 8 and not re.search(r"[了着过吗呢]|什么|这|那", role) else None


def _zb_job(m, clause):
    raw = m.group("v")
    # A city the gazetteer lacks is still a place when jieba tags it one and the user goes there
    # to work ("每天去昆山上班"); "在京东上班" keeps its organisation (jieba tags 京东 a place too).
    place = re.fullmatch(_CITY_ALT, raw) or (m.group().startswith("去") and _jieba_place(raw))
    out = []
    if place:
        out.append(_zc("user.work_city", place.group()))
    elif _city_area(raw):
        # "在东莞松山湖上班", "在深圳南山区上班": a city and an area of it is where, not who
        out.append(_zc("user.work_city", _city_area(raw)))
    else:
        # "在腾讯深圳总部上班": the organisation, then where its office is.
        office = re.match(rf"(?P<org>.+?)(?P<city>{_CITY_ALT})(?:总部|分公司|办公室|研发中心|园区|分部)?$", tidy_value(raw))
        if office and len(office.group("org")) >= 2:
            raw = office.group("org")
            out.append(_zc("user.work_city", office.group("city")))
        org = _org_zh(raw)
        if org:
            out.append(_zc("user.employer", org))
        elif office:
            out.pop()
    role = m.groupdict().get("role")
    if role and re.search(r"(?:学|博士|研究|本科|硕士|大学|留学|实习|中学|小学|高中)生$", role):
        return []  # "我是清华的博士生": a student, read by rules_zh.education
    role = _role_said(role)
    if role:
        out.append(_zc("user.occupation", role))
    if not (any(c.memory_key != "user.occupation" for c in out) or (out and m.groupdict().get("role"))):
        return []
    # "在X实习过三个月": a stint told with 过 is over; "在华为干了五年，今年终于离职了": it ended later in the clause.
    # The rule saw one comma segment; `clause` runs from that segment to the clause's end.
    at = clause.find(m.group())
    after = clause[at + len(m.group()):] if at >= 0 else m.string[m.end():]
    if re.match(r"过", after) or re.search(r"过[一二两三四五六七八九十几\d半]+(?:年|个月|周)", m.group()):
        return []
    if _JOB_ENDED.search(after):
        return [_zc("user.former_employer", c.value) if c.memory_key == "user.employer" else c
                for c in out if c.memory_key != "user.work_city"]
    return out


# Words that end the job just named, later in the same clause ("…，后来辞职了", "…，上个月离职了").
# "…，上礼拜刚把离职手续办完", "…，昨天交了工牌": the leaving done, told by its paperwork.
_JOB_ENDED = re.compile(r"^[^。!！?？]*?(?:(?:离职|辞职|辞了|不干了|被裁|裁员了我|被优化|被开除|跳槽|跳到了?|跳去了?|换到了?|走人|退休|裸辞)(?:了|啦)?(?:$|[，,。!！])"
                        r"|(?:离职|辞职|交接)(?:手续|流程)?(?:都|也)?(?:办完|办好|走完|批了|交接完)|交(?:了|还了)?(?:工牌|工卡|门禁卡)|递了?辞呈|提了?离职)")


# Words before a part that make its bare "去了X" / "现在在X" the next job ("我换工作了，去了美团",
# "从阿里离职了，现在在腾讯"): on its own such a part is only a place or a visit.
_JOB_CHANGED_BEFORE = re.compile(r"换了?(?:个|份|一份)?(?:新)?工作|跳槽|离职|辞职|辞了|不干了|被裁|被优化")


def _zb_next_job(m, clause):
    at = clause.find(m.group())
    if at <= 0 or not _JOB_CHANGED_BEFORE.search(clause[:at]):
        return []
    raw = tidy_value(m.group("v"))
    if re.fullmatch(_CITY_ALT, raw):
        return [_zc("user.work_city", raw)]
    # "现在在家带娃", "现在在杭州旅游": home or a place, then what the user does there, is no workplace
    pairs = tags(raw)
    if raw.startswith("家") or re.match(_CITY_ALT, raw) or (len(pairs) > 1 and pairs[-1][1] in ("v", "vn")):
        return []
    org = _org_zh(raw)
    return [_zc("user.employer", org)] if org else []


def _zb_self_described(m, clause):
    if not (m.group("v") or m.group("one")):  # "我是月光族荣誉会员" is a joke, not a post
        return []
    role = _role_said(m.group("role"))
    if not role or re.search(r"(?:学|博士|研究|本科|硕士|大学|留学|中学|小学|高中)生$", role):
        return []
    out = [_zc("user.employer", m.group("v"))] if m.group("v") else []
    return out + [_zc("user.occupation", role)]


def _zb_next_job_role(m, clause):
    out = _zb_next_job(m, clause)
    role = _role_said(m.group("role"))
    if out and role:
        out.append(_zc("user.occupation", role))
    return out


def _zb_former(m, clause):
    if re.fullmatch(_CITY_ALT, tidy_value(m.group("v"))):
        return []  # "不在深圳工作了": a past work city, for which FACTS.md keeps nothing
    org = _org_zh(m.group("v"))
    return [_zc("user.former_employer", org)] if org else []


# Role nouns a job is named by after 做/当/干/搞 ("做后台开发", "在字节做算法"): a bare 做 is too
# common a verb ("做饭", "做瑜伽") to take any object.
_ROLE_HEADS = (r"开发|研发|运营|产品|测试|设计|销售|市场|财务|会计|人事|HR|hr|行政|法务|客服|前端|后端|后台|算法|数据分析|"
               r"数据|风控|投行|咨询|审计|采购|编辑|翻译|策划|文案|公关|猎头|客户经理|项目经理|主管|总监|经理|助理|"
               r"顾问|专员|工程师|设计师|分析师|师|员|官")


# "我是data analyst", "我是一名software engineer": an English role said in a Chinese sentence.
_EN_ROLE_HEAD = (r"(?i:engineer|analyst|manager|designer|developer|intern|consultant|teacher|nurse|doctor|lawyer|"
                 r"scientist|researcher|accountant|architect|writer|editor|freelancer|founder|director|banker|trader|"
                 r"chef|barista|PM|SWE|SDE|SRE|UX|UI|BD|CEO|CTO|CFO|COO|VP|HR|lead|specialist|officer|coordinator|programmer|tester|QA|recruiter|scientist)")


def _zb_occupation(m, clause):
    if re.search(r"专业$|学的$|读的$", m.string[:m.start()]):
        return []  # "专业是会计": a field of study, read by rules_zh.education
    value = tidy_value(m.group("v"))
    value = re.sub(r"^(?:一名|一个|一位|个|名)", "", value)
    # Length in words for Latin ("freelance consultant" is two), in characters for Chinese.
    if not value or len(re.sub(r"[A-Za-z]+", "x", value)) > 10 or re.search(r"什么|哪|这|那|不|的", value) or re.search(r"(?:学生|博士生|研究生|本科生)$", value):
        return []
    return [_zc("user.occupation", value)]


def _legacy_work(match: re.Match) -> list[Candidate]:
    """"我在X工作/上班": a known city is the work city, anything else the employer."""
    raw = tidy_value(match.group("v"))
    place = re.match(_CITY_ALT, raw)
    if place:
        return [_c("user.work_city", place.group())]
    if raw in _PLACE_BLOCK or raw in _GENERIC_WORKPLACES or re.match(r"一家|一个|某|不|没", raw) or has_question_word_zh(raw) or len(raw) > 12:
        return []
    return [_c("user.employer", raw)]


_legacy_occupation = value_rule("user.occupation", tidy_value)


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我{_ADV}在(?P<v>[^，,。.!！?？;；]+?)(?:工作|上班)"), _legacy_work),
    (re.compile(rf"我{_ADV}是(?:一名|一个|一位|个)?(?P<v>[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_PROFESSIONS})){_TERM}"), _legacy_occupation),
    (re.compile(rf"我{_ADV}是(?:做|搞|干)(?P<v>[\u4e00-\u9fffA-Za-z]{{1,6}}?)(?:工作)?的{_TERM}"), _legacy_occupation),
    (re.compile(r"我的(?:工作|职业)是(?P<v>[\u4e00-\u9fffA-Za-z]{2,10})"), _legacy_occupation),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "我上一份工作在京东", "前东家是美团", "之前那家公司是平安": the job before this one.
    (re.compile(rf"(?:上一份|上份|前一份|上一家|之前那份|之前那家)(?:工作|公司|单位)?(?:是|在){_ORG_ZH}(?=$|[，,。!！]|上班|工作|干)"), _zb_former),
    (re.compile(rf"前东家(?:是)?{_ORG_ZH}(?=$|[，,。!！])"), _zb_former),
    # "任客户经理一职", "担任技术总监一职": the post held.
    (re.compile(r"(?:任|担任)(?P<v>[\u4e00-\u9fffA-Za-z]{2,10}?)一职"), lambda m, c: _zb_occupation(m, c)),
    (re.compile(rf"是(?:一名|一个|个|名)?(?P<v>(?:[A-Za-z]+\s+){{0,3}}?{_EN_ROLE_HEAD})(?=$|[，,。!！\s])"), _zb_occupation),
    (re.compile(rf"在{_ORG_ZH}(?:做|当|干|任|担任|搞|实习)(?:了?[一二三四五六七八九十两\d]+年)?(?:兼职)?{_ROLE_ZH_CAP}(?=$|[，,。!！~～;；、\s]|了|啦|呀|哦|😂|😅)"), _zb_job),
    (re.compile(rf"在{_ORG_ZH}(?:上班|工作|打工|就职|任职|实习)(?=$|[，,。!！]|了|呢)"), _zb_job),
    # "在京东待了四年": a stay at a known employer is a job there (at a place it is a home, rules_zh.location).
    (re.compile(rf"在(?P<v>{KNOWN_EMPLOYERS})(?:待|呆)了"), _zb_job),
    (re.compile(rf"(?:工作在|上班在)(?P<v>{_CITY_ALT})"), _zb_job),
    (re.compile(rf"在{_ORG_ZH}(?:上班|工作|打工|就职|任职)"), _zb_job),
    (re.compile(rf"给{_ORG_ZH}(?:打工|干活|上班|卖命|搬砖)"), _zb_job),
    # "在一家叫米哈游的游戏公司做原画": the workplace named inside its description.
    (re.compile(r"在一家(?:叫|名叫|叫做)(?P<v>[A-Za-z][\w&.'-]*|[\u4e00-\u9fff]{2,8}?)的[\u4e00-\u9fffA-Za-z]{0,6}?(?:公司|企业|工作室|医院|银行|律所|机构|平台)(?:(?:做|当|干|任)(?P<role>[\u4e00-\u9fffA-Za-z]{2,8}?))?(?=$|[，,。!！]|了)"), _zb_job),
    # "在一家4A广告公司当文案": an unnamed workplace gives the role alone.
    (re.compile(r"在一家[^，,。]{1,12}?(?:公司|企业|机构|医院|学校|律所|事务所|工作室|餐厅|店)(?:当|做|任|担任)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，,。!！]|了)"), _zb_occupation),
    # "我是美团的骑手": organisation, 的, a role word.
    (re.compile(rf"是{_ORG_ZH}的(?P<role>[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_PROFESSIONS}|骑手|员|师|经理|主管|总监|专员|顾问|助理|店长))(?=$|[，,。!！]|了|啊|呀)"), _zb_job),
    (re.compile(rf"(?:就职于|供职于|任职于|受雇于){_ORG_ZH}(?:[，,]\s*任(?P<role>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?:一职)?)?(?=$|[，,。])"), _zb_job),
    (re.compile(rf"(?:入职(?:了|的)?|加入了?|(?i:join(?:ed)?)\s*了?\s*|跳槽到了?|跳槽去了?|跳到了?|跳去了?|换到了?|去(?!年)(?=[^，,。]{{2,10}}?(?:报到|上班|入职))|进了?(?=[^，,。]{{2,10}}?(?:工作|上班|$))){_ORG_ZH}(?:(?:报到|上班)?[，,]?\s*(?:岗位是|职位是|做|当|担任)(?P<role>[\u4e00-\u9fffA-Za-z]{{2,8}}))?(?=$|[，,。]|报到|上班|入职|了)"), _zb_job),
    (re.compile(rf"拿到了?{_ORG_ZH}的offer"), _zb_job),
    # "从招行离职了，去了平安做理赔": after a job change, the next employer and the role done there.
    (re.compile(r"^\s*(?:现在|目前|如今|后来|然后|最后)?(?:去了|到了|进了|来了|在)(?P<v>[A-Za-z][\w&.'-]*|[\u4e00-\u9fff]{2,8}?)"
                r"(?:做|当|干|搞)(?P<role>[\u4e00-\u9fffA-Za-z]{2,8})\s*[。!！]?$"), _zb_next_job_role),
    # a part that is only where the user went or is now, after a job change earlier in the clause
    (re.compile(rf"^\s*(?:现在|目前|如今|后来|然后|最后)?(?:是)?(?:在|去了|到了|进了|来了){_ORG_ZH}(?:了|啦|上班|工作)?\s*[。!！]?$"),
     _zb_next_job),
    # "我换工作了，去Stripe了": the same, 了 after the organisation.
    (re.compile(rf"^\s*(?:现在|目前|后来|最后)?去{_ORG_ZH}了\s*[。!！]?$"), _zb_next_job),
    # "从华为辞职了，下个月去小米": a known employer the user goes to, when, after the job change.
    (re.compile(rf"^[^，,。]{{0,8}}?(?:就|要|会)?去(?P<v>{KNOWN_EMPLOYERS})(?:了|上班|报到|入职)?\s*[。!！]?$"), _zb_next_job),
    # "在一家律所当律师，律所叫金杜": the workplace named after its kind.
    (re.compile(r"^(?:我们|我的)?(?:公司|律所|单位|医院|银行|工作室|事务所|门店|店)(?:的名字)?(?:叫|是)(?P<v>[A-Za-z][\w&.'-]*(?:\s[A-Z][\w&.'-]*)*|[\u4e00-\u9fff]{2,10})(?=$|[，,。])"), _zb_job),
    (re.compile(rf"从{_ORG_ZH}(?:离职|辞职|跳槽|跳到|跳去|出来|裸辞)"), _zb_former),
    # "交了阿里的工牌": handing back the badge is leaving.
    (re.compile(rf"交(?:了|还了|回了)?{_ORG_ZH}的(?:工牌|工卡|门禁卡|电脑)"), _zb_former),
    # "鹅厂游戏策划一枚", "顺丰快递小哥", "本人小学语文老师一枚": the user described by a known employer
    # and a role in a part of its own; without the employer, the role needs 一枚 / 一名 to be the user's.
    (re.compile(rf"^(?P<me>本人|我是)?(?P<v>{_KNOWN_LONGEST_FIRST})?的?(?P<role>(?:(?!的)[\u4e00-\u9fffA-Za-z]){{0,6}}?(?:{_PROFESSIONS}|{_ROLE_HEADS}|小哥|小妹))(?P<one>一枚|一名|一只|一个)?$"), _zb_self_described),
    # "被京东裁了", "被字节优化了": laid off.
    (re.compile(rf"被{_ORG_ZH}(?:裁员?|优化|开除|辞退|劝退|毕业)(?:了|掉)"), _zb_former),
    (re.compile(rf"是{_ORG_ZH}的(?:员工|正式员工|实习生)"), _zb_job),
    (re.compile(rf"(?:离开了?|辞掉了?|不在){_ORG_ZH}(?:了|干了|工作了|上班了|的工作|[，,。]|$)"), _zb_former),
    (re.compile(rf"(?:之前|以前|曾经)在{_ORG_ZH}(?:干|工作|上班|待|做|当)"), _zb_former),
    (re.compile(rf"^(?:之前|以前|原来)在{_ORG_ZH}$"), _zb_former),
    (re.compile(r"离开那个[\u4e00-\u9fff]{0,4}公司了?[——\-，,\s]*(?P<v>[\u4e00-\u9fffA-Za-z]{2,8})"), _zb_former),
    (re.compile(r"(?:岗位是|职位是|职业是|工作是)(?P<v>[\u4e00-\u9fffA-Za-z ]{2,10})"), _zb_occupation),
    # "我干销售的，天天跑客户": the trade one works in, said with 的.
    (re.compile(rf"^(?:我)?(?:是)?(?:干|搞)(?P<v>[\u4e00-\u9fffA-Za-z]{{0,4}}?(?:{_ROLE_HEADS}))的(?=$|[，,。!！])"), _zb_occupation),
    (re.compile(rf"^(?:我(?=[现目主]?[在前要]?负责))?(?:现在|目前|主要|负责)?(?:做|当|干|搞|负责)(?P<v>[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_ROLE_HEADS}))(?=$|[，,。!！]|了|的)"), _zb_occupation),
    (re.compile(r"^(?:担任|任)(?!何|务|性|意)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:一职|职位|岗位)?$"), _zb_occupation),
    # "…，做SDE", "当data scientist": an English role said alone after 做 / 当 in a part of its own.
    (re.compile(rf"^(?:现在|目前|主要|还是)?(?:做|当|干)(?P<v>(?:[A-Za-z]+\s+){{0,2}}?{_EN_ROLE_HEAD})(?=$|[，,。!！])"), _zb_occupation),
    (re.compile(rf"(?:现在在做|在做|当了?|做了?)(?P<v>(?:freelance |自由)?[\u4e00-\u9fffA-Za-z ]{{0,8}}?(?:{_PROFESSIONS}|consultant|designer|engineer|顾问|咨询|中介|师|员))(?=$|[，,。]|了)"), _zb_occupation),
    (re.compile(rf"(?:是|当)(?:一名|一个|一位|个|名)?(?P<v>[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_PROFESSIONS}|医生|护士|老师|兽医|中介|咨询师|工程师|设计师|程序员|会计))(?=$|[，,。!！~～\s]|了|啦|呀|哦)"), _zb_occupation),
    (re.compile(r"是(?:做|搞|干)(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:工作)?的"), _zb_occupation),
]
