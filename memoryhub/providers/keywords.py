"""The keyword tokeniser behind the long-term layer's full-text path (Chinese and English).

PostgreSQL's parsers neither segment Chinese nor stem the way recall on questions needs, so the app
tokenises itself and stores the tokens as literal lexemes (see `layers.long_term`):

- Chinese runs go through jieba's search mode (a long word also yields the shorter dictionary words
  inside it), plus the character bigrams of any word of three or more characters, so a query for
  `花生` still meets a document segmented as `花生酱`.
- Latin words are lowercased, stop words dropped, and reduced by a light suffix stemmer (plurals,
  -ing, -ed, a final -e) so `peanut` meets `peanuts` and `hiking` meets `hike`.

Tokens contain only lowercase ASCII letters/digits or CJK characters, so they are safe to quote as
tsquery lexemes without escaping.
"""
from __future__ import annotations

import functools
import logging
import re
import threading
import unicodedata
from collections import Counter

_WORD_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[a-z0-9]+(?:'[a-z]+)?")
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

ENGLISH_STOP_WORDS = frozenset("""
a about above after again against all am an and any are aren as at be because been before being
below between both but by can could did didn do does doesn doing don down during each few for from
further had hadn has hasn have haven having he her here hers herself him himself his how i if in into
is isn it its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up very was wasn we were weren what when where
which while who whom why will with won would you your yours yourself yourselves also ll re ve d s t m
""".split())

CHINESE_STOP_WORDS = frozenset(
    "的 了 是 在 和 与 及 也 就 都 而 着 吗 呢 吧 啊 哦 呀 嗯 这 那 这个 那个 一个 有 我 你 他 她 它 我们 你们 "
    "他们 她们 它们 对 把 被 给 让 从 向 又 还 很 最 更 么 什么 怎么 哪 哪里 哪儿 吗 之 其 或 但 却 如果 因为 所以".split()
)

_jieba = None
_jieba_lock = threading.Lock()


def _segmenter():
    """jieba, initialised once per process and without its start-up chatter on stderr."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                logging.getLogger("jieba").setLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return _jieba


def warm_up() -> None:
    """Load jieba's dictionary now (about a second of CPU per process) rather than in a request."""
    _segmenter()


def stem(word: str) -> str:
    """A light English stemmer: enough to join inflected forms, never so aggressive it merges meanings."""
    if word.endswith("'s"):
        word = word[:-2]
    word = word.replace("'", "")  # tokens never carry a quote into a tsquery
    if word.isdigit() or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("es") and len(word) > 4 and (word[-3] in "sxz" or word[-4:-2] in ("ch", "sh")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            # stopped -> stop, running -> run
            if len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]
            word = base
            break
    # make / making / maked all end as "mak"; applied to every word so both sides agree.
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _cjk_tokens(run: str) -> list[str]:
    out: list[str] = []
    for word in _segmenter().cut_for_search(run):
        if not word.strip() or word in CHINESE_STOP_WORDS:
            continue
        if len(word) >= 3:
            # search mode already emitted the dictionary words inside this one; add the other bigrams
            seen = set(out[-len(word):])
            out.extend(bigram for bigram in (word[i:i + 2] for i in range(len(word) - 1)) if bigram not in seen)
        out.append(word)
    return out


def tokenize(text: str) -> list[str]:
    """Keyword tokens of `text`, in order, with repeats (term frequencies count them)."""
    normalised = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")
    tokens: list[str] = []
    for match in _WORD_RE.finditer(normalised):
        piece = match.group(0)
        if _CJK_RE.match(piece):
            tokens.extend(_cjk_tokens(piece))
            continue
        if piece in ENGLISH_STOP_WORDS:
            continue
        stemmed = stem(piece)
        if stemmed and stemmed not in ENGLISH_STOP_WORDS:
            tokens.append(stemmed)
    return tokens


def term_frequencies(text: str) -> tuple[dict[str, int], int]:
    """({term: count}, document length in tokens) for BM25."""
    tokens = tokenize(text)
    return dict(Counter(tokens)), len(tokens)


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in first-seen order (BM25 scores each query term once)."""
    return list(dict.fromkeys(tokenize(text)))


# Question words and filler of requests, dropped from queries only (a memory's own words are all kept):
# "what's my wife called again?" keeps wife/call, "帮我推荐个餐厅" keeps 餐厅. Measured on the dev part of
# tests/layers/long_term/corpora/relevance_dev.yaml, these words matched look-alike memories and never the answer.
QUERY_STOP_WORDS = frozenset(
    """again anything something anyone someone please tell remind know let need want give get find show help
    ok okay hey hi really ever still now ll thing stuff good best idea tip user name called call""".split()
) | frozenset(
    "什么 什么时候 时候 啥时候 啥时 怎么 怎么办 怎样 如何 哪 哪里 哪儿 哪个 哪家 哪些 哪天 多少 几 谁 啥 吗 呢 吧 啊 来着 帮 帮我 给我 "
    "一下 一个 "
    "个 推荐 告诉 请 麻烦 能 能不能 可以 要 想 好 点 些 有没有 还是 是不是 该 应该 现在 我 我的 我们 做 干 干嘛 是 用户 名字 叫 叫啥".split()
)

# Cross-language bridges for common personal-fact vocabulary: a query word also matches a memory that
# says it in another language or another common word (wife/老婆/妻子, job/工作/职业, live/住, allergy/过敏,
# food/吃 …). Each group counts as ONE query concept in BM25 (its idf from the memories holding any
# member), so a query naming a thing twice in two languages is not weighted twice. (No "plane" beside
# flight: the stemmer makes it "plan", which would bridge every plan to flights.)
SYNONYM_GROUPS = [
    "wife wifey missus 老婆 妻子 太太 媳妇 爱人 spouse", "husband hubby 老公 丈夫 爱人 先生 spouse", "partner 伴侣 对象",
    "girlfriend 女朋友 女友", "boyfriend 男朋友 男友", "son 儿子", "daughter 女儿 闺女",
    "kid kids child children 孩子 小孩 儿子 女儿",
    # jieba keeps a pronoun with a one-character kin word whole (我妈, 我哥, 咱爸), so they join the kin word here
    "brother 哥哥 弟弟 哥 弟 兄弟 我哥 我弟", "sister 姐姐 妹妹 姐 妹 我姐 我妹",
    "mother mom mum 妈妈 妈 母亲 我妈 咱妈", "father dad 爸爸 爸 父亲 我爸 咱爸", "parents folks 父母 爸妈",
    "grandson 孙子 外孙", "granddaughter 孙女 外孙女", "boss manager 老板 领导 上司",
    "job work occupation career profession 工作 职业 上班 打工",
    "company employer 公司 单位", "live lives living 住 居住", "city 城市", "home 家",
    "hometown 老家 家乡", "allergy allergic 过敏", "food eat meal 吃 食物 饮食", "diet 饮食",
    "vegetarian vegan veg veggie 素 吃素 素食", "peanut 花生", "seafood shellfish 海鲜", "milk dairy lactose 牛奶 乳糖",
    "doctor gp paediatrician pediatrician physician 医生 大夫", "hospital 医院", "medicine medication pill tablet drug 药", "dog puppy 狗 狗狗",
    "cat kitten 猫", "pet 宠物", "birthday 生日", "flight fly airline 机票 飞机 航班",
    "train rail 火车 高铁", "hotel 酒店 住处", "restaurant 餐厅 饭店 饭馆", "dinner supper 晚饭 晚餐",
    "lunch 午饭 午餐", "breakfast 早饭 早餐", "rain umbrella 下雨 雨伞", "weather 天气", "trip travel 旅行 旅游",
    "plan 计划 打算", "school 学校 上学", "wedding 婚礼", "gift present 礼物", "music song 音乐 歌",
    "movie film 电影", "teacher 老师", "pregnant pregnancy 怀孕", "married marriage 结婚",
    "blood pressure 血压", "diabetes 糖尿病", "asthma 哮喘", "knee 膝盖", "back 腰", "tea 茶",
    "coffee 咖啡", "car 车", "chess 象棋", "fish fishing 钓鱼", "book novel 书", "phone 手机",
    "meeting 开会 会议", "class lesson tutor tutoring 课 上课 家教 补习", "rent 房租", "salary payday 工资", "exam 考试",
    # days of the week, said three ways in Chinese
    "monday 周一 星期一 礼拜一", "tuesday 周二 星期二 礼拜二", "wednesday 周三 星期三 礼拜三",
    "thursday 周四 星期四 礼拜四", "friday 周五 星期五 礼拜五", "saturday 周六 星期六 礼拜六",
    "sunday 周日 星期天 星期日 礼拜天", "weekend 周末",
    # study, work and what people do
    "university college 大学", "major 专业", "grade 年级", "student 学生", "study 读书 学习",
    "nurse 护士", "engineer 工程师", "pilot 飞行员", "lawyer 律师", "accountant 会计",
    "programmer developer 程序员", "designer 设计师", "chef 厨师", "driver 司机", "truck 货车 卡车",
    "retired retirement 退休", "shift 班 夜班", "airport 机场", "shop store 店", "nanny babysitter 保姆",
    # family beyond the nuclear one
    "grandma grandmother 奶奶 外婆 姥姥", "grandpa grandfather 爷爷 外公 姥爷",
    "mother-in-law 婆婆 岳母 丈母娘", "father-in-law 公公 岳父 老丈人", "uncle 叔叔 舅舅 伯伯",
    "aunt 阿姨 姑姑 舅妈", "cousin 表哥 表姐 堂哥 堂姐", "niece 侄女 外甥女", "nephew 侄子 外甥",
    # things to buy, do and eat
    "cake 蛋糕", "flower flowers 花", "ring 戒指", "propose proposal 求婚", "toy 玩具", "game games 游戏",
    "ticket tickets 票", "sleep 睡觉 睡眠", "insomnia 失眠", "smoke smoking cigarette 抽烟 烟",
    "alcohol drink drinking 喝酒 酒", "beer 啤酒", "wine 葡萄酒 红酒", "noodle noodles 面条 面",
    "spicy 辣", "sweet sugar 甜 糖", "salt salty 盐 咸", "gym 健身", "running 跑步", "swimming swim 游泳",
    "hiking hike 爬山 徒步", "tai chi taichi 太极 太极拳", "yoga 瑜伽", "meditation meditate 冥想",
    "dance dancing 跳舞 舞蹈", "basketball 篮球", "football soccer 足球", "badminton 羽毛球", "piano 钢琴",
    "guitar 吉他", "painting 画画", "photography 摄影 拍照", "garden gardening 花园 养花",
    "mortgage 房贷", "house apartment flat 房子", "move moving mover movers relocate relocation 搬家 搬", "wedding anniversary 结婚纪念日",
    # the people and services of a home, and how people message
    "landlord landlady 房东", "roommate flatmate housemate 室友 舍友", "neighbour neighbor 邻居",
    "pharmacy drugstore chemist 药店 药房", "dentist 牙医", "wechat 微信", "email 邮件 邮箱",
]


# A word for a group of people also means each kind of member, one way only: "how are the kids doing?" is
# answered by what the user said of their son or daughter, while "my son" does not mean every child, and
# "my parents" by what they said of their mum or dad. Each general word's concept takes the member words as
# bridges (query side only: a memory's own words are never widened).
MEMBER_WORDS = [
    ("kid kids child children 孩子 小孩 子女", "son daughter 儿子 女儿"),
    ("parents folks 父母 爸妈", "mother mom mum father dad 妈妈 母亲 爸爸 父亲"),
    ("grandchildren grandkids grandchild grandkid 孙辈", "grandson granddaughter 孙子 孙女 外孙 外孙女"),
    ("grandparents 祖父母", "grandma grandmother grandpa grandfather 奶奶 外婆 姥姥 爷爷 外公 姥爷"),
    ("siblings sibling 兄弟姐妹", "brother sister 哥哥 弟弟 姐姐 妹妹"),
]
# The same one-way bridge from a thing to what it carries that people react to: buying or growing flowers meets a
# pollen allergy (RELEVANCE.md, "gifts"), a furry animal meets its dander, while a pollen count names no flower.
CARRIED_WORDS = [
    ("flower flowers bouquet 花 鲜花 花束 插花", "pollen 花粉 hayfever"),
    ("cat cats kitten dog dogs puppy 猫 狗 小猫 小狗", "dander fur 毛发"),
]


# the stop words as the tokeniser emits them (stemmed), since query terms are compared after stemming
_QUERY_STOP_TERMS = frozenset(stem(word) if word.isascii() else word for word in QUERY_STOP_WORDS)


def _group_terms(words: str) -> list[str]:
    """The terms of a list of words: a Chinese word the segmenter keeps whole bridges as itself, not through its
    bigrams (星期三 must not bring every 星期X along)."""
    out: list[str] = []
    for word in words.split():
        tokens = tokenize(word) or []
        out += [word] if not word.isascii() and word in tokens else tokens
    return list(dict.fromkeys(out))


def _build_synonyms() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for group in SYNONYM_GROUPS:
        members = set(_group_terms(group))
        for member in members:
            table.setdefault(member, set()).update(members)
    return {word: frozenset(members) for word, members in table.items()}


_synonyms: dict[str, frozenset[str]] | None = None
_members: dict[str, tuple[str, ...]] | None = None


def members_of(term: str) -> tuple[str, ...]:
    """The member words a group word (`MEMBER_WORDS`) stands for; none for any other term."""
    global _members
    if _members is None:
        table: dict[str, list[str]] = {}
        for general, specific in MEMBER_WORDS + CARRIED_WORDS:
            for word in _group_terms(general):
                table.setdefault(word, []).extend(_group_terms(specific))
        _members = {word: tuple(dict.fromkeys(found)) for word, found in table.items()}
    return _members.get(term, ())


def synonyms(term: str) -> frozenset[str]:
    global _synonyms
    if _synonyms is None:
        _synonyms = _build_synonyms()
    return _synonyms.get(term, frozenset((term,)))


def query_concepts(text: str) -> list[list[str]]:
    """The query's concepts: each distinct content term (question words dropped) with its bridges, the
    term itself first. A concept already covered by an earlier one's bridges is not repeated."""
    terms = [term for term in query_terms(text) if term not in _QUERY_STOP_TERMS]
    if not terms:  # a query of nothing but filler still searches for what it said
        terms = query_terms(text)
    concepts: list[list[str]] = []
    covered: set[str] = set()
    for term in terms:
        if term in covered:
            continue
        bridges = synonyms(term) | frozenset(members_of(term))
        members = [term, *sorted(bridges - {term})]
        covered.update(members)
        concepts.append(members)
    return concepts


def place_names(text: str) -> list[str]:
    """Place names jieba tags in a Chinese text (`ns`): "上海明天下雨吗" names 上海."""
    return proper_names(text, flags=("ns",), min_length=1)


@functools.lru_cache(maxsize=4096)
def pos_tags(text: str) -> tuple[tuple[str, str], ...]:
    """jieba's (word, part of speech) pairs of a text, kept per text: the one tagger of the process. A search
    reads the same query's tags twice (its scene's place names, layers/long_term/selectors/scenes.py, and its
    second stage's names, layers/long_term/selectors/rerank.py) and the extractor's Chinese rules ask about
    the same clause from several families (layers/formation/extractor/rules_zh/pos.py); the tagging is the
    costliest step of each (docs/benchmarks.md, "Scale, second round")."""
    _segmenter()
    import jieba.posseg

    return tuple((pair.word, pair.flag) for pair in jieba.posseg.cut(text))


def proper_names(text: str, flags: tuple[str, ...] = ("nr", "nrfg", "nrt", "ns", "nt"),
                 min_length: int = 2) -> list[str]:
    """Names of people (`nr…`), places (`ns`) and organisations (`nt`) jieba tags in a Chinese text."""
    return [word for word, flag in pos_tags(text) if flag in flags and len(word) >= min_length]
