"""Chinese first-person rules. Each takes one folded clause and returns Candidates.

Every rule needs 我 as the subject with only harmless adverbs between it and the verb (现在, 一直,
已经 …); negation (不/没), modals (想/要/打算) and other people (我朋友, 我女儿) break the match,
which is how "我不住在北京了", "我想搬到上海" and "我朋友对猫过敏" stay out of the user's profile.
Places are read against a gazetteer of cities first, so "我住在北京朝阳区" yields 北京.
"""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en import Candidate, match_rules
from layers.formation.extractor.text import has_question_word_zh, tidy_value

# Adverbs and past time expressions that may sit between 我 and the verb without changing who or
# whether: "我上个月已经搬到上海了". Negation and modals are deliberately absent.
_ADV = (r"(?:现在|目前|一直|已经|也|还|平时|其实|刚|刚刚|最近|都|就|本来|真的|确实|上个?月|上周|上个?星期|去年|前年|"
        r"今年|前几天|前不久|不久前|年初|年前|早就|终于|\d{2,4}年)*")
_INTENSE = r"(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮)*"
_TERM = r"(?=$|[，,。.!！~～;；、\s]|了|啦|呀|哦|的)"

CITIES = (
    "北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 成都 武汉 西安 长沙 郑州 济南 青岛 大连 沈阳 哈尔滨 长春 "
    "厦门 福州 合肥 南昌 昆明 贵阳 南宁 海口 三亚 兰州 西宁 银川 乌鲁木齐 拉萨 呼和浩特 石家庄 太原 宁波 "
    "无锡 佛山 东莞 珠海 温州 绍兴 嘉兴 常州 徐州 烟台 潍坊 洛阳 桂林 丽江 大理 香港 澳门 台北 高雄 "
    "纽约 伦敦 巴黎 柏林 东京 大阪 首尔 新加坡 悉尼 墨尔本 多伦多 温哥华 洛杉矶 旧金山 西雅图 芝加哥 波士顿 "
    "慕尼黑 法兰克福 阿姆斯特丹 罗马 米兰 马德里 巴塞罗那 莫斯科 迪拜 曼谷 吉隆坡 雅加达 河内 奥克兰"
).split()
PROVINCES = ("河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州 云南 陕西 "
             "甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆").split()
_CITY_ALT = "|".join(sorted(CITIES + PROVINCES, key=len, reverse=True))
_PLACE_BLOCK = {"家", "家里", "这里", "那里", "这儿", "那儿", "公司", "单位", "学校", "附近", "楼下", "国外", "外地", "老家"}
# Where someone sleeps tonight is not their home city.
_NOT_A_CITY = re.compile(r"酒店|宾馆|民宿|旅馆|宿舍|公寓|小区|医院|朋友家|亲戚家|家里|楼上|楼下|隔壁|这|那|哪")

_PROFESSIONS = ("工程师|医生|老师|教师|护士|律师|设计师|程序员|会计|会计师|学生|经理|记者|作家|厨师|司机|研究员|科学家|"
                "销售|架构师|分析师|教授|博士生|研究生|大学生|公务员|警察|画家|演员|歌手|主播|店长|翻译|编辑|药剂师|"
                "产品经理|运营|摄影师|建筑师|咨询师|创业者|自由职业者|快递员|外卖员|农民|军人|飞行员|空姐|牙医")
_CONDITIONS = ("糖尿病|高血压|哮喘|心脏病|乳糖不耐受?|痛风|胃病|癫痫|抑郁症|焦虑症|贫血|过敏性鼻炎|低血糖|高血脂|"
               "甲亢|乙肝|偏头痛|关节炎|胃溃疡|肾病|失眠症?")
_ROLES = {"老婆": "wife", "妻子": "wife", "太太": "wife", "爱人": "partner", "老公": "husband", "丈夫": "husband",
          "女儿": "daughter", "儿子": "son", "妈妈": "mother", "母亲": "mother", "妈": "mother", "爸爸": "father",
          "父亲": "father", "爸": "father", "哥哥": "older_brother", "姐姐": "older_sister", "弟弟": "younger_brother",
          "妹妹": "younger_sister", "女朋友": "girlfriend", "男朋友": "boyfriend", "女友": "girlfriend",
          "男友": "boyfriend", "孩子": "child", "老板": "boss", "宝宝": "baby", "未婚夫": "fiance", "未婚妻": "fiancee",
          "奶奶": "grandmother", "爷爷": "grandfather"}
_PETS = {"狗": "dog", "小狗": "dog", "狗狗": "dog", "猫": "cat", "小猫": "cat", "猫咪": "cat"}
_ROLE_ALT = "|".join(sorted(_ROLES, key=len, reverse=True))
_PET_ALT = "|".join(sorted(_PETS, key=len, reverse=True))
_NAME = r"(?P<v>(?![了过着他她它你车醒])[\u4e00-\u9fff]{1,4}|[A-Z][a-zA-Z]+(?:\s[A-Z][a-zA-Z]+)?)"
_OBJ = r"(?P<v>[^，,。.!！?？;；]+)"
_PRONOUNS = re.compile(r"^(?:你|您|他|她|它|这|那|这个|那个|这些|那些|的)")
_TRAILING = re.compile(r"(?:了|啊|呀|哦|呢|啦|吧|的|极了|得很|得不得了|死了|一点|一些)+$")
_LIST_SPLIT = re.compile(r"和|、|,|跟|与|及|以及|还有|或者|或")

DATE_ZH = re.compile(
    r"今天|今晚|明天|明早|明晚|后天|大后天|这周[一二三四五六日天末]?|本周[一二三四五六日天末]?|下周[一二三四五六日天末]?|"
    r"下个?星期[一二三四五六日天]?|这个?周末|下个?月(?:初|底|中)?|月底|年底|明年|今年\d{1,2}月|\d{1,2}月\d{1,2}[日号]|"
    r"\d{1,2}月(?:份|初|底)?|\d{1,2}号|周[一二三四五六日天]|星期[一二三四五六日天]|春节|国庆|五一|中秋|元旦|寒假|暑假|过两天|过几天")
_PLAN_MARK = re.compile(r"要|会|打算|准备|计划|将|得去|约了|安排了?|预约了?")
_PLAN_VERB = re.compile(r"去|回|飞|出差|搬家|搬|参加|考试|面试|结婚|旅游|旅行|看病|体检|开会|见|拜访|出发|出国|动手术|手术|复查|报到|入职")


def _c(key: str, value: str, confidence: float = 1.0, **attributes) -> Candidate:
    return Candidate(key, value, confidence, attributes)


def _place(raw: str) -> str | None:
    raw = tidy_value(raw)
    known = re.match(_CITY_ALT, raw)
    if known:
        return known.group()
    value = re.sub(r"(?:了|啦|呀|去|住|这边|那边|附近|一带)+$", "", raw)
    value = re.sub(r"市$", "", value)
    if not value or value in _PLACE_BLOCK or has_question_word_zh(value) or not (2 <= len(value) <= 8):
        return None
    if _NOT_A_CITY.search(value):
        return None
    if re.search(r"[不没]", value):
        return None
    return value


def _object(raw: str) -> str | None:
    value = _TRAILING.sub("", tidy_value(raw))
    if not value or _PRONOUNS.match(value) or has_question_word_zh(value) or len(value) > 14:
        return None
    return value


def _items(raw: str) -> list[str]:
    out = []
    for part in _LIST_SPLIT.split(tidy_value(raw)):
        value = _object(part.strip())
        if value and not re.search(r"[不没对]|有点|有些|一点|容易|经常|好像|可能", value):
            out.append(value)
    return out


_RULES: list[tuple[re.Pattern, str]] = [
    (re.compile(rf"我{_ADV}(?:叫|名叫|的名字是|的名字叫|名字叫){_NAME}{_TERM}"), "name"),
    (re.compile(rf"(?:^|[，,])(?:你可以)?叫我{_NAME}(?:就(?:行|好|可以)了?)"), "name"),
    (re.compile(rf"我{_ADV}(?:住在|住|定居在|定居|家在|生活在|居住在)(?P<v>[^，,。.!！?？;；的]+)"), "home"),
    (re.compile(rf"我{_ADV}在(?P<v>[^，,。.!！?？;；的]+?)(?:定居|居住|生活|安家)"), "home"),
    (re.compile(rf"我{_ADV}(?:从[^，,。.!！?？;；]{{1,10}}?)?(?:搬到|搬去|搬家到|搬来|搬回|搬回了|搬到了|搬去了)(?:了)?(?P<v>[^，,。.!！?？;；的]+)"), "moved"),
    (re.compile(rf"我{_ADV}是(?P<v>{_CITY_ALT})人"), "hometown"),
    (re.compile(rf"我{_ADV}(?:来自|老家是|老家在)(?P<v>[^，,。.!！?？;；的]+)"), "hometown"),
    (re.compile(rf"我{_ADV}(?:从小|小时候)?(?:是)?在(?P<v>[^，,。.!！?？;；]+?)长大"), "hometown"),
    (re.compile(rf"我{_ADV}在(?P<v>[^，,。.!！?？;；]+?)(?:工作|上班)"), "work"),
    (re.compile(rf"我{_ADV}是(?:一名|一个|一位|个)?(?P<v>[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_PROFESSIONS})){_TERM}"), "occupation"),
    (re.compile(rf"我{_ADV}是(?:做|搞|干)(?P<v>[\u4e00-\u9fffA-Za-z]{{1,6}}?)(?:工作)?的{_TERM}"), "occupation"),
    (re.compile(rf"我的(?:工作|职业)是(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}})"), "occupation"),
    (re.compile(rf"我{_ADV}(?:好像|可能|似乎|估计)(?:对)(?P<v>[^，,。.!！?？;；]+?)过敏"), "allergy_hedged"),
    (re.compile(rf"我{_ADV}(?:对)(?P<v>[^，,。.!！?？;；]+?)(?:严重|特别|非常|很|有点|有些|轻微|轻度)?过敏"), "allergy"),
    (re.compile(rf"我{_ADV}有(?P<v>[^，,。.!！?？;；]+?)过敏"), "allergy"),
    (re.compile(rf"我{_ADV}(?P<v>[\u4e00-\u9fffA-Za-z、和]{{1,10}}?)过敏"), "allergy_bare"),
    (re.compile(rf"我{_ADV}(?:有|患有|得了|查出了?|确诊了?)(?P<v>{_CONDITIONS})"), "health"),
    (re.compile(rf"我{_ADV}(?P<v>乳糖不耐受|怀孕)"), "health"),
    (re.compile(rf"我{_ADV}(?:吃素|是素食主义者|是素食者|只吃素)"), "vegetarian"),
    (re.compile(rf"我{_ADV}(?:不吃|不能吃|不喝|不能喝|从不吃|从来不吃|忌口){_OBJ}"), "diet_no"),
    (re.compile(rf"我{_ADV}(?P<neg>{_INTENSE}(?:不喜欢|不爱|不太喜欢|讨厌|受不了|反感|厌恶|烦)){_OBJ}"), "dislike"),
    (re.compile(rf"我{_ADV}{_INTENSE}喜欢的(?P<cat>[\u4e00-\u9fff]{{1,6}})是{_OBJ}"), "favourite"),
    (re.compile(rf"我{_ADV}{_INTENSE}(?:喜欢|爱|热爱|偏爱|钟爱|偏好|迷上了|爱上了){_OBJ}"), "like"),
    (re.compile(rf"我{_ADV}(?:经常|通常|一般|总是|常常|每天都|每周都)(?P<verb>吃|喝|看|听|买|玩|点){_OBJ}"), "habit"),
    (re.compile(rf"我(?:的)?(?P<role>{_ROLE_ALT})(?:的名字)?(?:叫做|名叫|叫|是叫)(?P<v>(?![了过着他她它你])[\u4e00-\u9fff]{{1,4}}|[A-Z][a-zA-Z]+){_TERM}"), "relation"),
    (re.compile(rf"我(?:家)?(?:的)?(?P<role>{_PET_ALT})(?:的名字)?(?:叫做|名叫|叫)(?P<v>[\u4e00-\u9fff]{{1,4}}|[A-Z][a-zA-Z]+){_TERM}"), "pet"),
]


def _from_match(rule: str, match: re.Match) -> list[Candidate]:
    raw = match.group("v") if "v" in match.re.groupindex else ""
    if rule == "name":
        value = tidy_value(raw)
        return [_c("user.name", value)] if value and not has_question_word_zh(value) else []
    if rule in ("home", "moved", "hometown"):
        value = _place(raw)
        if not value:
            return []
        key = "user.hometown" if rule == "hometown" else "user.home_city"
        return [_c(key, value, correction=True)] if rule == "moved" else [_c(key, value)]
    if rule == "work":
        raw = tidy_value(raw)
        place = re.match(_CITY_ALT, raw)
        if place:
            return [_c("user.work_city", place.group())]
        if raw in _PLACE_BLOCK or re.match(r"一家|一个|某|不|没", raw) or has_question_word_zh(raw) or len(raw) > 12:
            return []
        return [_c("user.employer", raw)]
    if rule == "occupation":
        return [_c("user.occupation", tidy_value(raw))]
    if rule in ("allergy", "allergy_hedged", "allergy_bare"):
        confidence = 0.6 if rule == "allergy_hedged" else 1.0
        raw_text = tidy_value(raw)
        if rule == "allergy_bare" and (re.search(r"[对有不没]", raw_text) or raw_text[:2] in _ROLES or raw_text[:1] in _ROLES):
            return []
        return [_c("user.allergies", item, confidence) for item in _items(raw_text)]
    if rule == "health":
        return [_c("user.health_conditions", raw)]
    if rule == "vegetarian":
        return [_c("user.diet", "素食")]
    if rule == "diet_no":
        return [_c("user.diet", f"不吃{value}") for value in _items(raw)]
    if rule in ("like", "dislike", "favourite", "habit"):
        value = _object(raw)
        if not value:
            return []
        if rule == "habit":
            return [_c("user.likes", match.group("verb") + value, 0.7, inferred="habit")]
        if rule == "favourite":
            return [_c("user.likes", value, category=match.group("cat"))]
        return [_c("user.dislikes" if rule == "dislike" else "user.likes", value)]
    if rule in ("relation", "pet"):
        role = _ROLES[match.group("role")] if rule == "relation" else _PETS[match.group("role")]
        family = "user.relationship" if rule == "relation" else "user.pet"
        return [_c(f"{family}.{role}", tidy_value(raw))]
    return []


def plan_candidate(clause: str) -> Candidate | None:
    subject = clause.find("我")
    date = DATE_ZH.search(clause)
    if subject < 0 or not date or subject > 12:
        return None
    after = clause[subject + 1:]
    # The subject must be the user ("我们"/"我女儿" plan for others) and the plan must not be denied.
    if re.match(r"们|的|(?:" + _ROLE_ALT + ")", after) or re.search(r"不|没|别", after[:8]):
        return None
    if not (_PLAN_MARK.search(after) or DATE_ZH.match(after)) or not _PLAN_VERB.search(after):
        return None
    value = tidy_value(clause[:subject] + after)
    return _c("user.plan", value, when=date.group())


# Chinese drops a repeated subject: "我是上海人，现在在深圳工作". Later parts that start with a
# predicate inherit 我, but only when the first part's subject is the user alone (not 我女儿).
_PREDICATE_START = re.compile(r"^(?:是|在|也|还|现在|目前|一直|已经|住|喜欢|不喜欢|讨厌|对|有|不吃|吃素|最喜欢|刚|平时|经常|搬)")
_USER_SUBJECT = re.compile(rf"^我(?!的|们|家|(?:{_ROLE_ALT}))")


def expand_dropped_subject(clause: str) -> list[str]:
    parts = [part.strip() for part in re.split(r"[，,]", clause) if part.strip()]
    if len(parts) < 2 or not _USER_SUBJECT.match(parts[0]):
        return [clause]
    return [clause, *("我" + part for part in parts[1:] if _PREDICATE_START.match(part))]


def match_clause(clause: str) -> list[Candidate]:
    found: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for part in expand_dropped_subject(clause):
        for candidate in match_rules(part, _RULES, _from_match):
            if (candidate.memory_key, candidate.value) not in seen:
                seen.add((candidate.memory_key, candidate.value))
                found.append(candidate)
    if not found:
        plan = plan_candidate(clause)
        if plan:
            found.append(plan)
    return found
