"""Pets: species, names, breed and age."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_zh import subject
from layers.formation.extractor.rules_zh.common import _TERM, _c, _zc
from layers.formation.extractor.rules_zh.pos import is_time_word, tags
from layers.formation.extractor.text import tidy_value

_PETS = {"狗": "dog", "小狗": "dog", "狗狗": "dog", "猫": "cat", "小猫": "cat", "猫咪": "cat"}


_PET_ALT = "|".join(sorted(_PETS, key=len, reverse=True))


_SPECIES_ZH = {"小仓鼠": "hamster", "小鹦鹉": "parrot", "小金鱼": "fish", "八哥": "bird", "猫": "cat", "猫咪": "cat", "小猫": "cat", "猫主子": "cat", "狗": "dog", "狗狗": "dog", "小狗": "dog",
               "兔子": "rabbit", "小兔子": "rabbit", "兔": "rabbit", "乌龟": "turtle", "小乌龟": "turtle", "龟": "turtle",
               "仓鼠": "hamster", "金鱼": "fish", "鱼": "fish", "鹦鹉": "parrot", "鸟": "bird", "小鸟": "bird",
               # the pet words of the internet ("家里的汪星人", "我家狗子"); a bare 喵 is as often the sound
               "喵星人": "cat", "汪星人": "dog", "狗子": "dog",
               "守宫": "gecko", "龙猫": "chinchilla", "蜥蜴": "lizard",
               # English species in a Chinese sentence ("我家有只cat，叫Mimi").
               "cat": "cat", "kitty": "cat", "dog": "dog", "puppy": "dog", "bunny": "rabbit", "rabbit": "rabbit",
               "hamster": "hamster", "parrot": "parrot", "turtle": "turtle"}


_BREEDS_ZH = {"边牧": "dog", "泰迪": "dog", "柴犬": "dog", "金毛": "dog", "哈士奇": "dog", "柯基": "dog", "拉布拉多": "dog",
              "萨摩耶": "dog", "比熊": "dog", "博美": "dog", "法斗": "dog", "雪纳瑞": "dog", "中华田园犬": "dog", "土狗": "dog",
              "布偶": "cat", "布偶猫": "cat", "英短": "cat", "美短": "cat", "橘猫": "cat", "暹罗猫": "cat", "狸花猫": "cat", "狸花": "cat",
              "加菲猫": "cat", "三花猫": "cat", "三花": "cat", "奶牛猫": "cat", "银渐层": "cat", "金渐层": "cat",
              "缅因猫": "cat", "缅因": "cat", "蓝猫": "cat", "黑猫": "cat", "白猫": "cat", "田园猫": "cat", "无毛猫": "cat",
              "德牧": "dog", "阿拉斯加": "dog", "贵宾": "dog", "吉娃娃": "dog", "巴哥": "dog", "秋田": "dog", "腊肠": "dog",
              "杜宾": "dog", "马尔济斯": "dog", "约克夏": "dog", "京巴": "dog", "沙皮": "dog", "松狮": "dog", "牧羊犬": "dog",
              "巴西龟": "turtle", "草龟": "turtle", "玄凤": "bird", "虎皮鹦鹉": "bird", "斗鱼": "fish",
              "孔雀鱼": "fish", "锦鲤": "fish", "热带鱼": "fish", "龙鱼": "fish", "二哈": "dog", "玄凤鹦鹉": "bird",
              "dachshund": "dog", "corgi": "dog", "husky": "dog", "shiba": "dog", "golden": "dog", "poodle": "dog"}


_BREED_ALT = "|".join(sorted(_BREEDS_ZH, key=len, reverse=True))


_PET_ZH_ALT = "|".join(sorted(list(_SPECIES_ZH) + list(_BREEDS_ZH), key=len, reverse=True))


# "叫团子", "名字是可乐", "取名叫奶糖", "大名旺财": the words that give a pet its name.
_NAMED_AS = re.compile(r"(?:它|他|她)?(?:的)?(?:叫做|名叫|取名(?:叫|为)?|起名(?:叫|为)?|名字(?:是|叫)|大名(?:是|叫)?|小名(?:是|叫)?|叫|的名字是)"
                       r"(?P<n>[\u4e00-\u9fff]{1,4}|[A-Z][a-z]+)")


def _name_said_after(rest: str) -> str:
    """The name said after the species in the rest of the clause: by a naming word ("养了只柯基名字是可乐"),
    or as a part of its own that is one noun ("我家橘猫，团子，三岁了")."""
    later = _NAMED_AS.search(rest)
    if later and not re.search(r"没|还没", rest[:later.start()]) and not re.match(r"什么|啥", later.group("n")):
        return later.group("n")
    alone = re.match(r"^[，,]\s*(?P<n>[\u4e00-\u9fff]{2,3}|[A-Z][a-z]+)(?=[，,。!！~～]|$)", rest)
    if alone:
        pairs = tags(alone.group("n"))
        word = alone.group("n")
        if len(pairs) == 1 and pairs[0][1].startswith("n") and pairs[0][1] != "nt" and word not in _SPECIES_ZH \
                and word not in _BREEDS_ZH and not re.match(r"[公母]的", word) and not is_time_word(word):
            return word
    return ""


# "一只叫大橘，一只叫咪咪", "黑的叫煤球，白的叫雪糕", "公的叫豆豆": each of several pets told apart by
# which one it is (one of them, by rank, by a colour or a look), then its name.
_WHICH_ONE = r"(?:一只|一条|另一只|另一条|另外一只|老大|老二|老三|一个|另一个|(?:^|(?<=[，,、])|(?<=[，,、]\s))[\u4e00-\u9fff]{1,2}的)"
_NAMED_EACH = re.compile(rf"(?:{_WHICH_ONE})(?:叫|名叫|叫做)(?P<n>[\u4e00-\u9fff]{{1,3}}?|[A-Z][a-z]+)(?=[，,、。；;]|一只|一条|另|$)"
                         # "芝麻是黑的，汤圆是白的": the name first, then which one it is.
                         r"|(?:^|(?<=[，,、])|(?<=[，,、]\s))(?P<m>[\u4e00-\u9fff]{2,3}|[A-Z][a-z]+)是(?:[\u4e00-\u9fff]{1,2}色?的|老大|老二|哥哥|姐姐|弟弟|妹妹)(?=[，,、。；;]|$)")


def _several_named(rest: str) -> list[str]:
    names = [found.group("n") or found.group("m") for found in _NAMED_EACH.finditer(rest)]
    return [name for name in names if name not in _SPECIES_ZH and not is_time_word(name)]


def _zb_pet(m, clause):
    word = m.group("sp")
    species = _SPECIES_ZH.get(word) or _BREEDS_ZH.get(word)
    if not species:
        return []
    breed = word if word in _BREEDS_ZH else None
    if word == "金鱼" or (species == "bird" and word not in ("鸟", "小鸟")):
        breed = word  # "一只八哥": a kind of bird is its breed (FACTS.md: budgies are bird, breed recorded)
    rest = clause[m.end():]
    if not breed:
        # "我家猫咪叫咪咪，今年5岁了，是英短": the breed said later in the same clause.
        later = re.search(rf"(?:(?:是|是只|是一只|是条|品种是)(?:老|小)?|^[，,]\s*|[，,]\s*(?=(?:{_BREED_ALT})(?:$|[，,。])))(?P<b>{_BREED_ALT})", rest)
        if later and _BREEDS_ZH[later.group("b")] == species:
            breed = later.group("b")
    names = []
    listed = re.match(r"[：:]\s*(?P<l>[\u4e00-\u9fffA-Za-z、，, 和]+)", rest)
    counted = re.search(r"[两俩三四]只|[两三四]条|俩", m.group())
    several = _several_named(rest)
    if listed:
        names = [n for n in re.split(r"[、，, 和]+", listed.group("l")) if n]
    elif counted and len(several) > 1:
        names = several
    else:
        name = m.groupdict().get("v") or m.groupdict().get("pre") or ""  # "养了一只叫Lucky的金毛"
        names = [name or _name_said_after(rest)]
    age = re.search(rf"(?P<n>{A.ZH_NUMBER})岁", rest)
    age_value = A.zh_int(age.group("n")) if age else None
    # "我家husky叫Lucky，two years old了": the age said in English in a Chinese frame.
    english_age = re.search(r"(?i)\b(?P<n>\d{1,2}|[a-z]+)\s*(?:years?|yrs?)\s*old", rest) if age_value is None else None
    if english_age:
        age_value = A.plausible_age(A.en_int(english_age.group("n")), low=0)
    # "养了只三岁的布偶猫": the age said before the species.
    if age_value is None and m.groupdict().get("pre_age") and re.search(r"岁", m.group()):
        age_value = A.zh_int(m.group("pre_age"))
    out = []
    for name in names:
        name = re.sub(r"(?:了|啊|呀|的)$", "", name)
        if name in _SPECIES_ZH or re.match(r"[是在又也都就不没真太很超把被快才刚还]", name) or is_time_word(name):
            name = ""  # "玄凤鹦鹉": the kind then the species word; "猫主子今天…", "猫是液体": no name
        if not name and not listed:
            name = _name_said_after(rest)
        if name and re.match(r"还没|没有|取名|名字|[一两三四五六七八九十几\d]+[只条个]", name):
            name = ""
        out.append(_zc(f"user.pet.{species}", name, breed=breed, age=age_value))
    return out


# "我家柯基豆豆四岁了", "我的仓鼠团子也快两岁了": a name may stand right before the pet's age or an adverb.
_ZH_PET_RULE = re.compile(rf"(?:^|(?:我|我的|我家|我们家|家里|家)(?:的)?(?:养了|新养了|有|养的|还有|还养了|也有|也养了)?|养了|新养了|领养了|收养了|买了|带回来了?|抱回来了?|接回来了?|领回家了?|有|还有|捡了|带|和|跟|以及|(?<=[猫狗鸟鱼龟兔])(?=[一两三四五六七八九十几\d](?:只|条)))(?:(?:[一两三四五六七八九十几\d那这]|俩)?(?:只|条|缸|对|窝)|俩)?(?:叫(?P<pre>[A-Za-z]+|[\u4e00-\u9fff]{{1,3}})的|[\u4e00-\u9fff]{{1,2}}色的|(?P<pre_age>[一两三四五六七八九十\d]{{1,2}})(?:岁|个月)(?:大)?的)?小?(?P<sp>{_PET_ZH_ALT})(?:的名字)?(?:叫做|名叫|叫)?(?P<v>(?![一两三四五六七八九十几\d半]+(?:[只条个]|岁|个月|周)|今年|现在|[才快都也还刚已]|名字|取名|起名|大名|小名|毛(?![毛球豆]))[\u4e00-\u9fff]{{1,3}}(?<![快才都也还])(?=[，,。]|$|今年|特别|是|已经|昨[天晚]|今[天晚早]|前[天几]|刚|又|总|老是|最近|每天|天天|现在|超|真|可|也|还|都|快|才|[一两三四五六七八九十\d半]+(?:岁|个月))|[A-Z][a-z]+)?")


def _legacy_pet(match: re.Match) -> list[Candidate]:
    return [_c(f"user.pet.{_PETS[match.group('role')]}", tidy_value(match.group("v")))]


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我(?:家)?(?:的)?(?P<role>{_PET_ALT})(?:的名字)?(?:叫做|名叫|叫)(?P<v>[\u4e00-\u9fff]{{1,4}}|[A-Z][a-zA-Z]+){_TERM}"), _legacy_pet),
]


# "每天早上我都会先遛狗": whoever walks a dog has one; whoever takes the kids to school has them.
_CHORES = (("遛我家", "user.pet.dog"), ("遛狗", "user.pet.dog"), ("撸猫", "user.pet.cat"), ("喂猫", "user.pet.cat"), ("铲屎", "user.pet.cat"),
           ("带孩子", "user.relationship.child"), ("带娃", "user.relationship.child"), ("接孩子", "user.relationship.child"),
           ("送孩子", "user.relationship.child"), ("哄娃", "user.relationship.child"), ("哄孩子", "user.relationship.child"),
           ("陪娃", "user.relationship.child"), ("陪孩子", "user.relationship.child"))


def zh_chore_owner_candidates(clause: str, said: set[str]) -> list[Candidate]:
    """An unnamed pet or child for each chore the user does in `clause`, unless `said` (the keys
    already read from it) has one."""
    out = []
    for chore, key in _CHORES:
        at = clause.find(chore)
        if at < 0 or key in said or any(c.memory_key == key for c in out):
            continue
        if subject.zh_user_said(clause, at) or re.match(r"^(?:每|平时|一般|早上|晚上|周)", clause) \
                or (key == "user.relationship.child" and _household_tends(clause[:at])):
            out.append(_zc(key, ""))
    return out


# "我老公周末在家带孩子", "我婆婆住我们家帮忙带孩子", "我现在是全职在家带孩子": the children the user's household
# looks after are the user's, whoever of the household does it; a friend's or a neighbour's are theirs.
_HOUSEHOLD = re.compile(r"^(?:我|我的?|我家的?)(?:老公|老婆|爱人|先生|太太|媳妇儿?|婆婆|公公|岳母|丈母娘|爸妈|妈|爸|父母)?")


def _household_tends(before: str) -> bool:
    part = re.split(r"[，,；;]", before)[-1]
    return _HOUSEHOLD.match(part) is not None and not re.search(r"朋友|同事|邻居|同学|室友|他|她|别人|人家|表|堂|亲戚|姐|哥|弟|妹", part)
