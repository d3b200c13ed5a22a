"""Health: allergies, conditions, medications (dose, schedule)."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_en.health import _DRUG_SUFFIX
from layers.formation.extractor.rules_zh.common import (
    _ADV,
    _LIST_SPLIT,
    _c,
    _items,
    _zc,
)
from layers.formation.extractor.rules_zh.family import _ROLES
from layers.formation.extractor.rules_zh.pos import split_compound
from layers.formation.extractor.text import tidy_value

_CONDITIONS = ("糖尿病|高血压|哮喘|心脏病|乳糖不耐受?|痛风|胃病|癫痫|抑郁症|焦虑症|贫血|过敏性鼻炎|低血糖|高血脂|"
               "甲亢|乙肝|偏头痛|关节炎|胃溃疡|肾病|失眠症?")


_CONDITIONS_ZH = (r"糖尿病|高血压|低血压|哮喘|心脏病|冠心病|痛风|胃病|胃炎|癫痫|抑郁症|轻度抑郁|中度抑郁|抑郁|焦虑症|焦虑|贫血|过敏性鼻炎|"
                  r"鼻炎|低血糖|高血脂|甲亢|甲减|乙肝|偏头痛|关节炎|胃溃疡|肾病|肾结石|失眠症?|心律不齐|近视|颈椎病|腰椎间盘突出|"
                  r"花粉症|鼻窦炎|咽炎|湿疹|荨麻疹|痛经|多囊|甲状腺结节|脂肪肝|高尿酸|乳腺增生|腱鞘炎|腰肌劳损|强迫症|ADHD|adhd|anxiety|insomnia|"
                  r"depression|asthma|diabetes|migraine|IBS")


# Not allergens: people, work and school ("我对上班过敏" is a joke), aspect words, the word itself.
_NOT_ALLERGEN = re.compile(r"[我你他她不没对]|医生|说是|应该|好像|可能|估计|前任|朋友|老公|老婆|孩子|女儿|儿子|爸|妈|工作|上班|加班|学习|考试|作业|老板|同事|周一|早起|钱|账单|社交|开会|什么|东西|人|过敏")


def _allergen_ok(part: str) -> bool:
    # "查了是过敏", "检查说是过敏": how the allergy was found is no allergen.
    return not (re.match(r"[了过着在]|[都也会很就是]$|吃|喝|碰|用|查|检查|测", part) or re.search(r"是$", part) or _NOT_ALLERGEN.search(part))


def _zb_allergy(m, clause):
    return _zb_allergy_said(m.group("v"), clause)


def _zb_allergy_said(said: str, clause: str) -> list[Candidate]:
    raw = tidy_value(said)
    # "医生说我是牛奶蛋白过敏", "医生说是羽绒过敏": who said it is no part of the allergen.
    raw = re.sub(r"^(?:医生|大夫)?(?:说|讲|查出来|检查出来?)(?:我)?", "", raw)
    raw = re.sub(r"^(?:对|是|有|吃|碰)", "", raw)
    raw = re.sub(r"(?:严重|特别|非常|很|有点|有些|轻微|轻度|都|也)$", "", raw)
    raw = re.sub(r"^(?:有点|有些|一点|轻微|轻度|严重)", "", raw)  # "我有点猫毛过敏"
    out = []
    for part in (piece for chunk in _LIST_SPLIT.split(raw) for piece in split_compound(chunk.strip())):
        part = part.strip()
        if not part or not _allergen_ok(part) or len(part) > 10:
            continue
        out.append(_zc("user.allergies", part))
    return out


def _zb_condition(m, clause):
    value = tidy_value(m.group("v"))
    out = [_zc("user.health_conditions", value)]
    return out


def looks_like_drug(word: str) -> bool:
    """A drug's name by its shape: the endings of drug names in Chinese and English, or a kind of pill."""
    return bool(re.search(r"[林平汀乐定素酮唑胺醇霉沙星丁宁钠钾酸胍芬嗪松龙辛尔坦利德特韦克米酯因仑泮通剂]$|药$|片$|胶囊$|颗粒$|喷雾$|[^药]丸$|药膏$|^(?:维生素|钙|鱼油|褪黑素|叶酸|益生菌)", word)
                or _DRUG_SUFFIX.search(word))


def _zb_medication(m, clause):
    drug = tidy_value(m.group("v"))
    # "吃一片优甲乐": the count of tablets is the dose, not part of the name.
    drug = re.sub(r"^[一二两三半\d]+(?:片|粒|颗|支|喷|次)", "", drug) or drug
    drug = re.sub(r"^(?:抗过敏药|降压药的?|药)", "", drug) or drug
    drug = re.split(r"才|来|就|了|以后|之后|控制|治疗|调理|帮助|避孕|止痛|降压|降糖|助眠|续命|维持|撑着", drug)[0] or drug  # "安眠药才能睡着"
    if not drug or len(drug) > 10:
        return []
    dosed = re.search(r"[一二两三半\d]+(?:片|粒|颗|毫克|mg|支)$", m.string[:m.start("v")])
    # "一直在吃优思明避孕", "吃二甲双胍控制血糖": what a thing is taken for says it is a drug ("靠咖啡续命" says nothing).
    purpose = re.match(rf"{re.escape(drug)}(?:来|用来|是)?(?:避孕|降压|降糖|止痛|止疼|助眠|控制|治疗|调理)", tidy_value(m.group("v")) + m.string[m.end("v"):m.end("v") + 4])
    if re.search(r"生酮|素食|^素|清真|断食|减肥|减脂|控糖|饭|菜|零食|外卖", drug):
        return []  # "我在吃生酮": a diet, not a drug
    prescribed = re.match(r"医生|大夫", m.group())  # "医生给我开了propranolol": what is prescribed is a drug
    if not dosed and not prescribed and not purpose and not looks_like_drug(drug):
        return []
    # "吃一片优甲乐，50微克": a measured dose anywhere says more than the count of tablets it comes in.
    dose = _said_near(drug, clause, _measured_dose) or _said_near(drug, clause, _counted_dose)
    return [_zc("user.medications", drug, dose=dose, schedule=_said_near(drug, clause, _schedule_said))]


def _said_near(drug: str, clause: str, find) -> str | None:
    """"胰岛素每天早晚各打一次，还有二甲双胍一天三次，每次一片": a drug's dose or schedule is looked for in
    its own part of the clause first, then after it, then anywhere in the clause."""
    at = clause.find(drug)
    if at < 0:
        return find(clause)
    start = max(clause.rfind(mark, 0, at) for mark in "，,；;") + 1
    ends = [end for end in (clause.find(mark, at) for mark in "，,；;") if end >= 0]
    return find(clause[start:min(ends, default=len(clause))]) or find(clause[at:]) or find(clause)


def _measured_dose(clause: str) -> str | None:
    dose = re.search(r"[\d.]+\s*(?:毫克|微克|μg|ug|mcg|mg|ml|毫升|单位|IU)|半?[一二两三四五六七八九十]+(?:毫克|微克|毫升|单位)", clause)
    return dose.group() if dose else None


def _counted_dose(clause: str) -> str | None:
    dose = re.search(r"[一二两三半\d]+\s*(?:片|粒|颗|支|喷)", clause)
    return dose.group() if dose else None


def _schedule_said(clause: str) -> str | None:
    schedule = re.search(r"(?:每天)?早晚各(?:吃|服|喷|打|用)?[一两]次|(?:每天)?早中晚各?[一两]?次?|每天(?:早上|晚上|睡前|中午|早晚)?(?:空腹)?|每晚|(?<![今明昨后前])天天|一天[一两二三四]次|一天(?=[一两二三半]?[片粒颗])|一周[一两二三]次|(?:运动|跑步|健身|饭|早饭|午饭|晚饭|睡觉)[前后]|睡前"
                         # "三餐前各一针", "早上空腹", "疼的时候来一颗": before meals, on an empty stomach, when needed.
                         r"|三餐[前后](?:各[一两](?:针|片|粒|颗|次))?|(?:早上|早晨)?空腹|[\u4e00-\u9fff]{1,3}的时候(?=[来吃喷用打服])"
                         # "氯沙坦早上一片": a time of day right before the dose.
                         r"|(?:早上|早晨|中午|晚上)(?=[吃服喷用打]?[一二两三半\d]+(?:片|粒|颗|毫克|微克|mg|针|喷))"
                         # "哮喘犯了就喷沙丁胺醇": the drug taken when the condition flares.
                         r"|[\u4e00-\u9fff]{1,4}(?:犯了|发作了?)(?=就|的时候|时)", clause)
    # "每天早晚各吃一次" is said as the schedule 早晚各一次, without the verb.
    return re.sub(r"(?<=各)(?:吃|服|喷|打|用)", "", schedule.group()) if schedule else None


def _legacy_allergy_at(confidence: float, *, bare: bool = False):
    def build(match: re.Match) -> list[Candidate]:
        raw_text = tidy_value(match.group("v"))
        # "我女儿花粉过敏" without 对: a person word first means someone else's allergy.
        if bare and (re.search(r"[对有不没]", raw_text) or raw_text[:2] in _ROLES or raw_text[:1] in _ROLES):
            return []
        return [_c("user.allergies", item, confidence) for item in _items(re.sub(r"^(?:是|有点|一点|点|有些)", "", raw_text)) if _allergen_ok(item)]
    return build


_legacy_allergy = _legacy_allergy_at(1.0)
_legacy_allergy_hedged = _legacy_allergy_at(0.6)
_legacy_allergy_bare = _legacy_allergy_at(1.0, bare=True)


def _legacy_health(match: re.Match) -> list[Candidate]:
    return [_c("user.health_conditions", match.group("v"))]


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我{_ADV}(?:好像|可能|似乎|估计)(?:对)(?P<v>[^，,。.!！?？;；]+?)过敏"), _legacy_allergy_hedged),
    (re.compile(rf"我{_ADV}(?:对)(?P<v>[^，,。.!！?？;；]+?)(?:严重|特别|非常|很|有点|有些|轻微|轻度)?过敏"), _legacy_allergy),
    (re.compile(rf"我{_ADV}有(?P<v>[^，,。.!！?？;；]+?)过敏"), _legacy_allergy),
    (re.compile(rf"我{_ADV}(?P<v>[\u4e00-\u9fffA-Za-z、和]{{1,10}}?)过敏(?!性|药|体质)"), _legacy_allergy_bare),
    (re.compile(rf"我{_ADV}(?:有|患有|得了|查出了?|确诊了?)(?P<v>{_CONDITIONS})"), _legacy_health),
    (re.compile(rf"我{_ADV}(?P<v>怀孕)"), _legacy_health),
]


# What the body does in an allergic reaction, as people say it: after a food or drug it names the allergen
# ("吃了芒果就起疹子"), and it turns a drug the user cannot take into an allergy (rules_zh/__init__.py).
ALLERGIC_REACTIONS = ("起疹子|起红疹|出疹子|长疹子|起荨麻疹|出荨麻疹|起疙瘩|起包|浑身痒|全身痒|发痒|浑身起|红肿|喉咙肿|嘴肿|"
                      "脸肿|嗓子肿|喘不上气|呼吸困难|休克")


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(r"对(?P<v>[^，,。.!！?？;；]+?)(?:都|也)?(?:严重|特别|非常|很|有点|有些|轻微|轻度|超级?)?过敏"), _zb_allergy),
    (re.compile(rf"(?:吃|喝|碰|用|接触)了?(?P<v>[\u4e00-\u9fffA-Za-z]{{1,6}}?)(?:就|会|都会|就会)(?:过敏|{ALLERGIC_REACTIONS})"), _zb_allergy),
    (re.compile(r"(?:本人|我|是|有|说是|^)(?P<v>[\u4e00-\u9fffA-Za-z、和]{1,12}?)过敏(?!性|药|原|体质)"), _zb_allergy),
    (re.compile(r"过敏原(?:检测|测试)?(?:的)?(?:结果)?(?:是|有|为|显示是?)(?P<v>[^，,。.!！?？;；]+)"), _zb_allergy),
    # "有青霉素过敏史", "对酒精有过敏反应".
    (re.compile(r"有(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)过敏史|对(?P<w>[\u4e00-\u9fffA-Za-z、和]{2,10}?)有(?:严重的?|轻微的?)?过敏(?:反应|史)"),
     lambda m, c: _zb_allergy_said(m.group("v") or m.group("w"), c)),
    (re.compile(r"有(?:严重的|轻微的)?(?P<v>[A-Za-z ]+?)\s*allergy"), _zb_allergy),
    (re.compile(r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:手套|衣服)?(?:我)?(?:不能吃|不能用|碰不了|穿不了|戴不了|用不了|吃不了)[^，。]*[，,]\s*(?:我)?(?:一[穿戴吃用碰]就[^，。]*[，,]\s*)?(?:医生说是[^，。]*)?过敏"), _zb_allergy),
    (re.compile(r"避开(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)[啊呀哦]?[，,]\s*我过敏"), _zb_allergy),
    (re.compile(rf"(?:有|患有|得了|查出了?来?|确诊了?|诊断出来?|是)(?P<v>(?:慢性|急性|轻度|重度|过敏性)?(?:[一二12]型|I型|II型)?(?:{_CONDITIONS_ZH}))(?:患者|病人)?"), _zb_condition),
    (re.compile(rf"(?:^|我的?)(?:最近|一直|经常|常常|老是|总是|这阵子|这几年)?(?:有点|有些|有|轻度)?(?P<v>近视|(?:慢性|急性)?(?:{_CONDITIONS_ZH}))"), _zb_condition),
    # "我尿酸高" is kept as said; "血压有点高" is the condition's name.
    (re.compile(r"(?P<v>血压|血糖|血脂|尿酸|胆固醇)(?P<adv>有点|偏|比较|很)?高"), lambda m, c: [_zc("user.health_conditions", m.group() if not m.group("adv") else {"血压": "高血压", "血糖": "高血糖", "血脂": "高血脂", "尿酸": "高尿酸", "胆固醇": "高胆固醇"}[m.group("v")])]),
    (re.compile(r"(?:怀孕|怀了)"), lambda m, c: [_zc("user.health_conditions", "怀孕")]),
    # "孕22周", "孕晚期了", "怀二胎五个月": how far along a pregnancy is says there is one.
    (re.compile(r"(?:^|(?<=[，,\s]))(?:现在|目前|已经)?孕(?:[一二三四五六七八九十\d]{1,3}(?:周|个月|w|W)|[早中晚]期)"), lambda m, c: [_zc("user.health_conditions", "怀孕")]),
    (re.compile(r"(?:每天|每晚|一天)?喷(?:[一两三]次)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}喷雾)"), _zb_medication),
    # "猫毛狗毛我都过敏", "磺胺类的药我过敏": the allergens first, then 过敏.
    (re.compile(r"^(?P<v>[\u4e00-\u9fffA-Za-z、和]{2,10}?)我?(?:都|也)(?:会|有点)?过敏"), _zb_allergy),
    # "开药前先说一声：青霉素我过敏的": the allergen, then 我, then 过敏, after a colon as at the start.
    (re.compile(r"(?:^|[：:])(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)我(?:是|会|有点|对它)?过敏(?:的|了|啊)?$"), _zb_allergy),
    (re.compile(r"^(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)类?的?(?:药|药物|这种药|这类药|这个药)我(?:会|有点)?过敏"), _zb_allergy),
    # "芒果我吃了会过敏": the allergen first.
    (re.compile(r"^(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)我?(?:一)?(?:吃了?|碰了?|用了?|喝了?|接触)(?:就|会|都会|就会)?过敏"), _zb_allergy),
    (re.compile(r"医生(?:给我|给)?开了?(?:点)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,14})"), _zb_medication),
    # "空腹吃优甲乐50微克", "先喷一下沙丁胺醇", "舍曲林每天睡前一片": a drug said with its dose or its puff, either order.
    (re.compile(r"(?:吃|服用?|喷|打|用)(?:一下|一点|两下|两喷|一喷)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=\s*\d+(?:mg|毫克|微克|μg|ug|片|粒|颗|ml|毫升|IU|单位))"), _zb_medication),
    (re.compile(r"(?:喷|吸)(?:一下|两下|一口|两口|一喷|两喷)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8})"), _zb_medication),
    (re.compile(r"^(?:还有|另外|以及|外加|再加上)?(?P<v>(?:(?!我|让|说|医生|大夫|在|还有)[\u4e00-\u9fffA-Za-z]){2,8}?)(?=(?:每天|每晚|一天|早晚|睡前|早上|晚上|中午|[早午晚]?饭[前后]|空腹)[^，,。]{0,6}?[一二两三半\d]+(?:片|粒|颗|毫克|mg|微克))"), _zb_medication),
    # "二甲双胍一天两次", "褪黑素我睡前吃3毫克": a drug named first, then how often or how much (the
    # builder keeps only a name that looks like a drug).
    # ("还有二甲双胍一天三次": one more drug in a list; "二甲双胍现在是早晚各一片": now, then the schedule)
    (re.compile(r"^(?:还有|另外|以及|外加|再加上)?(?P<v>(?:(?!我|让|说|医生|大夫|在|还有)[\u4e00-\u9fffA-Za-z]){2,8}?)(?=我?(?:现在|目前)?(?:是)?(?:一天[一两二三四]次|每天|每晚|早晚各|睡前)(?:[^，,。]{0,4}(?:吃|服|喷|用|打))?)"), _zb_medication),
    # "包里随时揣着沙丁胺醇喷雾", "身上常备速效救心丸": a drug carried against need.
    (re.compile(r"(?:随身|随时|一直|常)?(?:带着|揣着|备着|常备)(?P<v>(?!喷雾|药)[\u4e00-\u9fffA-Za-z]{2,10}?)(?=$|[，,。]|喷雾|以防)"), _zb_medication),
    # "每天早晚用舒利迭", "医生让我每天早饭前吃奥美拉唑", "哮喘犯了就喷沙丁胺醇": a drug taken on a schedule
    # is a medication, not a habit.
    (re.compile(r"(?:^[\u4e00-\u9fff]{1,4}(?:犯了|发作了?)(?:就|的时候|时)|每天|每晚|早晚|睡前|饭[前后]|早饭前|空腹)[^，,。]{0,4}?(?:吃|服用?|喷|用|打)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，,。]|[一两三半\d])"), _zb_medication),
    # "每天早饭前吃一片优甲乐", "长期吃优甲乐": a dose or a long course names the drug that follows.
    (re.compile(r"(?:(?:吃|来|(?i:take)\s*)[一二两三半\d]+(?:片|粒|颗|毫克|mg|次)|(?:长期|一直|按时)在?(?:吃|服用|服|打))(?P<v>[\u4e00-\u9fffA-Za-z]{2,14})"), _zb_medication),
    (re.compile(r"(?:在吃|在服用|在打|经常吃|常吃|偶尔吃|每天吃|每天都吃|每天都要吃|天天吃|天天都吃|天天都要吃|每天打|靠|吃的是|开了|一直在吃|每天早上吃|每晚吃|睡前吃|就得吃|得吃|就吃|要吃|靠吃|吃点)(?:[一二两三半\d]+(?:片|粒|颗|毫克|mg))?(?P<v>[\u4e00-\u9fffA-Za-z]{2,14})"), _zb_medication),
]
