"""Chinese first-person rules, one module per fact family. Each takes one folded clause and
returns Candidates.

Every rule needs 我 as the subject with only harmless adverbs between it and the verb (现在, 一直,
已经 …); negation (不/没), modals (想/要/打算) and other people (我朋友, 我女儿) break the match,
which is how "我不住在北京了", "我想搬到上海" and "我朋友对猫过敏" stay out of the user's profile.
Places are read against a gazetteer of cities first, so "我住在北京朝阳区" yields 北京.

As in `rules_en`: `SENTENCE_RULES` per family run by `match_clause`, `FACT_RULES` per family run by
`zh_fact_candidates` after `subject.zh_user_said`; people, pets, languages, habits and plans are
read by their own functions there. The order below is the order they are tried in.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import Candidate, match_rules
from layers.formation.extractor.rules_zh import (
    contact,
    diet,
    education,
    employment,
    family,
    habits,
    health,
    likes,
    location,
    personal,
    pets,
)
from layers.formation.extractor.rules_zh.common import _items, _zc
from layers.formation.extractor.rules_zh.education import _DISCIPLINES, education_attrs_beside, is_programme, programme_without_school
from layers.formation.extractor.rules_zh.employment import KNOWN_EMPLOYER, _org_zh
from layers.formation.extractor.rules_zh.family import (
    _PEOPLE_COUNT_RULE,
    _PEOPLE_ZH,
    _PEOPLE_ZH_ALT,
    _ZH_PERSON_RULE,
    _ZH_ROLE_FREE,
    _zb_person,
)
from layers.formation.extractor.rules_zh.habits import habit_times_beside, zh_habit_candidates
from layers.formation.extractor.rules_zh.languages import _zb_language_clause
from layers.formation.extractor.rules_zh.location import _CITY_ALT, _place
from layers.formation.extractor.rules_zh.personal import _zb_name
from layers.formation.extractor.rules_zh.pets import _ZH_PET_RULE, _zb_pet, zh_chore_owner_candidates
from layers.formation.extractor.rules_zh.plans import plan_candidate, zh_plan_candidates
from layers.formation.extractor.rules_zh.pos import tags
from layers.formation.extractor.text import is_cjk, is_generic, is_past_state, is_vague_wish_part, settle_values
from layers.formation.extractor.rules_zh.subject import (
    _ZH_OTHER,
    expand_dropped_subject,
    zh_segments,
    zh_user_said,
)

__all__ = ["education_attrs_beside", "is_programme", "match_clause", "zh_fact_candidates", "said_in_present", "_place"]

_SENTENCE_FAMILIES = (personal, location, employment, health, diet, likes, habits, family, pets)
_FACT_FAMILIES = (employment, education, location, health, diet, likes, contact, personal)
_RULES = [rule for module in _SENTENCE_FAMILIES for rule in module.SENTENCE_RULES]
_ZH_FACT_RULES = [rule for module in _FACT_FAMILIES for rule in module.FACT_RULES]


def match_clause(clause: str) -> list[Candidate]:
    if _all_wishful(clause) or is_generic(clause):
        return []
    found: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for part in expand_dropped_subject(clause):
        for candidate in match_rules(part, _RULES):
            if (candidate.memory_key, candidate.value) not in seen:
                seen.add((candidate.memory_key, candidate.value))
                found.append(candidate)
    if not found:
        plan = plan_candidate(clause)
        if plan:
            found.append(plan)
    return _settle_planned_move(settle_values(found), clause)


_MOVE_TO_COME = re.compile(r"(?:要|打算|准备|计划|将|会|想)搬")


def _settle_planned_move(found: list[Candidate], clause: str) -> list[Candidate]:
    """"我下个月要搬家，搬到浦东": a move still to come is a plan (FACTS.md), and the place a later
    part moves to is that plan's destination, not a home yet. Both rule sets end here."""
    moves = [c for c in found if c.memory_key == "user.plan" and "搬" in c.value]
    if not moves and not _MOVE_TO_COME.search(clause):
        return found
    for c in found:
        if c.memory_key == "user.home_city" and moves:
            moves[0].attributes.setdefault("destination", c.value)
    return [c for c in found if c.memory_key != "user.home_city"]


# "阿司匹林我不能吃，过敏", "避开头孢啊，我过敏": the allergen is the object of the part before a bare 过敏.
_BARE_ALLERGY = re.compile(r"^(?:(?:医生|大夫)(?:说|讲)|查了|检查)?(?:我)?(?:应该|好像|可能|估计)?(?:是)?(?:我|本人)?(?:也|都|会|对它|对这个)?过敏(?:的|了|啊|呀|吧)?$")
_AVOIDED = re.compile(r"(?:避开|别给我开|不要开|别开|不能吃|不能用|不能碰|吃不了|用不了|碰不了|不碰|不吃|不喝|不用)(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:[啊呀哦吧]|$)"
                      r"|^(?P<w>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:手套|衣服|这种药|这个药|这类药)?我?(?:不能吃|不能用|碰不了|穿不了|戴不了|用不了|吃不了)"
                      # "一吃芒果嘴就肿": the reaction to what was eaten or touched.
                      r"|(?:千万)?(?:别|不要)(?:给我)?(?:放|加|用|开)(?P<y>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:[啊呀哦哈]|$)"
                      r"|^(?:我)?一(?:吃|喝|碰|用|摸|接触)(?P<x>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:嘴巴?|脸|身上|皮肤|喉咙|嗓子|全身|浑身|眼睛|肚子)?就"
                      # "吃完芒果嘴巴肿成香肠": what was eaten, then the body part that reacted.
                      r"|^(?:我)?(?:吃完|吃了|喝完|喝了|碰了|用了|接触了)(?P<z>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:以后|之后|后)?(?:嘴巴?|脸|身上|皮肤|喉咙|嗓子|全身|浑身|眼睛|肚子)")


_AVOIDED_LIST = re.compile(r"(?P<l>[\u4e00-\u9fffA-Za-z]{1,6}(?:(?:、|和|跟|还有|以及|或者)[\u4e00-\u9fffA-Za-z]{1,6}?)+)(?:这些|这几样|之类的?)?(?:我)?(?:一口|一点)?(?:都|也|全都|统统)?"
                           r"(?:不行|不能碰|碰不得|碰不了|不能吃|吃不了|吃不得|不能沾|沾不得|不敢碰|不敢吃)(?:的)?")


def _allergy_said_after(segments: list[tuple[str, bool]]) -> list[Candidate]:
    out = []
    for index in range(1, len(segments)):
        segment, mine = segments[index]
        if mine and _BARE_ALLERGY.match(segment):
            previous = re.sub(r"^(?:开药的时候|吃药的时候)?(?:记得|请|麻烦)?", "", segments[index - 1][0])
            # "花生、坚果都不行，我过敏", "虾和蟹一口都碰不得，过敏": several named, then what rules them out.
            listed = _AVOIDED_LIST.fullmatch(previous)
            if listed and len(_items(listed.group("l"))) > 1:
                out.extend(_zc("user.allergies", item) for item in _items(listed.group("l")))
                continue
            found = _AVOIDED.search(previous)
            if found:
                allergen = re.sub(r"的$", "", found.group("v") or found.group("w") or found.group("x") or found.group("y") or found.group("z"))
                if allergen:
                    out.append(_zc("user.allergies", allergen))
    # "我过敏，不能吃花生和芝麻": the bare 过敏 first, what is avoided after it.
    for index in range(len(segments) - 1):
        segment, mine = segments[index]
        if mine and _BARE_ALLERGY.match(segment):
            found = re.match(r"^(?:所以|因此)?(?:不能吃|不能碰|不能用|吃不了|碰不了|不能喝)(?P<v>[^，,。]{1,12})", segments[index + 1][0])
            if found:
                out.extend(_zc("user.allergies", item) for item in _items(found.group("v")))
    return out


_ORG_SUFFIX = re.compile(r"(?:医院|银行|公司|集团|科技|大学|学院|研究院|研究所|事务所|律所|证券|保险|基金|中学|小学)$")


def _workplace_said_after(segments: list[tuple[str, bool]], found: list[Candidate]) -> list[Candidate]:
    """"我是护士，在协和医院急诊科": a bare 在X after the user's role names the workplace when X is an
    organisation (jieba's nt/nz, or an organisation word at its end), never a kind of place."""
    if not any(c.memory_key == "user.occupation" for c in found) or any(c.memory_key == "user.employer" for c in found):
        return []
    for segment, mine in segments[1:]:
        bare = re.fullmatch(r"(?:现在|目前)?在\s*(?P<v>[\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z&. ]{1,20})", segment)
        if not (mine and bare):
            continue
        word, flag = tags(bare.group("v"))[0]
        org = word if flag in ("nt", "nz", "j") else bare.group("v") if _ORG_SUFFIX.search(bare.group("v")) or re.fullmatch(
            r"[A-Z][\w&.'-]*(?:\s[A-Z][\w&.'-]*)*", bare.group("v")) else None  # "我是intern，在Google"
        org = _org_zh(org) if org else bare.group("v") if KNOWN_EMPLOYER.fullmatch(bare.group("v")) else None
        if org:
            return [_zc("user.employer", org)]
    return []


# "去北京上班", "在深圳工作": the city the user goes to for work.
_WORK_IN = re.compile(rf"(?:去|到|在|跑|奔)(?P<v>{_CITY_ALT})(?:的?公司|总部|办公室)?(?:上班|工作|打工|坐班|打卡)")


def _work_city_beside_home(segments: list[tuple[str, bool]], found: list[Candidate]) -> list[Candidate]:
    """"房子买在廊坊了，…，结果现在每天六点就得爬起来赶城际去北京上班": once the user's home is said, a
    city they go to for work in a part about them is the work city (FACTS.md: labelled only when it
    differs from home), however much is said before it in that part, unless someone else is named there."""
    homes = {c.value for c in found if c.memory_key == "user.home_city"}
    if not homes or any(c.memory_key == "user.work_city" for c in found):
        return []
    for segment, mine in segments:
        said = _WORK_IN.search(segment)
        if mine and said and said.group("v") not in homes and not _ZH_OTHER.search(segment[:said.start()]) \
                and not is_vague_wish_part(segment) and not is_past_state(segment):
            return [_zc("user.work_city", said.group("v"))]
    return []


def _said_in_own_part(segments: list[tuple[str, bool]], starts: list[int], at: int, *, modal: bool = False) -> bool:
    """Whether position `at` of the clause lies in a part about the user with nobody else before it
    in that part ("我有点猫毛过敏，但还是养了猫": the second part); `modal` lets a 想/要 stand before."""
    index = bisect_right(starts, at) - 1
    if index < 0 or not segments[index][1]:
        return False
    prefix = segments[index][0][:at - starts[index]]
    if modal:
        prefix = re.sub(r"(?:想|要|得|打算|准备|会|还要|也想)$", "", prefix)
    return zh_user_said(prefix, len(prefix))


def _segment_starts(clause: str, segments: list[tuple[str, bool]]) -> list[int]:
    """Where each part starts in `clause`, found left to right."""
    starts, at = [], 0
    for segment, _ in segments:
        at = clause.find(segment, at)
        starts.append(at)
        at += len(segment)
    return starts


_BARE_ACTIVITY = re.compile(r"(?:又|还|也)?(?:要|会)?(?:去|出去)?(?:玩|拍|了)*|(?:约人|和朋友|跟朋友)?(?:去|出去)?(?:公园|外面)?玩")
_CLASS_ONLY = re.compile(r"(?:去)?(?:上|有)(?:[一两二三四五六七八九十\d]+次)?课")


def _name_dropped_activity(found: list[Candidate], clause: str) -> None:
    """"我迷上了飞盘，每个周末都去玩", "我好喜欢camping，这个周末又要去了": a habit or plan whose
    activity was dropped is the thing liked just before; "报了个西班牙语班，每周上两次课",
    "我在学吉他，每周二晚上有课": a bare class is the course named before it."""
    liked = next((c.value for c in found if c.memory_key == "user.likes"), None)
    course = re.search(r"报了?(?:个|一个)?(?P<b>[\u4e00-\u9fffA-Za-z]{1,8}班)(?=$|[，,。])|在学(?P<s>[\u4e00-\u9fffA-Za-z]{1,6}?)(?=$|[，,])", clause)
    for index, c in enumerate(found):
        if c.memory_key not in ("user.habits", "user.plan"):
            continue
        if liked and _BARE_ACTIVITY.fullmatch(c.value):
            found[index] = Candidate(c.memory_key, liked, c.confidence, c.attributes)
        elif course and c.memory_key == "user.habits" and _CLASS_ONLY.fullmatch(c.value):
            found[index] = Candidate(c.memory_key, course.group("b") or course.group("s") + "课", c.confidence, c.attributes)


# "读会计的本科", "在读护理的在职研究生": the field studied, 的, then the degree.
_FIELD_OF_DEGREE = re.compile(r"(?P<now>在|正在|还在|同时在)?读(?P<f>(?![的了过完])[\u4e00-\u9fffA-Za-z]{2,6}?)的(?P<d>(?:在职|全日制|非全日制|part-time\s?)?(?:本科|硕士|研究生|博士|MBA|EMBA|专升本|大专|学位))")


def _field_of_degree(clause: str, segments: list[tuple[str, bool]], starts: list[int], found: list[Candidate]) -> list[Candidate]:
    """The field and degree of "读X的Y": the field of the school named beside it, or, with no school,
    the programme itself (its value the degree, as FACTS.md labels "在职研究生"); a field read as the school gives way."""
    said = _FIELD_OF_DEGREE.search(clause)
    if not said or re.search(r"大学|学院|学校|大|学堂", said.group("f")[-2:]):
        return found
    index = bisect_right(starts, said.start()) - 1
    if index < 0 or not segments[index][1] or _ZH_OTHER.search(segments[index][0][:said.start() - starts[index]]) \
            or is_past_state(segments[index][0]):
        return found
    field, degree = said.group("f"), said.group("d")
    # "我在读复旦的EMBA": what is read there is a school, not a field, unless it names a discipline.
    if not re.search(_DISCIPLINES, field):
        return found
    found = [c for c in found if not (c.memory_key == "user.education" and c.value == field)]
    schools = [c for c in found if c.memory_key == "user.education"]
    # "一边上班一边读…", "晚上在开放大学读…": reading a degree, not having read it (读过 / 读完 / 毕业), is studying.
    part = segments[index][0]
    status = "graduated" if re.search(r"读过|读完|毕业", part) else "studying"
    if schools:
        schools[-1].attributes.setdefault("field", field)
        schools[-1].attributes["status"] = status
        if not schools[-1].attributes.get("degree"):
            schools[-1].attributes["degree"] = degree
        return found
    plain = re.sub(r"^(?:全日制|非全日制|part-time\s?)", "", degree)
    return [*found, _zc("user.education", plain, field=field, status=status)]


_REGIONS = {"东北", "北方", "南方", "西北", "西南", "华北", "华南", "江南", "广东", "南方人", "北方人"}


_GENERIC_SCHOOL = re.compile(r"(?:师范|重点|普通|民办|公立|私立)?(?:大学|学院|中学|高中|大专)|一本|二本|三本|985|211|双一流")


# What the user does to a pet: feeding, walking, cleaning, playing with it.
_TENDS_PET = re.compile(r"喂|遛|铲|梳|洗澡|剪指甲|陪它|带它|给它|和它|跟它|撸|逗")


_DESCRIBED = {"employer", "occupation", "education", "pet", "relationship", "work_city"}


# "我老公也是老师" (also, as I am), "我和我老公都是医生": the person's job said shared with the user.
_SHARED_JOB = re.compile(rf"^(?:(?P<with>我(?:和|跟))(?:我的?)?|我的?|我家)?(?:{_PEOPLE_ZH_ALT})(?!{_PEOPLE_ZH_ALT})[^，,。]{{0,4}}?(?(with)都是|也是)")


def _job_shared_with_user(clause: str, found: list[Candidate]) -> list[Candidate]:
    if not _SHARED_JOB.match(clause) or any(c.memory_key == "user.occupation" for c in found):
        return []
    job = next((c.attributes["occupation"] for c in found if c.memory_key.startswith("user.relationship.") and c.attributes.get("occupation")), None)
    return [_zc("user.occupation", job)] if job else []


_TENDED = re.compile(rf"(?:看|陪|接|送|带|探望|照顾|看望|见)(?:我的?|我家的?)?(?P<role>(?:{_PEOPLE_ZH_ALT})(?:[和跟、]?(?:{_PEOPLE_ZH_ALT}))*)")
_ROLE_WORD = re.compile(_PEOPLE_ZH_ALT)


def _people_in_routine(found: list[Candidate]) -> list[Candidate]:
    """"每个月月底都要去看一次外婆", "五一准备回老家看看爷爷奶奶": the people the user's own routine or plan
    visits or looks after are the user's (unnamed unless named elsewhere in the clause)."""
    out: list[Candidate] = []
    for habit in (c for c in found if c.memory_key in ("user.habits", "user.plan")):
        for said in (word for run in _TENDED.finditer(habit.value) for word in _ROLE_WORD.findall(run.group("role"))):
            role = _PEOPLE_ZH.get(said)
            roles = ("father", "mother") if role == "parents" else (role,) if role and not role.endswith("_in_law") else ()
            for one in roles:
                key = f"user.relationship.{one}"
                if not any(c.memory_key == key for c in found + out):
                    out.append(_zc(key, ""))
    return out


def _all_wishful(clause: str) -> bool:
    """Every part of the clause is a wish or a doubt (the sentence filter lets a Chinese sentence
    through when only some of its parts are, as in "还在犹豫要不要养只猫，我老公不同意")."""
    parts = [part for part in re.split(r"[，,；;]", clause) if part.strip()]
    return bool(parts) and all(is_vague_wish_part(part) for part in parts)


def zh_fact_candidates(clause: str) -> list[Candidate]:
    if _all_wishful(clause) or is_generic(clause):
        return []
    found: list[Candidate] = []
    # A wishful part ("最近在考虑换工作") is nobody's fact; the parts around it still are.
    segments = [(segment, mine and not is_vague_wish_part(segment)) for segment, mine in zh_segments(clause)]
    starts = _segment_starts(clause, segments)
    # Whether a pet or a person was introduced in an earlier part, kept as the parts are read (one
    # pass over the clause, not a rescan of every earlier part per part).
    pet_or_person_before = pet_or_count_before = pet_before = False
    for index, (segment, mine) in enumerate(segments):
        if index:
            previous = segments[index - 1][0]
            pet = _ZH_PET_RULE.search(previous) is not None
            pet_before = pet_before or pet
            pet_or_person_before = pet_or_person_before or pet or _ZH_PERSON_RULE.search(previous) is not None
            pet_or_count_before = pet_or_count_before or pet or _PEOPLE_COUNT_RULE.search(previous) is not None
        if not mine:
            continue
        taken: list[tuple[int, int, str]] = []
        said_before_part = len(found)
        for pattern, build in _ZH_FACT_RULES:
            for match in pattern.finditer(segment):
                home = getattr(build, "__qualname__", "").startswith(("_zb_place", "_zb_date"))
                # "大家都叫我小王": whoever calls, 我 is the one named.
                names_me = build is _zb_name and match.group().startswith("叫我")
                if not names_me and not zh_user_said(segment, match.start(), allow_we=home):
                    continue
                # "我养了只虎皮鹦鹉，叫小绿": a bare 叫X after a pet or a person names them, not me.
                if build is _zb_name and re.match(r"[，,]?叫", match.group()) and pet_or_person_before:
                    continue
                # Builders see the whole clause: what they read beyond the match may sit in any part.
                candidates = build(match, clause)
                if not candidates:
                    continue
                family = candidates[0].memory_key.split(".")[1]
                span = match.span()
                if any(span[0] < end and start < span[1] and fam == family for start, end, fam in taken):
                    continue
                taken.append((*span, family))
                found.extend(candidates)
        # "我的日语是在动漫里学的，能听懂一些": the level may come in the next part.
        following = segments[index + 1][0] if index + 1 < len(segments) and segments[index + 1][1] else ""
        for language in _zb_language_clause(segment, following, whole=clause):
            same = next((f for f in found if f.memory_key == language.memory_key and f.value == language.value), None)
            if same is None:
                found.append(language)
            elif language.attributes.get("level") and not same.attributes.get("level"):
                same.attributes["level"] = language.attributes["level"]  # "我会说英语和日语，日语是N1"
        # "我挺爱喝酒的，尤其是精酿": the part after a like names one more of the same family.
        especially = re.fullmatch(r"(?:尤其是|特别是)(?P<v>[^，,。!！?？]{1,10})|(?P<w>(?!一点|一口|一滴|一丁点|什么|啥)[\u4e00-\u9fff]{1,6}?)(?:也|都)不行", segment)
        if especially and especially.group("w") and not (found and found[-1].memory_key in ("user.food_restrictions", "user.diet")):
            especially = None
        if especially and especially.group("w") and found and found[-1].memory_key == "user.diet":
            # "本人清真，猪肉相关的都不行": what a diet rules out is a restriction.
            food = re.sub(r"(?:相关的?|类的?|做的|的东西|的)$", "", especially.group("w"))
            if food:
                found.append(_zc("user.food_restrictions", food))
            continue
        if especially and index and found and found[-1].memory_key in ("user.likes", "user.dislikes", "user.allergies", "user.food_restrictions"):
            more = re.sub(r"[，,。！!~～啊呀]+$", "", especially.group("v") or especially.group("w"))
            # "我吃不了辣，微辣都不行": a degree of the same food is no second one.
            if found[-1].value not in more:
                found.append(_zc(found[-1].memory_key, more))
            continue
        # "我在顺丰当快递员，每天跑两百多单", "养了一缸金鱼，每天喂两次": what recurs right after a job,
        # a school, a pet or a person is said is their routine, unless the part names its own subject
        # or a time of its own ("…，每天晚上我都带它去遛弯").
        described = any(c.memory_key.split(".")[1] in _DESCRIBED for c in found) or pet_or_count_before
        # "我是个退休的工程师，现在天天在家养花": a part that opens with now is the user's own life.
        own = re.match(r"^(?:[^，,]{0,6}?)(?:我|本人)|^(?:现在|如今|退休后|平时)", segment) or (
            # "家里俩小仓鼠，…，天天半夜蹬轮子": after a pet, a time of day alone keeps the pet as the subject;
            # what the user does to it ("每天晚上喂一次", "带它去遛弯") is still the user's.
            A.time_of_day(segment) and not (pet_before and not _TENDS_PET.search(segment)))
        # "晚上在国开读会计的本科": a part that already said a school or a job says it with its time, not a routine.
        same_part = {c.memory_key for c in found[said_before_part:]}
        if not any(c.memory_key in ("user.habits", "user.medications") for c in found) and (own or not described) \
                and not same_part & {"user.education", "user.employer", "user.occupation"}:
            found.extend(zh_habit_candidates(segment, clause[starts[index]:]))
        # "下周一去百度报到": starting a job is the employer (FACTS.md), not a plan; an employer said in an
        # earlier part ("我在德勤工作，下个月去东京出差") leaves this part's plan alone.
        # "拿到了快手的offer，下个月入职": a later part that only starts the job said before is no plan either.
        starts_job = re.search(r"入职|报到|上岗|onboard", segment, re.IGNORECASE) is not None
        if not any(c.memory_key == "user.plan" for c in found) and "user.employer" not in same_part \
                and not (starts_job and any(c.memory_key == "user.employer" for c in found)):
            found.extend(zh_plan_candidates(segment))
    habit_times_beside([segment for segment, mine in segments[1:] if mine], found)
    found.extend(_allergy_said_after(segments))
    found.extend(zh_chore_owner_candidates(clause, {c.memory_key for c in found}))
    found.extend(_workplace_said_after(segments, found))
    found.extend(_work_city_beside_home(segments, found))
    if not any(c.memory_key == "user.education" for c in found):
        found.extend(programme_without_school(segments, zh_user_said))
    # "我毕业好几年了，大学是在西南交大读的土木", "我在读大四，…，学校是南开": the status is said
    # in another part of the clause than the school.
    # "我现在读高一，在杭州二中": a grade gives way to the school named beside it.
    if any(c.memory_key == "user.education" and not re.fullmatch(r"[高初][一二三]", c.value) for c in found):
        found = [c for c in found if not (c.memory_key == "user.education" and re.fullmatch(r"[高初][一二三]", c.value))]
    # "我是师范大学毕业的，华东师大": a kind of school gives way to the school named beside it.
    named = [c for c in found if c.memory_key == "user.education" and not _GENERIC_SCHOOL.fullmatch(c.value)]
    if named:
        kinds = [c for c in found if c.memory_key == "user.education" and _GENERIC_SCHOOL.fullmatch(c.value)]
        for kind in kinds:
            for key, value in kind.attributes.items():
                named[-1].attributes.setdefault(key, value)
        found = [c for c in found if c not in kinds]
    found = _field_of_degree(clause, segments, starts, found)
    # "研究生毕业于南开，经济学": a discipline said alone after the school is its field.
    schools = [c for c in found if c.memory_key == "user.education"]
    for segment, _ in segments[1:]:
        field = re.fullmatch(rf"(?:学的?是?|读的?是?|专业是?)?(?P<f>[\u4e00-\u9fff]{{0,4}}(?:{_DISCIPLINES})[\u4e00-\u9fff]{{0,3}}?)(?:专业|系|方向)?", segment)
        if field and schools and not schools[-1].attributes.get("field") and field.group("f") != schools[-1].value:
            schools[-1].attributes["field"] = field.group("f")
    for c in schools if len(schools) == 1 else []:
        if c.memory_key == "user.education":
            if re.search(r"毕业(?:好几年|[一二两三四五六七八九十几\d]+年|很久)了|已经毕业", clause):
                c.attributes["status"] = "graduated"
            elif not c.attributes.get("status") and re.search(r"在读|读大[一二三四]|大[一二三四]|研[一二三]|读研|读博", clause):
                c.attributes["status"] = "studying"
            said = re.search(r"研[一二三]|读研|读博|博[一二三](?!十)", clause)
            if said and not c.attributes.get("degree"):
                c.attributes["degree"] = "博士" if "博" in said.group() else "研究生"
            # "我本科学的是会计，在江西财大": degree and field said in the part before the school.
            degree = re.search(r"本科|硕士|博士|MBA|EMBA|大专", clause)
            if degree and not c.attributes.get("degree") and degree.group() != c.value:
                c.attributes["degree"] = degree.group()
            field = re.search(r"(?:学的是|专业是|读的是)(?P<f>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，,。的])", clause)
            if field and not c.attributes.get("field") and field.group("f") not in c.value:
                c.attributes["field"] = field.group("f")
    found = _settle_planned_move(found, clause)
    _name_dropped_activity(found, clause)
    # "我是东北人，哈尔滨的": the city said beside a region is the hometown, not the region.
    if any(c.memory_key == "user.hometown" and c.value not in _REGIONS for c in found):
        found = [c for c in found if not (c.memory_key == "user.hometown" and c.value in _REGIONS)]
    # "我是过敏体质，海鲜一口都不敢碰": what a user who says they are allergic avoids is the allergen.
    if re.search(r"过敏体质|容易过敏", clause) and not any(c.memory_key == "user.allergies" for c in found):
        found = [_zc("user.allergies", c.value) if c.memory_key == "user.food_restrictions" else c for c in found]
    # "阿莫西林我碰不了，一吃就起疹子": a drug the user cannot take for a reaction of the body is an allergen
    # (a food so avoided stays a restriction, as the corpus labels "我不能吃海鲜，吃了会起疹子").
    if re.search(health.ALLERGIC_REACTIONS, clause) and not any(c.memory_key == "user.allergies" for c in found):
        found = [_zc("user.allergies", c.value) if c.memory_key == "user.food_restrictions" and health.looks_like_drug(c.value) else c for c in found]
    # "阿司匹林我不能吃，过敏": what the user avoids because of an allergy is the allergy, not a diet.
    allergens = {c.value for c in found if c.memory_key == "user.allergies"}
    found = [c for c in found if not (c.memory_key == "user.food_restrictions" and c.value in allergens)]
    # "我和男朋友在一起三年了，纪念日是3月8号": the kind may be said in another part of the clause.
    kind = re.search(r"结婚|领证|恋爱|在一起|相识|订婚", clause)
    for candidate in found:
        if candidate.memory_key == "user.anniversary" and not candidate.attributes.get("type") and kind:
            candidate.attributes["type"] = {"领证": "结婚", "在一起": "恋爱"}.get(kind.group(), kind.group())
    for match in _PEOPLE_COUNT_RULE.finditer(clause):
        # "我跟我媳妇儿结婚八年了，有个儿子": a part of the user's own that opens with 有 counts too.
        if (zh_user_said(clause, match.start()) or _said_in_own_part(segments, starts, match.start())) and not re.search(r"没", clause[:match.start()]):
            role = _PEOPLE_ZH.get(match.group("role"), "child")
            if match.group("n") in ("一个", "个") and role != "child":
                # "我有个弟弟叫李明": one person, read like any other (name, age, job after it);
                # "我有个七岁的儿子": the age said before the role.
                people = _zb_person(match, clause)
                for person in people:
                    if match.group("age") and "age" not in person.attributes:
                        person.attributes["age"] = A.zh_int(match.group("age"))
                found.extend(people)
                continue
            age = A.zh_int(match.group("age")) if match.group("age") else None
            # "我有对双胞胎女儿，今年五岁": the age said in the next part is the counted people's
            # when they are twins or one person.
            after = re.match(rf"[，,]\s*(?:今年|都|已经|刚|才)*(?:满)?(?P<n>{A.ZH_NUMBER})岁", clause[match.end():])
            if age is None and after and (re.search(r"对|双胞胎", match.group()) or match.group("n") in ("一个", "个")):
                age = A.zh_int(after.group("n"))
            found.append(_zc(f"user.relationship.{role}", "", age=age))
    # "我家老大今年十岁了": a child said by rank alone, with the age said after it.
    # "我家老大今年上初一了": with or without the age; what the child does is no fact of the user's.
    rank_only = re.match(rf"^(?:我家|我们家)老[大二三小](?:(?:今年|现在|已经|才|刚)?(?:满)?(?P<n>{A.ZH_NUMBER})岁)?", clause)
    if rank_only and not any(c.memory_key == "user.relationship.child" for c in found):
        found = [c for c in found if c.memory_key not in ("user.age", "user.education")]
        found.append(_zc("user.relationship.child", "", age=A.zh_int(rank_only.group("n")) if rank_only.group("n") else None))
    # "我有一儿一女", "两儿一女", "儿女双全": a son and a daughter, unnamed.
    pair = re.search(r"[一两三俩](?:个)?儿(?:子)?[一两三俩](?:个)?女(?:儿)?|儿女双全|一男一女(?=两个|俩|的孩子|$|[，,。])", clause)
    if pair and (zh_user_said(clause, pair.start()) or _said_in_own_part(segments, starts, pair.start())
                 or re.search(r"(?:我|我家|我们家|家里)(?:有|生了)?$", clause[:pair.start()])) \
            and not any(c.memory_key in ("user.relationship.son", "user.relationship.daughter") for c in found):
        found.extend([_zc("user.relationship.son", ""), _zc("user.relationship.daughter", "")])
    # "我们家两个娃，老大叫乐乐，老二叫安安", "我家老大叫豆豆八岁": the children named by their rank,
    # each with the age said right after the name or, in order, in a later "一个七岁一个四岁".
    ranked = list(re.finditer(r"老[大二三四小](?:叫|是|名叫)(?P<n>(?:个)?(?:[\u4e00-\u9fff]{2,3}?|[A-Z][a-z]+))(?=$|[，,。、；;]|今年|\d|[一二三四五六七八九十]+岁)"
                              rf"(?:[，,]?\s*(?:今年|现在|已经|才|刚)?(?P<age>{A.ZH_NUMBER})岁)?", clause))
    # "老大是男孩，6岁；老二是妹妹": a rank with a word of sex says a son or a daughter of the household,
    # unless someone else's household comes before it ("我同事家老大是男孩").
    sexed = [named for named in ranked if _CHILD_SEX.fullmatch(named.group("n"))
             and re.search(r"(?:^|我家|我们家|[，,；;。])$", clause[:named.start()])]
    if ranked and (re.search(r"娃|孩子|儿女", clause) or re.search(r"(?:我|我们)家老[大二三]", clause) or len(ranked) > 1 or sexed):
        if sexed:  # "我家老大是儿子": the rank alone read above is this son or daughter
            found = [c for c in found if not (c.memory_key == "user.relationship.child" and not c.value)]
        each = [A.zh_int(n) for n in re.findall(rf"一个(?P<n>{A.ZH_NUMBER})岁", clause)]
        if len(ranked) == 1 and not each:
            # "我家老二叫安安，刚三岁": the one child's age said after the name.
            later = re.search(rf"(?:今年|刚|已经|才)?(?P<n>{A.ZH_NUMBER})岁", clause[ranked[0].end():])
            each = [A.zh_int(later.group("n"))] if later else []
        for index, named in enumerate(ranked):
            age = A.zh_int(named.group("age")) if named.group("age") else each[index] if len(each) == len(ranked) else None
            sex = _CHILD_SEX.fullmatch(named.group("n"))
            if sex and named in sexed:
                found.append(_zc(f"user.relationship.{'son' if sex.group('son') else 'daughter'}", "", age=age))
            elif not sex:
                found.append(_zc("user.relationship.child", named.group("n"), age=age))
        # "一个七岁一个四岁" are the children's ages, not the user's.
        found = [c for c in found if c.memory_key != "user.age"]
    last_end = -1
    for match in _ZH_PERSON_RULE.finditer(clause):
        start = match.start()
        # "我爸妈", "老婆孩子", "爷爷奶奶": a role right after an accepted one is another person of the same sentence.
        if start == last_end and start > 0:
            found.extend(_zb_person(match, clause))
            last_end = match.end()
            continue
        # "因为男朋友是波兰人", "想给老婆一个surprise": a role the user's own part of the clause opens
        # with, or does something with, is the user's person.
        # ("从小跟着奶奶信佛", "陪着爸妈": the 着 of the verb changes nothing)
        verb_at = start - 1 if clause[start - 2:start] in ("跟着", "陪着", "带着", "随着") else start
        with_user = clause[verb_at - 1:verb_at] in tuple("和跟带陪给替帮见送接看随") and (
            "我" in clause[max(0, verb_at - 4):verb_at] or zh_user_said(clause, verb_at - 1)
            or _said_in_own_part(segments, starts, verb_at - 1, modal=True))
        if start == 0 or clause[start - 1] in "，,、我的家" or clause[max(0, start - 2):start] in ("我们", "家里") or with_user \
                or (_said_in_own_part(segments, starts, start) and start not in starts):
            if start == 0 and not _ZH_ROLE_FREE.match(clause) and match.group("role") not in ("老妈", "老爸"):
                continue
            found.extend(_zb_person(match, clause))
            last_end = match.end()
    found.extend(_job_shared_with_user(clause, found))
    found.extend(_people_in_routine(found))
    species: set[str] = set()
    for match in _ZH_PET_RULE.finditer(clause):
        # "猫主子今天又…，它叫大橘": a species opening the clause is the user's pet only when it is named.
        bare_start = match.start() == 0 and not re.match(r"我|家|养|有|领|收|买|带|捡|抱|接", match.group())
        # "带我家狗去打疫苗": 我家/我的 before the species says whose it is, whatever verb comes first.
        possessed = re.match(r"我(?:家|的|们家)", match.group()) is not None
        # "我叫陈静，家里那只狗叫豆包": 家里 opening a part is the user's household ("朋友家里的狗" is not).
        possessed = possessed or (match.group().startswith("家里") and re.search(r"(?:^|[，,；;。\s])$", clause[:match.start()]) is not None)
        if zh_user_said(clause, match.start()) or clause[:match.start()].endswith(("我", "我的", "我家")) or match.start() == 0 or species \
                or _said_in_own_part(segments, starts, match.start()) or possessed:
            pets = [p for p in _zb_pet(match, clause) if p.memory_key not in species and (p.value or not bare_start)]
            found.extend(pets)
            # "我们家有两只猫一只狗": each species said once; the first mention of one carries its name.
            species |= {p.memory_key for p in pets} or {"-"}
    # "我有个女儿，叫朵朵，今年五岁": the age went to the person the clause is about, not the user.
    ages = {str(c.attributes.get("age")) for c in found if c.memory_key.startswith("user.relationship.") and c.attributes.get("age") is not None}
    found = [c for c in found if not (c.memory_key == "user.age" and c.value in ages)]
    # "养了一只布偶，名字叫Mochi": a bare 名字叫 after a pet or a person names them, not the user.
    given = {c.value for c in found if c.value and c.memory_key.startswith(("user.pet.", "user.relationship."))}
    found = [c for c in found if not (c.memory_key == "user.name" and c.value in given)]
    return settle_values(found)


# The words of sex that say which child a rank is ("老大是男孩", "老二是个闺女").
_CHILD_SEX = re.compile(r"个?(?:(?P<son>男孩子?|儿子|男娃|小子|弟弟|哥哥)|女孩子?|女儿|闺女|女娃|丫头|妹妹|姐姐)")


# A part that says the state just told has ended ("…，后来放弃了", "…，没坚持下来") makes the parts
# before it past; a part that names the present ("现在", "目前") starts the present again.
_ENDED = re.compile(r"^(?:但是?|不过|可)?(?:后来|没多久)?(?:就)?(?:放弃了|没坚持|坚持不下来|不[\u4e00-\u9fff]{1,3}了$|又不)")
# "小时候就查出来对尘螨过敏，到现在也没好": a later part that says it still holds makes it present.
_STILL = re.compile(r"到现在|至今|现在还|现在也|一直没好|还没好|还是这样|一直都")
_NOW = re.compile(r"现在|目前|如今|这几年|这两年|最近|今年|眼下|当下|^(?:但是?|不过|可是)?(?:我)?(?:还|也|一直)")


def said_in_present(value: str, clause: str) -> bool:
    """Whether `value` sits in a part of a Chinese past-state clause that is not itself past:
    "我英语挺溜的，在外企待过" has its 待过 in the second part only, so the English is current;
    "以前在百度干了四年，做产品" carries the past into the part after it."""
    if not value or not is_cjk(clause):
        return False
    at = clause.find(value)
    if at < 0:
        return False
    parts = [(m.start(), m.group()) for m in re.finditer(r"[^，,；;]+", clause)]
    past = []
    for index, (_, part) in enumerate(parts):
        own = is_past_state(part)
        # "我小时候在香港长大，粤语很地道": a part that opens with a topic of its own (a noun) says
        # something new; one that opens with a verb goes on with the past ("…，做产品").
        topic = bool(part.strip()) and tags(part.strip())[0][1].startswith("n")
        carried = bool(past) and past[-1] and not _NOW.search(part) and not topic
        past.append(own or carried)
        if _ENDED.match(part.strip()):
            past = [True] * len(past)
        elif _STILL.search(part):
            past = [False] * len(past)
    for (start, part), was in zip(parts, past):
        if start <= at < start + len(part):
            return not was
    return False
