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
    # "湖南长沙" / "四川南充": the city, not the province.
    province = re.match("(?:" + "|".join(PROVINCES) + r")(?:省)?(?=[\u4e00-\u9fff]{2})", raw)
    if province and not re.match(r"(?:人|的|省|这|那)", raw[province.end():]):
        raw = raw[province.end():]
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
    (re.compile(rf"我{_ADV}(?P<v>怀孕)"), "health"),
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
        return [_c("user.food_restrictions", value) for value in _items(raw)]
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
    return _c("user.plan", value, date=date.group())


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


# ---- issue 11: the personal-fact families (FACTS.md) -----------------------------------------
# Chinese drops the subject freely ("在中石化上班", "每天早上练书法"), so a rule accepts a clause
# whose predicate has no subject before it, or 我/本人 (after harmless adverbs and time words);
# anyone else before the predicate (我朋友, 同事, 他) means it is not the user's fact.
from layers.formation.extractor import attrs as A  # noqa: E402
from layers.formation.extractor.rules_en import _DRUG_SUFFIX, _LANGS  # noqa: E402

_ZH_ADV = (r"(?:现在|目前|一直|已经|也|还|平时|其实|刚|刚刚|最近|都|就|本来|真的|确实|正式|终于|早就|偏偏|可|"
           r"上个?月|上周|去年|前年|今年|这周|明年|下个?月|下周|年初|年底|\d{2,4}年|一般|通常|总是|常常|经常|每天|"
           r"马上|即将|快要|打算|准备|计划|要|会|正在|在|是|又|才|目前|暂时|基本上?|主要|从小|从来|一向|向来|前阵子|"
           r"这两年|这几年|这阵子|今天|昨天|明天|后来|然后|所以|因为|不过|但是?|而且|另外|对了|哈哈|嗯|啊|呀|有事|有急事|急事|"
           r"本科|研究生|硕士|博士|大学|比较|更|最|还是|从[\u4e00-\u9fffA-Za-z]{1,6}?(?=搬|跳槽|调)|"
           r"[，,、\s]|一直以来|一名|一个|个)")
_ZH_SUBJECT_TAIL = re.compile(rf"(?:^|我的?|本人|[：:—\-～~!！?？])(?:{_ZH_ADV})*$")
_ZH_OTHER = re.compile(r"他|她|它|朋友|同事|网友|邻居|同学|室友|客户|老板|领导|经理|大爷|大妈|有人|别人|人家|大家|我们|你|"
                       r"爸|妈|哥|姐|弟|妹|老公|老婆|女儿|儿子|孩子|爷爷|奶奶|外婆|外公|男朋友|女朋友|对象|闺蜜")


def zh_user_said(clause: str, start: int, *, allow_we: bool = False) -> bool:
    prefix = clause[:start]
    tail = prefix[-12:]
    if allow_we:
        tail = tail.replace("我们家", "我").replace("我们", "我")
    if _ZH_SUBJECT_TAIL.search(tail):
        # "我朋友说他…" fails; "我老公说我…在华为干" passes (the last subject is 我).
        last_me = tail.rfind("我")
        other = _ZH_OTHER.search(tail[last_me + 1:] if last_me >= 0 else tail)
        return other is None
    return False


_ORG_ZH = r"(?P<v>[A-Za-z][\w&.'-]*(?:\s[A-Z][\w&.'-]*)*|[\u4e00-\u9fff]{2,10}?)"
_ROLE_ZH_CAP = r"(?P<role>[\u4e00-\u9fffA-Za-z]{1,10}?)"
_ZH_LANGS = ("英语|英文|法语|法文|德语|日语|日文|韩语|西班牙语|俄语|意大利语|葡萄牙语|阿拉伯语|粤语|广东话|普通话|汉语|中文|"
             "闽南语|上海话|四川话|客家话|东北话|台语|潮汕话|温州话|朝鲜语|马来语|泰语|越南语|印尼语|荷兰语|瑞典语|希腊语|"
             "土耳其语|波兰语|手语")
_ZH_LANG_ANY = rf"(?:{_ZH_LANGS}|{_LANGS})"
_CHANNELS_ZH = (r"邮件|邮箱|email|e-mail|短信|打电话|电话|手机|微信|QQ|钉钉|飞书|LINE|Line|WhatsApp|Telegram|Slack|Teams|"
                r"面对面|留言|语音|视频|私信|calendar invite|push|iMessage")
_SPECIES_ZH = {"猫": "cat", "猫咪": "cat", "小猫": "cat", "猫主子": "cat", "狗": "dog", "狗狗": "dog", "小狗": "dog",
               "兔子": "rabbit", "小兔子": "rabbit", "兔": "rabbit", "乌龟": "turtle", "小乌龟": "turtle", "龟": "turtle",
               "仓鼠": "hamster", "金鱼": "fish", "鱼": "fish", "鹦鹉": "parrot", "鸟": "bird", "小鸟": "bird",
               "守宫": "gecko", "龙猫": "chinchilla", "蜥蜴": "lizard"}
_BREEDS_ZH = {"边牧": "dog", "泰迪": "dog", "柴犬": "dog", "金毛": "dog", "哈士奇": "dog", "柯基": "dog", "拉布拉多": "dog",
              "萨摩耶": "dog", "比熊": "dog", "博美": "dog", "法斗": "dog", "雪纳瑞": "dog", "中华田园犬": "dog", "土狗": "dog",
              "布偶": "cat", "布偶猫": "cat", "英短": "cat", "美短": "cat", "橘猫": "cat", "暹罗猫": "cat", "狸花猫": "cat",
              "加菲猫": "cat", "巴西龟": "turtle", "草龟": "turtle", "玄凤": "bird", "虎皮鹦鹉": "bird", "斗鱼": "fish",
              "dachshund": "dog", "corgi": "dog", "husky": "dog", "shiba": "dog", "golden": "dog", "poodle": "dog"}
_PET_ZH_ALT = "|".join(sorted(list(_SPECIES_ZH) + list(_BREEDS_ZH), key=len, reverse=True))
_PEOPLE_ZH = {**_ROLES, "老妈": "mother", "老爸": "father", "继父": "father", "后爸": "father", "继母": "mother",
              "哥": "older_brother", "姐": "older_sister", "弟": "younger_brother", "妹": "younger_sister",
              "对象": "partner", "闺蜜": "best_friend", "好朋友": "best_friend", "最好的朋友": "best_friend",
              "室友": "roommate", "舍友": "roommate", "同事": "colleague", "领导": "boss", "上司": "boss",
              "外婆": "grandmother", "姥姥": "grandmother", "外公": "grandfather", "姥爷": "grandfather",
              "小儿子": "son", "大儿子": "son", "小女儿": "daughter", "大女儿": "daughter", "娃": "child",
              "宝宝": "child", "孩子们": "child", "两个孩子": "child", "俩孩子": "child", "婆婆": "mother_in_law",
              "公公": "father_in_law", "岳母": "mother_in_law", "丈母娘": "mother_in_law", "岳父": "father_in_law",
              "未婚夫": "partner", "未婚妻": "partner", "爱人": "partner", "boss": "boss"}
_PEOPLE_ZH_ALT = "|".join(sorted(_PEOPLE_ZH, key=len, reverse=True))
_ZH_NAME_LIKE = (r"(?P<v>(?![一二三四五六七八九十两\d]|怀|生|住|爱|喜|做|当|得|患|身|工|上班|生日|岁|今年|明年|下个|上个|最近|现在|平时|每天|特别|非常|叫|是|今|在|也|都|说|很|特|超|刚|已|每|天|最|就|和|跟|上|下|又|还|从|把|被|让|给|对|不|没|会|要|想|这|那|去|来|的|有|经|正|过|比|挺|好)"
                 r"(?:(?:小|老|阿)[\u4e00-\u9fff]|[A-Z][a-z]+|[\u4e00-\u9fff]{2,3}(?=，|,|$|今年|是|在|已经|特别|喜欢|\d|[一二三四五六七八九十]+岁|刚|也|很|超|最|每)))")
_SURNAMES = set("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任"
                "沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
_CONDITIONS_ZH = (r"糖尿病|高血压|低血压|哮喘|心脏病|痛风|胃病|胃炎|癫痫|抑郁症|轻度抑郁|中度抑郁|抑郁|焦虑症|焦虑|贫血|过敏性鼻炎|"
                  r"鼻炎|低血糖|高血脂|甲亢|甲减|乙肝|偏头痛|关节炎|胃溃疡|肾病|肾结石|失眠症?|心律不齐|近视|颈椎病|腰椎间盘突出|"
                  r"湿疹|荨麻疹|痛经|多囊|甲状腺结节|脂肪肝|高尿酸|乳腺增生|腱鞘炎|腰肌劳损|强迫症|ADHD|adhd|anxiety|insomnia|"
                  r"depression|asthma|diabetes|migraine|IBS")


def _zc(key: str, value: str, **attributes) -> Candidate:
    return Candidate(key, value, 1.0, {k: v for k, v in attributes.items() if v not in (None, "", [])})


def _org_zh(raw: str) -> str | None:
    value = tidy_value(raw)
    if re.search(r"一家|一个|某|家小|个小", value):
        return None
    value = re.sub(r"^(?:了|在|到|去|进|一家|家)", "", value)
    if not value or value in _PLACE_BLOCK or re.match(r"一家|一个|某|不|没|这|那|哪|家里|公司|单位|外企|国企|私企|小公司|大厂", value):
        return None
    if has_question_word_zh(value) or len(value) > 12 or re.search(r"[了的呢吗]$", value):
        return None
    return value


def _zb_job(m, clause):
    raw = m.group("v")
    place = re.fullmatch(_CITY_ALT, raw)
    out = []
    if place:
        out.append(_zc("user.work_city", place.group()))
    else:
        org = _org_zh(raw)
        if org:
            out.append(_zc("user.employer", org))
    role = m.groupdict().get("role")
    if role:
        role = re.sub(r"^(?:了?[一二三四五六七八九十两\d]+年的?|兼职的?|全职的?|一名|个)", "", role)
        if role.startswith("兼职"):
            role = role[2:]
        role = re.sub(r"(?:工作|的工作|一职|的)$", "", role)
        if role and 1 < len(role) <= 8 and not re.search(r"[了着过吗呢]|什么|这|那", role):
            out.append(_zc("user.occupation", role))
    return out if any(c.memory_key != "user.occupation" for c in out) or (out and m.groupdict().get("role")) else []


def _zb_former(m, clause):
    if re.fullmatch(_CITY_ALT, tidy_value(m.group("v"))):
        return []  # "不在深圳工作了": a past work city, for which FACTS.md keeps nothing
    org = _org_zh(m.group("v"))
    return [_zc("user.former_employer", org)] if org else []


def _zb_occupation(m, clause):
    value = tidy_value(m.group("v"))
    value = re.sub(r"^(?:一名|一个|一位|个|名)", "", value)
    if not value or len(value) > 10 or re.search(r"什么|哪|这|那|不|的", value) or re.search(r"(?:学生|博士生|研究生|本科生)$", value):
        return []
    return [_zc("user.occupation", value)]


_DEGREES_ZH = r"本科|研究生|硕士|博士|博士后|MBA|master|Master|PhD|phd|大专|专科|在职研究生|EMBA|MPA|学士"


def _zb_education(m, clause):
    groups = m.groupdict()
    school = tidy_value(groups.get("v") or "")
    school = re.sub(r"(?:的)$", "", school)
    school = re.sub(r"^(?:我|本人)", "", school)
    if not school or len(school) > 14 or re.search(r"什么|哪|这|那", school):
        return []
    degree = {"本科生": "本科", "研究生": "研究生", "硕士生": "硕士", "博士生": "博士", "学生": None, "大学": None,
              "书": None, "研": "研究生", "博": "博士", "在读": None}.get(groups.get("deg") or "", groups.get("deg"))
    if not degree:
        found = re.search(rf"({_DEGREES_ZH}|读博)", clause)
        degree = ("博士" if found.group(1) == "读博" else found.group(1)) if found else None
    field_ = groups.get("field")
    if not field_:
        found = re.search(r"(?:专业是|方向是|学的是|读的是|主修|[，,]\s*学)(?P<f>[\u4e00-\u9fffA-Za-z ]{2,20})|(?P<g>[\u4e00-\u9fff]{2,6}?)(?:专业|系)", clause)
        if found:
            field_ = found.group("f") or found.group("g")
            if field_ and re.search(rf"{_DEGREES_ZH}|的", field_):
                field_ = re.sub(rf".*的", "", field_) or None
            if field_ and (field_ == school or field_ in school or school in field_):
                field_ = None
        if field_ is None:
            found = re.search(r"读(?P<f>[A-Za-z][A-Za-z ]+)", clause)
            field_ = found.group("f").strip() if found and not re.match(_DEGREES_ZH, found.group("f")) else None
    status = "graduated" if re.search(r"毕业", clause) and not re.search(r"明年毕业|快毕业|今年毕业|要毕业", clause) else \
        "studying" if re.search(r"在读|读|上学|学生|大[一二三四]|研[一二三]|高[一二三]|在上", clause) else None
    if re.search(r"考上|录取", clause):
        status = None
    if field_:
        field_ = tidy_value(field_)
    return [_zc("user.education", school, degree=degree, field=field_, status=status)]


def _zb_place(key):
    def build(m, clause):
        value = _place(m.group("v"))
        if not value:
            return []
        return [_zc(key, value)]
    return build


def _zb_hometown_person(m, clause):
    raw = m.group("v")
    value = re.sub(r"^(?:土生土长的|地道的|正宗的|纯正的)", "", raw)
    if not re.search(_CITY_ALT, value) and value not in ("东北", "广东", "北方", "南方"):
        return []
    return [_zc("user.hometown", value)]


def _zb_allergy(m, clause):
    raw = tidy_value(m.group("v"))
    raw = re.sub(r"^(?:对|是|有|吃|碰)", "", raw)
    raw = re.sub(r"(?:严重|特别|非常|很|有点|有些|轻微|轻度|都|也)$", "", raw)
    out = []
    for part in _LIST_SPLIT.split(raw):
        part = part.strip()
        if not part or re.search(r"[我你他她不没]|工作|上班|什么|东西|人|过敏", part) or len(part) > 10:
            continue
        out.append(_zc("user.allergies", part))
    return out


def _zb_condition(m, clause):
    value = tidy_value(m.group("v"))
    out = [_zc("user.health_conditions", value)]
    return out


def _zb_medication(m, clause):
    drug = tidy_value(m.group("v"))
    drug = re.sub(r"^(?:抗过敏药|降压药的?|药)", "", drug) or drug
    if not drug or len(drug) > 10:
        return []
    if not (re.search(r"[林平汀乐定素酮唑胺醇霉沙星丁宁钠钾酸胍芬嗪松龙辛尔坦利]$|药$|片$|胶囊$|颗粒$|喷雾$", drug) or _DRUG_SUFFIX.search(drug)):
        return []
    dose = re.search(r"[一二两三半\d]+(?:片|粒|颗|毫克|mg|ml|单位|支)", clause)
    schedule = re.search(r"每天(?:早上|晚上|睡前|中午)?|每晚|一天[一两二三四]次|一天[一两二三]片|一周[一两二三]次|睡前", clause)
    return [_zc("user.medications", drug, dose=dose.group() if dose else None, schedule=schedule.group() if schedule else None)]


def _zb_diet(value):
    def build(m, clause):
        return [_zc("user.diet", value or tidy_value(m.group("v")))]
    return build


def _zb_restriction(m, clause):
    raw = tidy_value(m.group("v"))
    raw = re.sub(r"^(?:吃|喝|碰)", "", raw)
    out = []
    for part in _LIST_SPLIT.split(raw):
        part = _TRAILING.sub("", part.strip())
        part = re.sub(r"(?:一点都不行|一滴都不沾|都不行|也不行|就不行)$", "", part)
        if not part or re.match(r"[就也都了还完饱下]", part) or len(part) > 8 or re.search(r"[我你他她]|什么|东西|饭$|了$|早饭|午饭|晚饭|这|那", part):
            continue
        out.append(_zc("user.food_restrictions", part))
    return out


def _zb_like(key):
    def build(m, clause):
        value = _object(m.group("v"))
        if not value:
            return []
        value = re.split(r"，|,|但|可是|不过", value)[0]
        value = re.sub(r"^(?:上了|上|的)", "", value)
        if not value or re.match(r"(?:你|您|他|她|这样|那样|一个人|去|吃饭$)", value) and key == "user.likes" and value != "一个人待着":
            if value != "一个人待着":
                return []
        return [_zc(key, value)]
    return build


def _zb_language_clause(clause: str) -> list[Candidate]:
    if not re.search(r"母语|会说|会讲|能说|说得|讲得|在学|学了?|N[1-5]|流利|溜|几句|一点点?|还行|还okay|课|专业|native|fluent|"
                     r"一般|不太地道|标准|长大|日常交流|听得懂|看得懂|零基础|备考|考|level", clause):
        return []
    out = []
    spans = list(re.finditer(_ZH_LANG_ANY, clause))
    for i, match in enumerate(spans):
        lang = match.group()
        before = clause[spans[i - 1].end() if i else 0:match.start()]
        after = clause[match.end():spans[i + 1].start() if i + 1 < len(spans) else len(clause)]
        after = re.split(r"[，,。]", after)[0]
        before = re.split(r"[，,。]", before)[-1]
        near = before + "|" + after
        level = None
        if re.search(r"母语|native|从小说|长大", near) or (re.search(r"都是母语", clause) and i + 1 < len(spans)):
            level = "native"
        elif re.search(r"流利|溜|N1|fluent|精通|熟练", near):
            level = "fluent"
        elif re.search(r"在学|学习|报了|课|零基础|备考|Duolingo|duolingo|在上", near):
            level = "learning"
        elif re.search(r"几句|一点|入门|皮毛|basic|基础", near):
            level = "basic"
        if re.search(r"都是母语", clause):
            level = "native"
        if re.search(r"没学过|不会|一句都", near):
            continue
        out.append(_zc("user.languages", lang, level=level))
    return out


def _zb_contact(m, clause):
    value = tidy_value(m.group("v"))
    return [_zc("user.contact_preference", value)] if value else []


def _zb_name(m, clause):
    value = re.sub(r"(?:就行|就好|就可以|吧|好了)$", "", tidy_value(m.group("v")))
    if not value or has_question_word_zh(value) or re.search(r"[的了是在有个]", value):
        return []
    if re.fullmatch(r"[\u4e00-\u9fff]+", value) and not (value[0] in _SURNAMES or value[0] in "小阿老"):
        return []
    if re.search(rf"(?:{_PROFESSIONS})$|人$|控$|迷$", value):
        return []
    return [_zc("user.name", value)]


def _zb_age(m, clause):
    age = A.plausible_age(A.zh_int(m.group("v")), low=5)
    return [_zc("user.age", str(age))] if age else []


def _zb_date(key, kind=None):
    def build(m, clause):
        value = tidy_value(m.group("v"))
        if not value or not (A.zh_date(value) or re.search(r"[\d一二三四五六七八九十]+[月号日]|初[一二三四五六七八九十]|今天|明天", value)):
            return []
        extra = {}
        if key == "user.anniversary":
            kind_found = m.groupdict().get("type") or kind
            if not kind_found:
                found = re.search(r"结婚|恋爱|相识|订婚", clause)
                kind_found = found.group() if found else None
            extra["type"] = kind_found
        return [_zc(key, value, **extra)]
    return build


def _zb_pet(m, clause):
    word = m.group("sp")
    species = _SPECIES_ZH.get(word) or _BREEDS_ZH.get(word)
    if not species:
        return []
    breed = word if word in _BREEDS_ZH else None
    if word == "金鱼":
        breed = "金鱼"
    rest = clause[m.end():]
    names = []
    listed = re.match(r"[：:]\s*(?P<l>[\u4e00-\u9fffA-Za-z、，, 和]+)", rest)
    if listed:
        names = [n for n in re.split(r"[、，, 和]+", listed.group("l")) if n]
    else:
        name = m.groupdict().get("v") or ""
        if not name:
            later = re.search(r"(?:它|他|她)?(?:叫做|名叫|叫|的名字是)(?P<n>[\u4e00-\u9fff]{1,4}|[A-Z][a-z]+)", rest)
            if later and not re.search(r"没|还没", rest[:later.start()]):
                name = later.group("n")
        names = [name]
    age = re.search(rf"(?P<n>{A.ZH_NUMBER})岁", rest)
    age_value = A.zh_int(age.group("n")) if age else None
    out = []
    for name in names:
        name = re.sub(r"(?:了|啊|呀|的)$", "", name)
        if name and re.match(r"还没|没有|取名|名字", name):
            name = ""
        out.append(_zc(f"user.pet.{species}", name, breed=breed, age=age_value))
    return out


def _zh_person_attrs(rest: str) -> dict:
    out: dict = {}
    rest = re.split(r"[。！？!?]", rest)[0]
    age = re.search(rf"(?:今年|满|已经|刚)?(?P<n>{A.ZH_NUMBER})多?(?:周岁|岁|大寿|了[，,。]|了$)", rest)
    if age:
        value = A.plausible_age(A.zh_int(age.group("n")), low=0)
        if value is not None:
            out["age"] = value
    occupation = re.search(rf"(?:是|当)(?:一名|个|一个)?(?P<v>(?:退休)?[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_PROFESSIONS}|消防员|厨师|医生|老师))|是做(?P<w>[\u4e00-\u9fffA-Za-z]{{1,10}}?)的", rest)
    if occupation:
        out["occupation"] = occupation.group("v") or occupation.group("w")
    likes = re.search(r"(?:特别|超|很|最|非常)?(?:喜欢|爱|迷上了|热爱)(?P<v>[^，,。!！?？]{1,10})|(?:天天|每天|整天|就知道)(?:去|在)?(?P<w>[^，,。!！?？]{2,8})", rest)
    if likes:
        value = likes.group("v") or likes.group("w")
        value = re.sub(r"^(?:上了|上|看|追)?", lambda x: x.group() if x.group() in ("看",) else "", value) if value else value
        out["likes"] = _TRAILING.sub("", value) if value else None
    birthday = re.search(r"生日是(?P<v>[^，,。]+)|(?P<w>[^，,。]{2,8}?)(?:过生日|过[\u4e00-\u9fff]{1,3}大寿|生日)", rest)
    if birthday:
        out["birthday"] = tidy_value(birthday.group("v") or birthday.group("w"))
    return {k: v for k, v in out.items() if v}


def _zb_person(m, clause):
    role = _PEOPLE_ZH.get(m.group("role"))
    if not role or role.endswith("_in_law"):
        return []
    name = m.groupdict().get("v") or ""
    rest = clause[m.end():]
    if not name:
        named = re.match(r"(?:的名字)?(?:叫做|名叫|叫|是叫)(?P<n>[\u4e00-\u9fff]{1,4}|[A-Z][a-zA-Z]+)", rest)
        if named:
            name = named.group("n")
            rest = rest[named.end():]
    if name and re.match(r"[了过着他她它你是在也都就说]", name):
        name = ""
    if not name:
        later = re.search(r"^[^。！？!?]*?[，,]\s*(?:她|他)?(?:的名字)?叫(?P<n>[\u4e00-\u9fff]{2,3}|[A-Z][a-z]+)", rest)
        if later:
            name = later.group("n")
    return [_zc(f"user.relationship.{role}", name, **_zh_person_attrs(rest))]


_PLAN_VERB_ZH = re.compile(r"去|回|飞|出差|搬家|搬|参加|考|面试|结婚|旅游|旅行|看病|体检|开会|会议|见|拜访|出发|出国|手术|复查|报到|"
                           r"入职|航班|机票|约了|带|休|开始|开课|自驾|婚礼|比赛|演唱会|答辩|毕业|出游|打疫苗|订了")


def zh_plan_candidates(clause: str) -> list[Candidate]:
    date = A.zh_date(clause)
    if not date:
        return []
    start = clause.find(date)
    if not zh_user_said(clause, start, allow_we=True) and not zh_user_said(clause, 0, allow_we=True):
        return []
    rest = clause[start + len(date):]
    if re.match(r"上|去年|昨天|前天|前年|早些|之前", date) or re.search(r"每|天天|一般|通常|习惯|平时|总是|过生日|岁|生日|纪念日|结婚的|毕业|喜欢|爱", clause):
        return []
    if not _PLAN_VERB_ZH.search(rest) or re.search(r"不|没|别|生日|纪念日|每", rest[:6]):
        return []
    body = re.sub(r"^(?:的|我们?|要|会|打算|准备|计划|得|就|也|还|正式|要去)+", "", rest)
    body = re.sub(r"^(?:的)", "", body)
    body = re.split(r"[，,。!！?？~～]", body)[0]
    body = tidy_value(body)
    if not body or len(body) < 2:
        return []
    dest = re.search(rf"(?:去|到|飞|回|飞往|前往|在)(?:老家)?(?:一趟)?(?P<d>{_CITY_ALT}|{_COUNTRIES_ZH}|[A-Z][\w]*(?:\s[A-Z][\w]*)*|[\u4e00-\u9fff]{{2,4}}?)(?=出差|看|玩|过|见|考|旅|参加|开|度|吃|留学|读书|工作|定居|生活|拜访|探亲|$|[，,。])", rest)
    destination = None
    if dest:
        destination = dest.group("d")
        if re.match(r"一趟|公司|医院|学校|那边|这边|上班|面试|考试", destination):
            destination = None
    return [_zc("user.plan", body, date=date, destination=destination)]


def zh_habit_candidates(clause: str, context: str | None = None) -> list[Candidate]:
    freq = A.frequency(clause)
    days = A.weekdays(clause)
    habitual = re.search(r"习惯|一般|通常|平时|总是|雷打不动|坚持|每|天天|都会|都要|都去|喜欢", context or clause)
    if not (freq or (days and habitual) or (habitual and A.time_of_day(clause))):
        return []
    if not zh_user_said(clause, 0) and not re.match(r"^(?:我|每|周|星期|礼拜|早上|晚上|中午|下午|平时|一般|通常)", clause):
        return []
    time = A.time_of_day(clause)
    body = re.sub(r"每?(?:周|星期|礼拜)[一二三四五六日天](?:[到至-](?:周|星期|礼拜)?[一二三四五六日天])?[一二三四五六日天、和]*|每?个?周末|工作日", "", clause)
    for pattern in (A.ZH_FREQ, A.ZH_TIME):
        body = pattern.sub("", body)
    body = re.sub(r"^(?:我|本人)|(?:习惯|一般|通常|平时|总是|雷打不动|都会|都要|都|会|准时|已经坚持.*|坚持.*|一次|的|喜欢)", "", body)
    body = re.sub(r"^(?:我|和朋友|跟朋友|去一家|去|都|会|都会|每天|早上|晚上)+", "", body)
    body = re.split(r"[，,。!！?？~～]", body)[0]
    body = re.sub(r"[半一两二三四五六七八九十\d]+(?:个)?(?:小时|分钟|钟头)", "", body)
    body = tidy_value(body)
    if not body or len(body) > 14 or re.search(r"什么|吗|呢|不|没", body):
        return []
    if re.search(r"吃.*药|药", body):
        return []
    return [_zc("user.habits", body, time=time, weekdays=days, frequency=freq)]


_COUNTRIES_ZH = ("日本|韩国|美国|英国|法国|德国|泰国|澳洲|澳大利亚|加拿大|意大利|西班牙|欧洲|冰岛|新西兰|越南|马来西亚|"
                 "印尼|巴厘岛|云南|西藏|新疆|海南|青海湖|九寨沟|张家界|黄山|泰山|迪士尼|北海道")
_PEOPLE_COUNT_RULE = re.compile(rf"(?:我有|有|家里有)(?P<n>一个|两个|三个|俩|个)(?:(?P<age>{A.ZH_NUMBER})岁的)?(?P<role>孩子|女儿|儿子|哥哥|姐姐|弟弟|妹妹|娃)")
_ZH_FACT_RULES: list[tuple[re.Pattern, object]] = [
    # employment
    (re.compile(rf"在{_ORG_ZH}(?:做|当|干|任|担任|搞|实习)(?:了?[一二三四五六七八九十两\d]+年)?(?:兼职)?{_ROLE_ZH_CAP}(?=$|[，,。!！~～;；、\s]|了|啦|呀|哦|😂|😅)"), _zb_job),
    (re.compile(rf"在{_ORG_ZH}(?:上班|工作|打工|就职|任职)"), _zb_job),
    (re.compile(rf"(?:就职于|供职于|任职于|受雇于){_ORG_ZH}(?:[，,]\s*任(?P<role>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?:一职)?)?(?=$|[，,。])"), _zb_job),
    (re.compile(rf"(?:入职了?|加入了?|跳槽到了?|跳槽去了?|换到了?|去(?=[^，,。]{{2,10}}?(?:报到|上班|入职))|进了?(?=[^，,。]{{2,10}}?(?:工作|上班|$))){_ORG_ZH}(?:(?:报到|上班)?[，,]?\s*(?:岗位是|职位是|做|当|担任)(?P<role>[\u4e00-\u9fffA-Za-z]{{2,8}}))?(?=$|[，,。]|报到|上班|了)"), _zb_job),
    (re.compile(rf"拿到了?{_ORG_ZH}的offer"), _zb_job),
    (re.compile(rf"从{_ORG_ZH}(?:离职|辞职|跳槽|出来|裸辞)"), _zb_former),
    (re.compile(rf"是{_ORG_ZH}的(?:员工|正式员工|实习生)"), _zb_job),
    (re.compile(rf"(?:离开了?|辞掉了?|不在){_ORG_ZH}(?:了|干了|工作了|上班了|的工作|[，,。]|$)"), _zb_former),
    (re.compile(rf"(?:之前|以前|曾经)在{_ORG_ZH}(?:干了|工作了|上了|待了|做了)"), _zb_former),
    (re.compile(rf"离开那个[\u4e00-\u9fff]{{0,4}}公司了?[——\-，,\s]*(?P<v>[\u4e00-\u9fffA-Za-z]{{2,8}})"), _zb_former),
    (re.compile(rf"(?:岗位是|职位是|职业是|工作是)(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,10}})"), _zb_occupation),
    (re.compile(rf"(?:现在在做|在做|当了?|做了?)(?P<v>(?:freelance |自由)?[\u4e00-\u9fffA-Za-z ]{{0,8}}?(?:{_PROFESSIONS}|consultant|designer|engineer|顾问|咨询|中介|师|员))(?=$|[，,。]|了)"), _zb_occupation),
    (re.compile(rf"(?:是|当)(?:一名|一个|一位|个|名)?(?P<v>[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_PROFESSIONS}|医生|护士|老师|兽医|中介|咨询师|工程师|设计师|程序员|会计))(?=$|[，,。!！~～\s]|了|啦|呀|哦)"), _zb_occupation),
    (re.compile(r"是(?:做|搞|干)(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:工作)?的"), _zb_occupation),
    # education
    (re.compile(rf"在(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?:读|念|上(?=学|大学|课|{_DEGREES_ZH}))(?P<deg>{_DEGREES_ZH}|书|大学|研|博)?"), _zb_education),
    (re.compile(rf"(?:读|念)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的(?P<deg>{_DEGREES_ZH})"), _zb_education),
    (re.compile(rf"(?P<deg>{_DEGREES_ZH})?毕业于(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?=$|[，,。]|(?P<field>[\u4e00-\u9fff]{{2,6}})系)"), _zb_education),
    (re.compile(rf"(?:是|从)(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,10}}?)(?:(?P<field>[\u4e00-\u9fff]{{2,6}})(?:系|专业))?毕业的"), _zb_education),
    (re.compile(rf"(?:考上了?|被)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?)的?(?:(?P<deg>{_DEGREES_ZH}))?(?:录取)?"), _zb_education),
    (re.compile(rf"是(?P<v>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?P<field>[\u4e00-\u9fff]{{2,5}})系(?:大[一二三四]|研[一二三])的?学生"), _zb_education),
    (re.compile(r"(?:现在|目前|在读|读|上)?(?P<v>高[一二三]|初[一二三])(?=$|[，,。]|了)"), _zb_education),
    (re.compile(rf"是(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?(?:大学|学院|大|交大|师大|理工|科大|中学|高中))的?(?P<deg>本科生|研究生|硕士生|博士生|学生|大[一二三四]学生|研[一二三]学生|在读)"), _zb_education),
    (re.compile(rf"从(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)毕业"), _zb_education),
    (re.compile(rf"(?P<deg>{_DEGREES_ZH}|大学)?(?:读的是|上的是|念的是|考的是)(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?=$|[，,。!！]|的)"), _zb_education),
    (re.compile(rf"(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?(?:大学|学院|大|交大|师大|理工|科大|中学|高中|University|College))(?P<deg>{_DEGREES_ZH})?毕业"), _zb_education),
    (re.compile(rf"(?P<deg>{_DEGREES_ZH})(?:是|也是)?在(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?:读|念|上)的?"), _zb_education),
    (re.compile(rf"(?P<v>大专|本科|中专|高中)毕业"), _zb_education),
    (re.compile(rf"(?:读的是|在读)(?P<deg>在职研究生|{_DEGREES_ZH})[，,]\s*(?P<v>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的"), _zb_education),
    # places
    (re.compile(r"(?:住在|住|定居在|定居|家住|家在|base在|生活在|居住在|落户)(?P<v>[^，,。.!！?？;；的]+)"), _zb_place("user.home_city")),
    (re.compile(r"在(?P<v>[^，,。.!！?？;；的在]{2,8}?)(?:住|定居|安家|生活)"), _zb_place("user.home_city")),
    (re.compile(r"(?:搬到|搬去|搬家到|搬来|搬回|留在)(?:了)?(?P<v>[^，,。.!！?？;；的]+)"), _zb_place("user.home_city")),
    (re.compile(rf"(?:单位在|公司在|办公室在|上班在)(?P<v>{_CITY_ALT})"), _zb_place("user.work_city")),
    (re.compile(rf"去(?P<v>{_CITY_ALT})(?:公司|总部|办公室)?(?:上班|坐班|打卡)"), _zb_place("user.work_city")),
    (re.compile(r"(?:老家是|老家在|来自|老家)(?P<v>[^，,。.!！?？;；的]+)"), _zb_place("user.hometown")),
    (re.compile(r"(?:从小|小时候)?在(?P<v>[^，,。.!！?？;；]+?)长大"), _zb_place("user.hometown")),
    (re.compile(r"是(?P<v>[A-Z][A-Za-z ]+?)长大的"), lambda m, c: [_zc("user.hometown", m.group("v").strip())]),
    (re.compile(rf"是(?P<v>(?:土生土长的|地道的|正宗的)?(?:[\u4e00-\u9fff]{{0,3}}?(?:{_CITY_ALT})|东北|广东))人"), _zb_hometown_person),
    (re.compile(rf"是(?:东北|北方|南方)人[，,]\s*(?P<v>{_CITY_ALT})的"), _zb_place("user.hometown")),
    (re.compile(rf"^(?:我)?是(?P<v>{_CITY_ALT})的(?=$|[，,。])"), _zb_place("user.hometown")),
    # allergies and health
    (re.compile(r"对(?P<v>[^，,。.!！?？;；]+?)(?:都|也)?(?:严重|特别|非常|很|有点|有些|轻微|轻度|超级?)?过敏"), _zb_allergy),
    (re.compile(r"(?:吃|喝|碰|用|接触)(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:就|会|都会|就会)(?:过敏|起疹子|起红疹|浑身痒|喉咙肿)"), _zb_allergy),
    (re.compile(r"(?:^|我|是|有|说是)(?P<v>[\u4e00-\u9fffA-Za-z]{1,8}?)过敏(?!性|药)"), _zb_allergy),
    (re.compile(r"有(?:严重的|轻微的)?(?P<v>[A-Za-z ]+?)\s*allergy"), _zb_allergy),
    (re.compile(r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:手套|衣服)?(?:我)?(?:不能吃|不能用|碰不了|穿不了|戴不了|用不了|吃不了)[^，。]*[，,]\s*(?:我)?(?:一[穿戴吃用碰]就[^，。]*[，,]\s*)?(?:医生说是[^，。]*)?过敏"), _zb_allergy),
    (re.compile(r"避开(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)[啊呀哦]?[，,]\s*我过敏"), _zb_allergy),
    (re.compile(rf"(?:有|患有|得了|查出了?|确诊了?|诊断出)(?P<v>{_CONDITIONS_ZH})"), _zb_condition),
    (re.compile(rf"(?:^|我)(?:有点|有些|有|轻度)?(?P<v>近视|{_CONDITIONS_ZH})"), _zb_condition),
    (re.compile(r"(?P<v>血压|血糖|血脂|尿酸|胆固醇)(?:有点|偏|比较|很)?高"), lambda m, c: [_zc("user.health_conditions", {"血压": "高血压", "血糖": "高血糖", "血脂": "高血脂", "尿酸": "高尿酸", "胆固醇": "高胆固醇"}[m.group("v")])]),
    (re.compile(r"(?:怀孕|怀了)"), lambda m, c: [_zc("user.health_conditions", "怀孕")]),
    (re.compile(r"(?:在吃|在服用|在打|每天吃|每天打|吃的是|开了|一直在吃|每天早上吃|每晚吃|睡前吃)(?:[一二两三半\d]+(?:片|粒|颗|毫克|mg))?(?P<v>[\u4e00-\u9fffA-Za-z]{2,14})"), _zb_medication),
    # food
    (re.compile(r"(?:吃素|只吃素|改吃素|素食者|素食主义者|是素食|全素)"), _zb_diet("素食")),
    (re.compile(r"(?P<v>蛋奶素|纯素|清真|生酮|low carb|low-carb|vegetarian|vegan|keto|pescatarian|轻断食|低碳水)"), _zb_diet(None)),
    (re.compile(r"(?:不吃|不能吃|吃不了|不喝|不能喝|喝不了|从不吃|从来不吃|戒了|少吃|不碰|不沾|忌口|不太能吃|不怎么吃|很少吃|吃不惯|不敢吃)(?P<v>[^，,。.!！?？;；]+)"), _zb_restriction),
    (re.compile(r"戒(?P<v>[\u4e00-\u9fff]{1,3})了"), _zb_restriction),
    (re.compile(r"乳糖不耐受?"), lambda m, c: [_zc("user.food_restrictions", "乳糖")]),
    # likes and dislikes
    (re.compile(r"(?P<neg>(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮)*(?:不太喜欢|不喜欢|不爱|讨厌|受不了|反感|厌恶|最烦|烦|怕))(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.dislikes")),
    (re.compile(r"对(?P<v>[^，,。.!！?？;；]+?)(?:完全|一点)?无感"), _zb_like("user.dislikes")),
    (re.compile(r"(?:很|非常|特别|超|超级|最|挺|真的|也|还|比较|十分|相当|蛮|好|更)*(?:喜欢|爱|热爱|偏爱|钟爱|迷上了|爱上了|沉迷)(?P<v>[^，,。.!！?？;；]+)"), _zb_like("user.likes")),
    (re.compile(r"(?P<v>[\u4e00-\u9fffA-Za-z]{1,8})是我的最爱|是个(?P<w>[\u4e00-\u9fffA-Za-z]{1,6})控|(?:资深|骨灰级)(?P<x>[\u4e00-\u9fffA-Za-z]{2,6})"), lambda m, c: [_zc("user.likes", m.group("v") or m.group("w") or m.group("x"))]),
    # contact
    (re.compile(r"(?P<v>(?:别|不要|请勿|请不要)(?:给我|跟我)?打(?:我)?电话)"), lambda m, c: [_zc("user.contact_preference", "别打电话")]),
    (re.compile(rf"(?<![别不要勿看用])(?:用|发|走|找我用|联系我用|用的是|打)(?P<v>{_CHANNELS_ZH})(?:比较方便|比较好|联系|沟通|吧|就行|就好|给我|找我)?"), _zb_contact),
    (re.compile(rf"(?P<v>{_CHANNELS_ZH})上?(?:说|聊|找我|联系|沟通)(?:就行|就好|吧|比较好|最好|方便)"), _zb_contact),
    (re.compile(rf"(?:喜欢|习惯|更喜欢|偏好)(?P<v>{_CHANNELS_ZH})(?:聊|沟通|联系)?"), _zb_contact),
    (re.compile(rf"^(?P<v>打电话|发邮件|发短信|发微信)吧"), _zb_contact),
    (re.compile(rf"(?P<v>{_CHANNELS_ZH}|消息)(?:联系我|找我|call我|跟我联系|和我联系|沟通)"), _zb_contact),
    (re.compile(rf"(?:发我|发到我的?|打我的?)(?P<v>{_CHANNELS_ZH})"), _zb_contact),
    (re.compile(rf"(?:发|用|打)(?P<v>{_CHANNELS_ZH}|消息)(?:就行|就好|就可以|吧|比较好|最好|方便)"), _zb_contact),
    (re.compile(r"(?P<v>(?:晚上|早上|周末|工作时间|上班时间|[\u4e00-\u9fff\d]{1,6}点以后|[\u4e00-\u9fff\d]{1,6}点之后)[^，,。]{0,6}?(?:别|不要|不要给我)(?:打电话|打扰我?|发消息|联系我?|找我))"), _zb_contact),
    (re.compile(r"(?P<v>有急事[^，,。]{0,4}打[^，,。]{0,4}手机|急事打手机)"), lambda m, c: [_zc("user.contact_preference", "急事打手机")]),
    (re.compile(r"(?:不急的|其他的?)(?P<v>留言)"), _zb_contact),
    (re.compile(r"请用(?P<v>中文|英文|英语|普通话)(?:跟我|和我)?(?:沟通|交流|回复|聊)"), _zb_contact),
    (re.compile(r"(?:提醒的话|提醒我的话)[^，,。]*?(?:在|用)?(?P<v>前一天晚上|短信|邮件|微信|电话)"), lambda m, c: [_zc("user.contact_preference", m.group("v") + ("提醒" if m.group("v") == "前一天晚上" else ""))]),
    # personal
    (re.compile(r"(?:我叫|我的名字是|我的名字叫|名字叫|本名叫|本名|中文名叫?|英文名叫?|叫我)(?P<v>[\u4e00-\u9fff]{2,4}|[A-Z][a-z]+)"), _zb_name),
    (re.compile(r"(?:^|[，,])叫(?P<v>[\u4e00-\u9fff]{2,3})(?=$|[，,。])"), _zb_name),
    (re.compile(r"(?:本人|我是)(?P<v>[\u4e00-\u9fff]{2,3})(?=$|[，,。])"), _zb_name),
    (re.compile(rf"(?:今年|刚满|满|已经|快)?(?P<v>{A.ZH_NUMBER})(?:周?岁)(?:了)?(?!的)"), _zb_age),
    (re.compile(rf"今年(?P<v>{A.ZH_NUMBER})(?=了|$|[，,])"), _zb_age),
    (re.compile(r"(?:生日是|生日在|生日)(?P<v>[^，,。!！?？😂]+?)(?=$|[，,。!！?？]|，|刚|[\U0001F300-\U0001FAFF])"), _zb_date("user.birthday")),
    (re.compile(r"今天是我(?:的)?生日"), lambda m, c: [_zc("user.birthday", "今天")]),
    (re.compile(r"(?:(?P<type>恋爱|结婚|相识|订婚)?纪念日|anniversary)是(?P<v>[^，,。!！?？]+)"), _zb_date("user.anniversary")),
    (re.compile(r"是(?P<v>[^，,。]*?(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日])(?P<type>结婚|领证|在一起)的"), _zb_date("user.anniversary")),
    (re.compile(r"(?P<v>[^，,。]{2,10}?)是我们(?P<type>结婚|恋爱)[^，,。]*纪念日"), _zb_date("user.anniversary")),
]
_ZH_PERSON_RULE = re.compile(rf"(?:(?<=我)|(?<=我的)|(?<=我家)|(?<=我家的)|^|(?<=[，,、和跟带陪给替帮]))(?P<role>{_PEOPLE_ZH_ALT})(?:{_ZH_NAME_LIKE.replace('(?P<v>', '(?P<v>', 1)})?")
_ZH_PET_RULE = re.compile(rf"(?:(?:我|我的|我家|我们家|家里|家)(?:的)?(?:养了|有|养的)?|养了|领养了|有|捡了|带)(?:一只|只|一条|条|两只|三只|一缸|一对|俩)?(?P<sp>{_PET_ZH_ALT})(?:的名字)?(?:叫做|名叫|叫)?(?P<v>[\u4e00-\u9fff]{{1,3}}(?=[，,。]|$|今年|特别|是|已经)|[A-Z][a-z]+)?")
_ZH_ROLE_FREE = re.compile(r"^(?:老公|老婆|同事|闺蜜|室友|对象|老板|领导)")
_ZH_SUBJECT_FREE_FAMILIES = {"habits"}


_SEGMENT_LEAD = re.compile(rf"^(?:{_ZH_ADV}|每天|每周|周末|早上|晚上|中午|下午|上午)*")
_OTHER_OWNER = re.compile(rf"^(?:我(?:的|家的?)?(?:{_PEOPLE_ZH_ALT})|我(?:朋友|同事|同学|邻居|室友|们小区|们公司|们组|们新来的)|"
                          rf"(?:{_PEOPLE_ZH_ALT})(?!.*我)|他|她|它|有个|有人|听说|朋友|同事|网友|邻居|大家|别人|人家|[A-Z][a-z]+(?:\s|说|的))")


def zh_segments(clause: str) -> list[tuple[str, bool]]:
    """Comma-separated parts with whether each is (still) about the user: Chinese carries the
    subject of "我爸今年刚退休，现在天天去钓鱼" into the second part, so it is the father's habit."""
    out, owner_user = [], True
    for part in re.split(r"(?<=[，,；;])", clause):
        bare = part.strip()
        if not bare:
            continue
        lead = _SEGMENT_LEAD.sub("", bare)
        if _OTHER_OWNER.match(lead):
            owner_user = False
        elif lead.startswith(("我", "本人")) or re.match(r"^(?:我|本人)", bare):
            owner_user = True
        out.append((bare.rstrip("，,；;"), owner_user))
    return out


def zh_fact_candidates(clause: str) -> list[Candidate]:
    found: list[Candidate] = []
    segments = zh_segments(clause)
    offset = 0
    for index, (segment, mine) in enumerate(segments):
        context = "，".join(seg for seg, _ in segments[index:])
        if not mine:
            continue
        taken: list[tuple[int, int, str]] = []
        for pattern, build in _ZH_FACT_RULES:
            for match in pattern.finditer(segment):
                home = getattr(build, "__qualname__", "").startswith(("_zb_place", "_zb_date"))
                if not zh_user_said(segment, match.start(), allow_we=home):
                    continue
                candidates = build(match, context)
                if not candidates:
                    continue
                family = candidates[0].memory_key.split(".")[1]
                span = match.span()
                if any(span[0] < end and start < span[1] and fam == family for start, end, fam in taken):
                    continue
                taken.append((*span, family))
                found.extend(candidates)
        found.extend(c for c in _zb_language_clause(segment)
                     if not any(f.memory_key == c.memory_key and f.value == c.value for f in found))
        if not any(c.memory_key in ("user.habits", "user.medications") for c in found):
            found.extend(zh_habit_candidates(segment, context))
        if not any(c.memory_key == "user.plan" for c in found):
            found.extend(zh_plan_candidates(segment))
    for match in _PEOPLE_COUNT_RULE.finditer(clause):
        if zh_user_said(clause, match.start()) and not re.search(r"没", clause[:match.start()]):
            role = _PEOPLE_ZH.get(match.group("role"), "child")
            age = A.zh_int(match.group("age")) if match.group("age") else None
            found.append(_zc(f"user.relationship.{role}", "", age=age))
    for match in _ZH_PERSON_RULE.finditer(clause):
        start = match.start()
        if start == 0 or clause[start - 1] in "，,、我的家" or (clause[start - 1] in "和跟带陪给替帮" and "我" in clause[max(0, start - 4):start]):
            if start == 0 and not _ZH_ROLE_FREE.match(clause) and match.group("role") not in ("老妈", "老爸"):
                continue
            found.extend(_zb_person(match, clause))
    for match in _ZH_PET_RULE.finditer(clause):
        if zh_user_said(clause, match.start()) or clause[:match.start()].endswith(("我", "我的", "我家")) or match.start() == 0:
            found.extend(_zb_pet(match, clause))
            break
    return found
