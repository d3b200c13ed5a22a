"""Family and close people: relationship roles with names and attributes."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_zh.common import _TERM, _TRAILING, _c, _zc
from layers.formation.extractor.rules_zh.employment import _PROFESSIONS
from layers.formation.extractor.rules_zh.location import _CITY_ALT, _COUNTRIES_ZH
from layers.formation.extractor.rules_zh.personal import _SURNAMES
from layers.formation.extractor.rules_zh.pos import is_time_word, tags
from layers.formation.extractor.text import tidy_value

_ROLES = {"老婆": "wife", "妻子": "wife", "太太": "wife", "爱人": "partner", "老公": "husband", "丈夫": "husband",
          "女儿": "daughter", "儿子": "son", "妈妈": "mother", "母亲": "mother", "妈": "mother", "爸爸": "father",
          "父亲": "father", "爸": "father", "哥哥": "older_brother", "姐姐": "older_sister", "弟弟": "younger_brother",
          "妹妹": "younger_sister", "女朋友": "girlfriend", "男朋友": "boyfriend", "女友": "girlfriend",
          "男友": "boyfriend", "孩子": "child", "老板": "boss", "宝宝": "baby", "未婚夫": "fiance", "未婚妻": "fiancee",
          "奶奶": "grandmother", "爷爷": "grandfather", "闺女": "daughter", "媳妇": "wife", "媳妇儿": "wife",
          "老伴": "partner", "男票": "boyfriend", "女票": "girlfriend", "先生": "husband"}


_ROLE_ALT = "|".join(sorted(_ROLES, key=len, reverse=True))


_PEOPLE_ZH = {**_ROLES, "老妈": "mother", "老爸": "father", "继父": "father", "后爸": "father", "继母": "mother",
              "哥": "older_brother", "姐": "older_sister", "弟": "younger_brother", "妹": "younger_sister",
              "对象": "partner", "闺蜜": "best_friend", "好朋友": "best_friend", "最好的朋友": "best_friend",
              "室友": "roommate", "舍友": "roommate", "同事": "colleague", "领导": "boss", "上司": "boss",
              "外婆": "grandmother", "姥姥": "grandmother", "外公": "grandfather", "姥爷": "grandfather",
              "小儿子": "son", "大儿子": "son", "小女儿": "daughter", "大女儿": "daughter", "娃": "child",
              "宝宝": "child", "孩子们": "child", "小朋友": "child", "小孩": "child", "娃儿": "child",
              "宝贝女儿": "daughter", "宝贝闺女": "daughter", "宝贝儿子": "son",
              "孩子他爸": "husband", "孩子她爸": "husband", "孩子他妈": "wife", "孩子她妈": "wife", "两个孩子": "child", "俩孩子": "child", "婆婆": "mother_in_law",
              "公公": "father_in_law", "岳母": "mother_in_law", "丈母娘": "mother_in_law", "岳父": "father_in_law",
              "未婚夫": "partner", "未婚妻": "partner", "爱人": "partner", "boss": "boss",
              "那位": "partner", "那口子": "partner", "另一半": "partner",
              "爸妈": "parents", "父母": "parents", "爹妈": "parents", "爸爸妈妈": "parents",
              "大宝": "child", "二宝": "child", "熊孩子": "child", "老爹": "father", "爹": "father", "娘": "mother",
              # English role words in a Chinese sentence ("我husband是做finance的", "我mom下周来看我").
              "husband": "husband", "wife": "wife", "girlfriend": "girlfriend", "boyfriend": "boyfriend", "gf": "girlfriend",
              "bf": "boyfriend", "mom": "mother", "mum": "mother", "dad": "father", "son": "son", "daughter": "daughter",
              "partner": "partner", "sister": "sister", "brother": "brother", "kids": "child", "kid": "child",
              "roommate": "roommate", "colleague": "colleague", "coworker": "colleague", "bestie": "best_friend",
              "grandma": "grandmother", "grandpa": "grandfather", "fiance": "partner", "fiancé": "partner", "fiancee": "partner"}


_PEOPLE_ZH_ALT = "|".join(sorted(_PEOPLE_ZH, key=len, reverse=True))


_ZH_NAME_LIKE = (r"(?P<v>(?![一二三四五六七八九十两\d]|怀|生|住|爱|喜|做|当|得|患|身|工|上班|生日|岁|今年|明年|下个|上个|最近|现在|平时|每天|特别|非常|叫|是|今|在|也|都|说|很|特|超|刚|已|每|天|最|就|和|跟|上|下|又|还|从|把|被|让|给|对|不|没|会|要|想|这|那|去|来|的|有|经|正|过|比|挺|好)"
                 r"(?:阿[A-Z][a-z]+|(?:小|老|阿)[\u4e00-\u9fff]|[A-Z][a-z]+|[\u4e00-\u9fff]{2,3}(?<![才刚也很])(?=，|,|$|今年|是|在|已经|特别|喜欢|\d|[一二三四五六七八九十]+岁|刚|也|很|超|最|每|才)))")


def _zh_person_attrs(rest: str) -> dict:
    out: dict = {}
    # "比我小三岁" is how much older or younger, not an age.
    rest = re.sub(r"比我[大小][^，,。]{0,4}岁", "", re.split(r"[。！？!?]", rest)[0])
    age = re.search(rf"(?:今年|满|已经|刚)?(?P<n>{A.ZH_NUMBER})多?(?:周岁|岁|大寿|了[，,。]|了$)|(?:今年|刚满|满)(?P<m>{A.ZH_NUMBER})(?=$|[，,。])", rest)
    if age:
        value = A.plausible_age(A.zh_int(age.group("n") or age.group("m")), low=0)
        if value is not None:
            out["age"] = value
    occupation = re.search(rf"(?:是|当)(?:一名|个|一个)?(?P<v>(?:退休)?[\u4e00-\u9fffA-Za-z]{{0,6}}?(?:{_PROFESSIONS}|消防员|厨师|医生|老师))|是做(?P<w>[\u4e00-\u9fffA-Za-z]{{1,10}}?)的"
                           r"|(?:^|[，,]\s*(?:他|她)?)是(?:一名|个|一个)?(?P<x>[A-Za-z][A-Za-z ]{1,20}?)(?=$|[，,。])"
                           r"|(?:是|当)(?:一名|个|一个)?(?P<y>[\u4e00-\u9fff]{1,4}(?:师|员|教练))(?=$|[，,。])", rest)
    if occupation:
        out["occupation"] = occupation.group("v") or occupation.group("w") or occupation.group("x") or occupation.group("y")
    # "我爸每天早上都去公园打太极": the pastime without its time of day.
    untimed = re.sub(r"(?<=[天每整])(?:都|会|要)+", "", re.sub(A.ZH_TIME.pattern, "", rest))
    likes = re.search(r"(?:特别|超|很|最|非常)?(?:喜欢|爱|迷上了|热爱|能吃(?=辣|甜|肉))(?P<v>[^，,。!！?？]{1,10})|(?:天天|每天|整天|就知道)(?:去|在)?(?P<w>[^，,。!！?？]{2,8})", untimed)
    if likes:
        value = likes.group("v") or likes.group("w")
        value = re.sub(r"^(?:上了|上|看|追)?", lambda x: x.group() if x.group() in ("看",) else "", value) if value else value
        out["likes"] = _TRAILING.sub("", value) if value else None
    # "我儿子在实验小学上三年级": the school a child goes to.
    # "我妹，她在二中念高三": the person's own part may open with 他/她.
    rest = re.sub(r"^[，,]\s*(?:他|她)(?=现在|目前|今年|在|上|读|念|考)", "", rest)
    school = re.match(r"^(?:现在|目前|今年)?在(?P<v>[\u4e00-\u9fffA-Za-z]{0,10}?(?:小学|中学|幼儿园|大学|学院|学校|一中|二中|三中|四中|附中|附小|高中|初中))(?:上|读|念)"
                      # "我儿子今年上幼儿园", "我女儿在读小学": the kind of school, when no name is given.
                      r"|^(?:现在|目前|今年|刚|才|已经)*(?:在)?(?:上|读|念)(?P<w>幼儿园|小学|初中|高中|大学|中专|职高)(?=$|[，,。了啦]|[一二三四五六]年级)", rest)
    # "妹妹小鱼刚考上川大": the school a person got into.
    school = school or re.match(r"^(?:刚|今年|已经|终于)*(?:考上了?|考进了?|被)(?P<v>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:录取了?|的(?:研究生|本科|博士))?(?=$|[，,。!！了])", rest)
    # "我弟弟在北大读大二", "我表姐在复旦读研究生": a year of study or a degree after 在X读 makes X a school, even
    # without a school word, unless X is a town or a country ("在北京读大二").
    if not school:
        school = re.match(r"^(?:现在|目前|今年)?在(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:读|上|念)(?:大[一二三四]|研[一二三]|博[一二三]|本科|研究生|硕士|博士)", rest)
        if school and (re.fullmatch(_CITY_ALT, school.group("v")) or re.fullmatch(_COUNTRIES_ZH, school.group("v"))):
            school = None
    if school:
        out["school"] = school.group("v") or school.groupdict().get("w")
    birthday = re.search(r"生日是(?P<v>[^，,。]+)|(?P<w>[^，,。]{2,8}?)(?:过生日|过[\u4e00-\u9fff]{1,3}大寿|生日)", rest)
    if birthday:
        out["birthday"] = tidy_value(birthday.group("v") or birthday.group("w"))
    return {k: v for k, v in out.items() if v}


def _zb_person(m, clause):
    role = _PEOPLE_ZH.get(m.group("role"))
    if role == "parents":
        # "周末回家看爸妈": both of them, unnamed.
        return [_zc("user.relationship.father", ""), _zc("user.relationship.mother", "")]
    if not role or role.endswith("_in_law"):
        return []
    name = m.groupdict().get("v") or ""
    if name in ("小名", "大名", "名字", "全名") or name in _PEOPLE_ZH:
        name = ""  # (or a second role: "我同事老公" is the colleague's husband, not a colleague called 老公)  # "我儿子小名叫豆豆": the kind of name, then the name
    if re.fullmatch(r"姓[\u4e00-\u9fff]", name):
        name = name[1]  # "我们领导姓周": the surname is the name given
    elif name.startswith("姓"):
        name = ""
    # A name right after the role ("我女儿朵朵", "我同事小李") looks like one: a surname, 小/老/阿, a doubled
    # character or Latin letters; "帮我爸管店" is a verb phrase, not a name. After 叫 anything goes.
    if name and len(name) > 1 and re.fullmatch(r"[\u4e00-\u9fff]+", name) and not (
            name[0] in _SURNAMES or name[0] in "小老阿" or (len(name) == 2 and name[0] == name[1])):
        name = ""
    rest = clause[m.end():]
    before = clause[:m.start()]
    # "下周六是我女朋友生日": the date said before whose birthday it is.
    said_before = re.search(rf"(?P<d>{A.ZH_DATE.pattern}(?:{A.ZH_DATE.pattern})*)(?:就)?是(?:我的?|我家的?)$", before)
    birthday_before = said_before.group("d") if said_before and re.match(r"(?:的)?生日", rest) else None
    # "我老公周末在家": a time word after the role is when, never who.
    if name and is_time_word(name) and not re.fullmatch(r"[小老阿][\u4e00-\u9fff]", name):
        name = ""  # (jieba reads 老周 as a time word; after a role it is a person)
    if not name and rest:
        # "我儿子豆豆发烧了": the word right after the role, when jieba reads it as a person's name
        # (nr) or it has a name's shape (a doubled character, 小/阿 + one), whatever follows it.
        word, flag = tags(rest)[0]
        if re.fullmatch(r"[\u4e00-\u9fff]{2,3}", word) and (
                flag.startswith("nr") or (len(word) == 2 and word[0] == word[1]) or word[0] in "小阿") \
                and not is_time_word(word):
            name, rest = word, rest[len(word):]
    if not name and rest[:1] in _SURNAMES:
        # "我们领导王总人挺好的": a surname and a title, which jieba reads as two words.
        titled = re.match(r".(?:总|经理|老师|工|主任|律师|医生|博士|老板|导|姐|哥)", rest)
        if titled:
            name, rest = titled.group(), rest[titled.end():]
    if not name:
        # "我们领导姓周": a surname is all the user gave.
        surname = re.match(r"姓(?P<n>[\u4e00-\u9fff])(?=$|[，,。]|人|的)", rest)
        if surname:
            name, rest = surname.group("n"), rest[surname.end():]
    if not name:
        named = re.match(r"(?:的)?(?:小名|大名|名字|全名|英文名|中文名)?(?:叫做|名叫|叫|是叫|(?<=名|字)是)(?P<n>[阿小][A-Z][a-zA-Z]+|[\u4e00-\u9fff]{1,4}|[A-Z][a-zA-Z]+)", rest)
        if named:
            name = named.group("n")
            rest = rest[named.end():]
    if name and re.match(r"[了过着他她它你是在也都就说]", name):
        name = ""
    if not name:
        later = re.search(r"^[^。！？!?]*?[，,]\s*(?:她|他)?(?:的名字)?叫(?P<n>[\u4e00-\u9fff]{2,3}|[A-Z][a-z]+)", rest)
        if later:
            name = later.group("n")
    attrs = _zh_person_attrs(rest)
    if birthday_before:
        attrs["birthday"] = birthday_before
    return [_zc(f"user.relationship.{role}", name, **attrs)]


# "我有两个孩子", "我家有俩娃", "我们家三个小孩", "家里有个妹妹": the people counted, however the household is said.
_PEOPLE_COUNT_RULE = re.compile(rf"(?:我有|有|(?:家里|我家|我们家)有?)(?P<n>一个|两个|三个|四个|俩|仨|个|一?对|[两三四](?=娃|孩))(?:(?P<age>{A.ZH_NUMBER})岁的)?(?:双胞胎|亲|小|大)?(?P<role>孩子|小孩|女儿|儿子|闺女|哥哥|姐姐|弟弟|妹妹|娃|宝宝)")


_ZH_PERSON_RULE = re.compile(rf"(?:(?<=我)|(?<=我们)|(?<=我们家)|(?<=家里)|(?<=[爸妈婆公子儿奶爷姐哥弟妹])|(?<=我的)|(?<=我家)|(?<=我家的)|^|(?<=[，,、和跟带陪给替帮见送接看])|(?<=跟着)|(?<=陪着)|(?<=带着))(?P<role>{_PEOPLE_ZH_ALT})(?!们|夫)(?:\s?(?=[A-Z]))?(?:{_ZH_NAME_LIKE})?")


# A role opening the utterance is the user's own ("女儿今年9岁", "奶奶八十多了").
_ZH_ROLE_FREE = re.compile(r"^(?:孩子|宝宝|娃|大宝|二宝|熊孩子|大儿子|小儿子|大女儿|小女儿|爸妈|老公|老婆|同事|闺蜜|室友|对象|老板|领导|上司|女儿|儿子|闺女|奶奶|爷爷|外婆|外公|姥姥|姥爷|爸爸|妈妈|老爸|老妈|"
                           r"哥哥|姐姐|弟弟|妹妹|孩子他爸|孩子她爸|孩子他妈|孩子她妈|女朋友|男朋友|女友|男友|媳妇儿?|爱人|太太|老伴|未婚夫|未婚妻|另一半)")


def _legacy_relation(match: re.Match) -> list[Candidate]:
    return [_c(f"user.relationship.{_ROLES[match.group('role')]}", tidy_value(match.group("v")))]


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我(?:的)?(?P<role>{_ROLE_ALT})(?:的名字)?(?:叫做|名叫|叫|是叫)(?P<v>(?![了过着他她它你])[\u4e00-\u9fff]{{1,4}}|[A-Z][a-zA-Z]+){_TERM}"), _legacy_relation),
]
