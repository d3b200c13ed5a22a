"""Education: school or programme, with degree, field and status."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_zh.common import _zc
from layers.formation.extractor.rules_zh.location import _CITY_ALT, _COUNTRIES_ZH
from layers.formation.extractor.rules_zh.pos import is_time_word, tags
from layers.formation.extractor.text import tidy_value

_DEGREES_ZH = r"本科|研究生|硕士|博士|博士后|MBA|master|Master|PhD|phd|大专|专科|在职研究生|EMBA|MPA|学士"


_SCHOOL_SUFFIX = r"(?:大学|学院|大|交大|师大|理工|科大|中学|高中|附中|一中|二中|职高|技校|中专|卫校|师范|夜大|电大|警校|军校|艺校|体校|科学院|研究院|科院|研究所|University|College|School|Institute)$"


_DISCIPLINES = ("计算机|软件|电子|信息|机械|建筑|土木|经济|管理|金融|法|法学|医|医学|药学|护理|文|文学|新闻|传媒|外国语|数学|"
                "物理|化学|生命科学|生物|材料|环境|艺术|美术|音乐|设计|商|教育|心理|历史|哲学|马克思主义|自动化|航空|能源|"
                "会计|财会|统计|通信|临床|口腔|工商|社会")


def _zb_education(m, clause):
    groups = m.groupdict()
    school = tidy_value(groups.get("v") or "")
    school = re.sub(r"(?:的)$", "", school)
    school = re.sub(r"^(?:我是|我|本人|的是|是)", "", school)
    school = re.sub(r"^(?:学校|母校)(?:是|叫)?(?=[\u4e00-\u9fffA-Za-z]{2})", "", school)  # "学校中山大学"
    # "清华硕士毕业": the degree said after the school is the degree, not part of its name.
    # "北航计算机学院": the school, then its faculty, which names the field.
    faculty = re.fullmatch(rf"(?P<s>[\u4e00-\u9fffA-Za-z]{{2,6}}?)(?P<f>{_DISCIPLINES})(?:学院|系)", school)
    # "川大临床医学毕业的": a school word or a known short name, then the discipline read there.
    read_there = re.fullmatch(rf"(?P<s>[\u4e00-\u9fffA-Za-z]{{2,6}}?)(?P<f>[\u4e00-\u9fff]{{0,3}}(?:{_DISCIPLINES})[\u4e00-\u9fff]{{0,2}}?)", school) \
        if not faculty else None
    if read_there and (re.search(_SCHOOL_SUFFIX, read_there.group("s"))
                       or [flag for _, flag in tags(read_there.group("s"))] in (["nt"], ["j"])):
        faculty = read_there
    if faculty:
        school = faculty.group("s")
        groups = {**groups, "field": groups.get("field") or faculty.group("f")}
    said_degree = re.search(rf"(?:{_DEGREES_ZH})$", school)
    if said_degree and len(school) > len(said_degree.group()) + 1:
        school = school[:said_degree.start()]
        groups = {**groups, "deg": groups.get("deg") or said_degree.group()}
    field_ = groups.get("field")
    # A lazy match stops early ("毕业于四川|美术学院油画系"): the school runs on to its school word.
    ext = re.match(r"[\u4e00-\u9fffA-Za-z]{0,6}?(?:大学|学院|中学|高中|University|College)", m.string[m.end("v"):])
    if ext:
        school += ext.group()
        if field_ and field_.startswith(ext.group()):
            field_ = field_[len(ext.group()):] or None
    school = re.sub(r"^在", "", school)
    # "在英国读硕士": a place is where, not the school.
    if not school or len(school) > 14 or re.search(r"什么|哪|这|那", school) or re.fullmatch(_CITY_ALT, school) or re.fullmatch(_COUNTRIES_ZH, school):
        return []
    # "读的是architecture" names the major; only "读的是复旦" (a school word) or "大学读的是同济" (the
    # level said first) names the school.
    if re.search(r"(?:读|上|念|考)的是$", m.string[:m.start("v")]) and not re.search(_SCHOOL_SUFFIX, school) \
            and not re.search(r"(?:大学|本科|研究生|硕士|博士|高中|初中)(?:读|上|念|考)的是$", m.string[:m.start("v")]):
        return []
    degree = {"本科生": "本科", "研究生": "研究生", "硕士生": "硕士", "博士生": "博士", "学生": None, "大学": None,
              "书": None, "研": "研究生", "博": "博士", "在读": None}.get(groups.get("deg") or "", groups.get("deg"))
    if degree and re.match(r"[大研][一二三四]", degree):
        degree = None  # a year of study ("大四学生"), not a degree
    # "本科在复旦读的，硕士去了港大": with several schools in the clause, each takes what its own part says.
    own = m.string if len(re.findall(rf"{_DEGREES_ZH}|读博|读研", clause)) > 1 else clause
    if not degree:
        found = re.search(rf"({_DEGREES_ZH}|读博|读研|研[一二三]|博[一二三])", own)
        degree = ({"读博": "博士", "读研": "研究生"}.get(found.group(1)) or
                  ("研究生" if found.group(1)[0] == "研" and len(found.group(1)) == 2 else
                   "博士" if found.group(1)[0] == "博" and len(found.group(1)) == 2 and found.group(1) != "博士" else found.group(1))) if found else None
    if not field_:
        # "在上海交大读的本科，学机械": a degree read after 读的 is no field; the field may be said further on.
        found = next((f for f in re.finditer(r"(?:读的是|念的是)[^，,。]{2,8}?的(?P<k>[\u4e00-\u9fff]{2,6})(?=$|[，,。])|(?:专业是|方向是|学的是|读的是|读的|念的|做的是|研究的是|研究方向是|主修|[，,]\s*学)(?P<f>[\u4e00-\u9fffA-Za-z ]{2,20}?)(?:的|$|[，,。])|"
                          r"(?P<g>[\u4e00-\u9fff]{2,6}?|(?<![A-Za-z])[A-Za-z][A-Za-z ]{0,20}?)\s*(?:专业|系|方向)|(?:^|[，,]\s*)(?:学|做|研究)(?P<h>[\u4e00-\u9fff]{2,4})的(?:$|[，,。])|"
                          # "在读护理专科", "同济的建筑学硕士": the discipline said before the degree.
                          r"(?:读|念|的)(?P<j>(?!在职|全日制|非全|在读)[\u4e00-\u9fff]{2,4}?)(?:专科|本科|硕士|博士|研究生)(?=$|[，,。!！])", clause)
                      if not re.fullmatch(rf"(?:{_DEGREES_ZH}|大学|书)", (f.group("k") or f.group("f") or f.group("g") or f.group("h") or f.group("j") or "").strip())), None)
        if found:
            field_ = found.group("k") or found.group("f") or found.group("g") or found.group("h") or found.group("j")
            if field_ and re.search(rf"{_DEGREES_ZH}|的", field_):
                field_ = re.sub(r".*的", "", field_) or None
            if field_ and (field_ == school or field_ in school or school in field_):
                field_ = None
        if field_ is None:
            # "在同济读建筑": what is read after the school, when it is no degree.
            found = re.match(rf"(?P<f>(?!{_DEGREES_ZH}|书|大学|研|博|的)[\u4e00-\u9fff]{{2,4}})(?:专业)?(?=$|[，,。])", m.string[m.end():]) \
                if re.search(r"读$", m.group()) else None
            if found:
                field_ = found.group("f")
        if field_ is None:
            found = re.search(r"读(?P<f>[A-Za-z][A-Za-z ]+)", clause)
            field_ = found.group("f").strip() if found and not re.match(_DEGREES_ZH, found.group("f")) else None
    # "本科在武汉大学读的", "是在复旦念的": a finished course is told with 的 at the end.
    # "我在浙大读的研究生": 是…的 tells a finished course, whatever degree follows the 的.
    # "本科读的新闻学": the level, then 读的 and what was read, tells a finished course too.
    # "我读的卫校": 读的 with no 在 before it tells a finished course too ("现在读的" is still going).
    status = "graduated" if (re.search(rf"毕业|(?:读|念|上|学)的(?:{_DEGREES_ZH}|书|大学|专业)?(?:$|[，,。])|(?<![在正])(?:读|念)的(?!是)|读完|念完|学成|(?:{_DEGREES_ZH}|大学)(?:读|念|学)的(?!是)", own)
                             # "还有一年才毕业", "还没毕业", "下学期毕业": a graduation still to come.
                             and not re.search(r"明年毕业|快毕业|今年毕业|要毕业|在读|正在|还有[^，,。]{1,6}?(?:才|就)?毕业|还没毕业|没毕业|(?:下|这)个?(?:月|学期)毕业|毕业还早", own)) else \
        "studying" if re.search(r"在读|读|念|上学|入学|开学|新生|学生|研究生|硕士生|博士生|本科生|大[一二三四五]|研[一二三]|高[一二三]|在上", own) else None
    if re.search(r"考上|录取", clause):
        status = None
    if field_:
        field_ = tidy_value(field_)
    return [_zc("user.education", school, degree=degree, field=field_, status=status)]


def _zb_school_said_first(m, clause):
    """"我北航毕业的": what stands between the user and 毕业 is a school only when jieba reads it as a name
    (an organisation, a place name or an abbreviation), never a time or an adverb ("我去年毕业的", "我刚毕业")."""
    pairs = tags(tidy_value(m.group("v")))
    if not pairs or is_time_word(m.group("v")) or any(flag in ("d", "t", "m", "v", "p", "c", "r") for _, flag in pairs):
        return []
    return _zb_education(m, clause)


_STUDY_SAID = re.compile(rf"{_DEGREES_ZH}|高中|初中|读研|读博|研[一二三]|博[一二三]|大[一二三四]|专业|学的|读书|念书|考上|毕业|上学|在读")


def _zb_school_said_alone(m, clause):
    """A school named in a part of its own: it must look like one (a school word or the 大/外 of a
    short name) and the clause must be about studying ("读博第三年了，在中科大"), never "在北京"."""
    school = tidy_value(m.group("v"))
    if not (re.search(_SCHOOL_SUFFIX, school) or re.search(r"外$", school)) or not _STUDY_SAID.search(clause):
        return []
    return _zb_education(m, clause)


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "我们学校是川大", "学校是南开": the school named after its kind.
    (re.compile(r"^(?:我们|我的|我)?(?:学校|母校|大学)(?:是|叫)(?!在)(?P<v>[A-Za-z][\w&.'-]*(?:\s[A-Z][\w&.'-]*)*|[\u4e00-\u9fff]{2,10})(?=$|[，,。])"), _zb_education),
    # "我是浙江大学17级的": a school and the year one entered it.
    (re.compile(r"是(?P<v>[\u4e00-\u9fffA-Za-z]{1,10}?(?:大学|学院|大|交大|师大|理工|科大|中学|高中))(?:\d{2,4}级|[一二三四]年级)的?(?:学生)?(?=$|[，,。])"), _zb_education),
    # "我本科是北师大的", "研究生也是复旦的": the degree, then the school it was taken at.
    (re.compile(r"(?P<deg>本科|研究生|硕士|博士|大学|高中|初中)(?:是|也是)(?P<v>[\u4e00-\u9fffA-Za-z]{2,10}?)的(?=$|[，,。])"), _zb_school_said_alone),
    # "我是清华本科，北大硕士": each school with its degree, part by part.
    (re.compile(r"^(?:我是|是|我)?(?P<v>(?!现在|目前)[^\s，,。读在学上念]{2,8}?)(?P<deg>本科|硕士|博士|研究生)(?:毕业)?(?=$|[，,。])"), _zb_education),
    # "我现在读高一，在杭州二中": a school named alone after the grade.
    (re.compile(r"^在(?P<v>[\u4e00-\u9fff]{2,8}?(?:中学|一中|二中|三中|四中|附中|高中|实验中学|外国语学校|小学))$"), _zb_education),
    # "我是清华的博士生": school, 的, the student's degree.
    (re.compile(r"是(?P<v>[\u4e00-\u9fffA-Za-z]{2,10}?)的(?P<deg>本科生|研究生|硕士生|博士生|博士|硕士|学生|(?:大[一二三四五]|研[一二三]|博[一二三])(?:学生|在读)?)(?=$|[，,。!！]|了|啊|呀)"), _zb_education),
    # "读的师范", "在读夜大", "高中毕业后读了个职高": a kind of school said as what is (or was) read.
    (re.compile(r"(?:读|念|上)(?:的是|的|了个|了|个)?(?P<v>夜大|电大|函授|职高|技校|中专|卫校|师范|党校|夜校|老年大学|开放大学|警校|军校|艺校|体校)(?=$|[，,。!！]|的|毕业)"), _zb_education),
    (re.compile(rf"在(?![职在])(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?:读|念|上(?=学|大学|课|{_DEGREES_ZH}))(?P<deg>{_DEGREES_ZH}|书|大学|研|博)?"), _zb_education),
    # "我是浙大2018届的", "复旦18届": a school and the year one graduated.
    (re.compile(r"(?:^|是|我)(?P<v>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:\d{2,4}|[一二三四五六七八九零〇]{2,4})届(?:的|毕业生|校友)?(?=$|[，,。!！])"), _zb_education),
    # "我北航毕业的", "本人川大毕业": the school right after the user, then 毕业 (never a time: "我去年毕业的").
    (re.compile(rf"^(?:我|本人)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?P<deg>{_DEGREES_ZH})?毕业(?:的|了)?(?=$|[，,。!！])"), _zb_school_said_first),
    (re.compile(rf"(?:读|念)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的(?P<deg>{_DEGREES_ZH})"), _zb_education),
    (re.compile(rf"(?P<deg>{_DEGREES_ZH})?毕业于(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?=$|[，,。]|(?P<field>[\u4e00-\u9fff]{{2,6}})系)"), _zb_education),
    (re.compile(r"(?:是|从)(?P<v>[\u4e00-\u9fffA-Za-z ]{2,10}?)(?:(?P<field>[\u4e00-\u9fff]{2,6})(?:系|专业))?毕业的"), _zb_education),
    (re.compile(rf"考上了?(?!研究生|研|博士|硕士|本科|大学(?:$|[，,]))(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?)的?(?:(?P<deg>{_DEGREES_ZH}))?(?:录取)?"), _zb_education),
    (re.compile(rf"被(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?)的?(?:(?P<deg>{_DEGREES_ZH}))?录取"), _zb_education),
    (re.compile(r"(?:正在|在)读(?P<v>(?P<deg>MBA|EMBA|MPA|博士|硕士|研究生|本科|大专))(?=$|[，,。!！])"), _zb_education),
    (re.compile(r"是(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?P<field>[\u4e00-\u9fff]{2,5})系的(?=$|[，,。!！])"), _zb_education),
    (re.compile(r"是(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?P<field>[\u4e00-\u9fff]{2,5})系(?:大[一二三四]|研[一二三])的?学生"), _zb_education),
    (re.compile(r"(?<!月)(?:现在|目前|在读|读|上)?(?P<v>高[一二三]|初[一二三])(?=$|[，,。]|了|的?学生)"), _zb_education),
    (re.compile(r"是(?P<v>[\u4e00-\u9fffA-Za-z]{2,10}?(?:大学|学院|大|交大|师大|理工|科大|中学|高中))(?:(?P<field>[\u4e00-\u9fff]{2,6})专业)?的?(?P<deg>本科生|研究生|硕士生|博士生|学生|大[一二三四]学生|研[一二三]学生|在读)"), _zb_education),
    (re.compile(r"从(?P<v>[\u4e00-\u9fffA-Za-z ]{2,12}?)毕业"), _zb_education),
    (re.compile(rf"(?P<deg>{_DEGREES_ZH}|大学)?(?:读的是|上的是|念的是|考的是)(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?=$|[，,。!！]|的)"), _zb_education),
    (re.compile(rf"(?P<v>[\u4e00-\u9fffA-Za-z]{{1,10}}?(?:大学|学院|大|交大|师大|理工|科大|中学|高中|University|College))(?P<deg>{_DEGREES_ZH})?毕业"), _zb_education),
    (re.compile(rf"(?P<deg>{_DEGREES_ZH}|高中|初中)(?:是|也是)?在(?P<v>[\u4e00-\u9fffA-Za-z ]{{2,12}}?)(?:读|念|上)的?"), _zb_education),
    (re.compile(r"(?P<v>大专|本科|中专|高中|初中|小学)(?:毕业|学历)"), _zb_education),
    # "我本科学的是会计，在江西财大", "读博第三年了，在中科大": the school named alone after what was studied.
    (re.compile(r"^在(?P<v>(?![读念上])[\u4e00-\u9fff]{1,8}?(?:大学|学院|财大|师大|理工|科大|交大|工大|农大|医大|科学院|科院|研究院|研究所|外|大))$"), _zb_school_said_alone),
    # "我在读在职研究生，人大的", "我是师范大学毕业的，华东师大": the school in a part of its own.
    (re.compile(r"^(?P<v>(?![读念上在我])(?:[\u4e00-\u9fff]{1,8}?(?:大学|学院|财大|师大|理工|科大|交大|工大|农大|医大)|[\u4e00-\u9fff]{1,3}(?<![好很太挺超真多])大))的?$"), _zb_school_said_alone),
    # "我本科在南大，研究生去了港大": a degree, then where it was (or is) taken.
    (re.compile(rf"(?P<deg>{_DEGREES_ZH}|读研|读博|高中|初中|大学)(?:是|也是)?(?:在|去了|去的|考到了?|考进了?|考去了?)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?=$|[，,。])"), _zb_school_said_alone),
    (re.compile(rf"(?:读的是|在读)(?P<deg>在职研究生|{_DEGREES_ZH})[，,]\s*(?P<v>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的"), _zb_education),
]


# "我们学校是川大，我大三，学法学的", "在读研一，学校中山大学": the year of study and the major often stand in
# clauses of their own beside the school; split_clauses cuts them off, so the sentence is read again for them.
_YEAR_OF_STUDY = re.compile(r"(?:^|[，,。\s我在读是])(?P<y>大[一二三四]|研[一二三]|博[一二三])(?=$|[，,。了的\s]|学生|在读)")
_MAJOR_BESIDE = re.compile(r"(?:专业是|专业|学的是|主修|方向是|研究方向是)(?P<f>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，,。的])"
                           r"|(?:^|[，,]\s*)(?:我)?(?:是)?学(?P<g>[\u4e00-\u9fff]{2,6}?)的(?=$|[，,。])"
                           r"|(?:^|[，,]\s*)(?P<h>[\u4e00-\u9fff]{2,6}?)专业(?:的)?(?=$|[，,。])")


def education_attrs_beside(sentence: str) -> dict:
    """The degree, field and status a Chinese sentence says of its one school outside the school's clause."""
    out: dict = {}
    year = _YEAR_OF_STUDY.search(sentence)
    if year:
        # A year of study says one is studying; 研N / 博N also say the degree (as _zb_education reads them),
        # 大N does not (a year, not a degree).
        out["status"] = "studying"
        degree = {"研": "研究生", "博": "博士"}.get(year.group("y")[0])
        if degree:
            out["degree"] = degree
    elif re.search(r"在读|正在读", sentence):
        out["status"] = "studying"
    major = _MAJOR_BESIDE.search(sentence)
    if major:
        found = major.group("f") or major.group("g") or major.group("h")
        if found and not re.search(rf"{_DEGREES_ZH}|学校|大学", found):
            out["field"] = found
    return out


# "我在读研，研二了", "我博士毕业三年了", "目前研一", "我在自考本科": a programme said with no school. The
# programme is the value (FACTS.md: school or programme; the corpus writes 高三, 大专, 自考 so).
_PROGRAMME = re.compile(r"(?P<auto>自考)(?:的)?(?P<ad>本科|大专|专科)?"
                        r"|(?:在|现在|目前|还在)(?:读|念)(?P<cur>研究生|研|博士|博|硕士|本科|大专|专科|MBA|EMBA|MPA)(?![\u4e00-\u9fff]*?(?:大学|学院))"
                        r"|(?P<done>博士|硕士|研究生|本科|大专|专科)(?:已经|刚)?毕业"
                        # "本科学的会计": the level, then what was read in it.
                        r"|(?P<past>本科|硕士|研究生|大专|专科)(?:学的|读的|念的)"
                        r"|(?<![考])(?P<year>研[一二三]|博[一二三])(?![十次])")
_PROGRAMME_NAME = {"研": "研究生", "博": "博士"}


def is_programme(value: str) -> bool:
    """Whether an education value names a programme, not a school (what `programme_without_school` gives)."""
    return re.fullmatch(r"研究生|博士|硕士|本科|大专|专科|MBA|EMBA|MPA|自考|研[一二三]|博[一二三]", value or "") is not None


def programme_without_school(segments: list[tuple[str, bool]], user_said) -> list:
    """The one programme a clause with no school names, with what the clause says of it."""
    for segment, mine in segments:
        # "博士毕业一般要几年啊": a question or a general remark about a programme is no one's.
        found = _PROGRAMME.search(segment) if mine and not re.search(r"几|多久|多长|吗|呢|[?？]|一般要", segment) else None
        if not found or not user_said(segment, found.start()):
            continue
        clause = "，".join(s for s, _ in segments)
        if found.group("auto"):
            value, degree = "自考", found.group("ad")
            status = "studying" if re.search(r"(?:在|正在)$", segment[:found.start()]) else None
        elif found.group("past"):
            value, degree, status = found.group("past"), None, None
        elif found.group("done"):
            value, degree, status = found.group("done"), found.group("done"), "graduated"
        else:
            said = found.group("cur") or found.group("year")
            value = _PROGRAMME_NAME.get(said, said) if found.group("cur") else said
            degree = _PROGRAMME_NAME.get(said[0], said) if found.group("year") else _PROGRAMME_NAME.get(said, said)
            status = "studying"
        beside = education_attrs_beside(clause)
        field = beside.get("field") or next((m.group("f") for m in re.finditer(r"学的?(?:是)?(?P<f>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，,。的]|专业)", clause)), None)
        return [_zc("user.education", value, degree=degree if degree != value else None, field=field,
                    status=status or beside.get("status"))]
    return []
