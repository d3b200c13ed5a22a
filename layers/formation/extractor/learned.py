"""A learned recall back-up for the offline rules: a CRF sequence tagger (python-crfsuite) over value spans.

The rules (rules_en, rules_zh) stay the extractor. For a fact family the rules left empty in a user turn,
a value span the tagger finds in a clause the rules accepted becomes an item of the same key, template and
attribute shapes as a rule's (offline.py builds it with the same `_item`), for the families whose value
stands alone and that cross-validation chose (`backup_keys`). The tagger never decides
*whether* the user is the subject or whether the clause asserts something: the clause has passed the
rules' own checks (questions, conditionals, hypotheticals, wishes, requests, sarcasm, quotes blanked,
past states) before it is tagged, and each span passes `span_is_users` below (someone else before it,
a negation in its part, a wish before it, a value its key never holds).

Training data: the dev part of the fact corpus only (tests/layers/formation/corpora/facts_dev*.yaml; never
the test part). Each labelled value found verbatim in the utterance becomes a B-/I- span of its key; people
and pets (their key needs a role, and their value is often "") are left to the rules. Features: the token
(jieba words for Chinese, via the keyword layer's cached tagger, which also gives the part of speech), its
shape, affixes, the neighbours two either side, and cue words before it. Training is deterministic (same data,
same model file): `python -m layers.formation.extractor.learned_train` writes `learned_model.crfsuite` beside
this file. The model is loaded lazily, once per process.
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import re
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from layers.formation.extractor.rules_en.contact import _CHANNELS
from layers.formation.extractor.rules_en.family import _PEOPLE_ROLE, _ROLES_EN
from layers.formation.extractor.rules_en.subject import _FIRST_PERSON, _OTHER_SUBJECT
from layers.formation.extractor.rules_zh.contact import _CHANNELS_ZH
from layers.formation.extractor.rules_zh.family import _PEOPLE_ZH
from layers.formation.extractor.rules_zh.location import _CITY_ALT
from layers.formation.extractor.rules_zh.personal import _SURNAMES
from layers.formation.extractor.rules_zh.subject import _ZH_OTHER, zh_segments
from layers.formation.extractor.text import is_cjk, is_vague_wish_part, tidy_value
from memoryhub.providers.keywords import place_names, pos_tags

MODEL_PATH = Path(__file__).with_name("learned_model.crfsuite")
KEYS_PATH = Path(__file__).with_name("learned_backup_keys.json")

# Keys the tagger learns. People and pets are the rules' (a role is part of their key).
TAGGED_KEYS = (
    "user.name", "user.age", "user.birthday", "user.anniversary", "user.employer", "user.occupation",
    "user.former_employer", "user.education", "user.diet", "user.food_restrictions", "user.allergies",
    "user.health_conditions", "user.medications", "user.home_city", "user.work_city", "user.hometown",
    "user.languages", "user.habits", "user.likes", "user.dislikes", "user.plan", "user.contact_preference",
)
# The keys the back-up may write at all. The others (education, anniversary, plan, habits, medications, languages)
# are facts whose attributes the rules read with the value (degree / field / status, type, date / destination,
# time / weekdays / frequency, dose / schedule, level): a tagged span alone would be half of such a fact. They
# are still learned, so their spans are not mistaken for another key's.
# A work city is a fact only beside a different home (FACTS.md), which a span alone cannot tell.
ELIGIBLE_KEYS = frozenset(TAGGED_KEYS) - {"user.education", "user.anniversary", "user.plan", "user.habits",
                                          "user.medications", "user.languages", "user.work_city"}
# A span is kept when the tagger's marginal probability of its labels, averaged, is at least this.
MIN_SPAN_PROBABILITY = 0.5

# Words that announce a family, read in a window before a token (lower-cased; Chinese as written).
_CUES = {
    "allergy": ("allergic", "allergy", "allergies", "过敏", "anaphylactic", "epipen"),
    "diet": ("vegan", "vegetarian", "diet", "eat", "eating", "吃", "素", "忌口"),
    "health": ("diagnosed", "have", "with", "患", "有", "确诊", "得了", "病"),
    "meds": ("take", "taking", "on", "prescribed", "mg", "吃", "服用", "药", "每天"),
    "live": ("live", "living", "based", "moved", "relocated", "住", "搬", "定居", "在"),
    "from": ("from", "grew", "originally", "老家", "人", "出生"),
    "work": ("work", "working", "job", "joined", "at", "for", "上班", "工作", "入职", "做", "当", "干"),
    "left": ("left", "quit", "laid", "former", "离职", "辞职", "离开", "不在"),
    "study": ("study", "studying", "student", "degree", "graduated", "major", "读", "毕业", "专业", "学"),
    "lang": ("speak", "speaking", "learning", "fluent", "native", "说", "讲", "学", "母语"),
    "like": ("love", "like", "enjoy", "into", "fan", "favourite", "favorite", "喜欢", "爱", "迷"),
    "dislike": ("hate", "dislike", "can't", "stand", "not", "讨厌", "不喜欢", "受不了"),
    "contact": ("email", "text", "call", "message", "reach", "contact", "邮件", "微信", "电话", "联系"),
    "habit": ("every", "usually", "always", "daily", "morning", "每天", "每周", "习惯", "经常"),
    "plan": ("going", "trip", "flying", "next", "plan", "planning", "要", "打算", "准备", "下周", "下个月"),
    "name": ("name", "call", "called", "叫", "名字"),
    "age": ("old", "turned", "age", "岁", "今年"),
    "date": ("birthday", "anniversary", "married", "生日", "纪念日", "结婚"),
}
_CUE_OF = {word: cue for cue, words in _CUES.items() for word in words}
_TOKEN_EN = re.compile(r"[A-Za-z0-9]+(?:['’.\-][A-Za-z0-9]+)*|[^\sA-Za-z0-9]")


@dataclass(frozen=True)
class Span:
    key: str
    value: str
    start: int  # character offsets in the tagged text
    end: int
    probability: float


def tokens(text: str) -> list[tuple[str, int, int, str]]:
    """(token, start, end, part of speech) for `text`: jieba's words where the text is Chinese, words and
    marks elsewhere; whitespace is no token."""
    out: list[tuple[str, int, int, str]] = []
    if is_cjk(text):
        at = 0
        for word, flag in pos_tags(text):
            start = text.find(word, at)
            if start < 0:  # jieba gives back the text as it was; if not, fall back to the plain split
                return _plain_tokens(text)
            at = start + len(word)
            if word.strip():
                if re.fullmatch(r"[A-Za-z0-9'’.\- ]+", word) and " " in word.strip():
                    out.extend(_plain_tokens(word, offset=start))
                else:
                    out.append((word.strip(), start + (len(word) - len(word.lstrip())), at - (len(word) - len(word.rstrip())), flag))
        return out
    return _plain_tokens(text)


def _plain_tokens(text: str, offset: int = 0) -> list[tuple[str, int, int, str]]:
    return [(m.group(), offset + m.start(), offset + m.end(), "x") for m in _TOKEN_EN.finditer(text)]


def _shape(token: str) -> str:
    if is_cjk(token):
        return "C"
    shape = re.sub(r"[A-Z]", "X", token)
    shape = re.sub(r"[a-z]", "x", shape)
    shape = re.sub(r"\d", "d", shape)
    return re.sub(r"(.)\1+", r"\1\1", shape)


def features(toks: list[tuple[str, int, int, str]]) -> list[dict[str, float | str]]:
    words = [unicodedata.normalize("NFKC", t[0]).casefold() for t in toks]
    out = []
    for index, (token, _, _, flag) in enumerate(toks):
        word = words[index]
        f: dict[str, float | str] = {
            "bias": 1.0, "w": word, "shape": _shape(token), "pos": flag, "p1": word[:1], "p2": word[:2],
            "p3": word[:3], "s1": word[-1:], "s2": word[-2:], "s3": word[-3:], "len": str(min(len(word), 6)),
        }
        if token[:1].isupper():
            f["title"] = 1.0
        if index == 0:
            f["BOS"] = 1.0
        if index == len(toks) - 1:
            f["EOS"] = 1.0
        for offset in (-2, -1, 1, 2):
            j = index + offset
            if 0 <= j < len(toks):
                f[f"w{offset:+d}"] = words[j]
                f[f"shape{offset:+d}"] = _shape(toks[j][0])
                f[f"pos{offset:+d}"] = toks[j][3]
        if index > 0:
            f["w-1|w"] = words[index - 1] + "|" + word
        if index + 1 < len(toks):
            f["w|w+1"] = word + "|" + words[index + 1]
        # Cue words up to six tokens back, and whether the user is named before the token.
        for j in range(max(0, index - 6), index):
            cue = _CUE_OF.get(words[j])
            if cue:
                f[f"cue:{cue}"] = 1.0
        if any(w in ("i", "i'm", "im", "my", "me", "我", "本人") for w in words[max(0, index - 8):index]):
            f["self_before"] = 1.0
        out.append(f)
    return out


def bio_labels(text: str, facts: list[dict]) -> list[str] | None:
    """B-/I- labels of `text`'s tokens for the labelled facts of TAGGED_KEYS, or None when a labelled value
    of those keys is not in the text verbatim (that utterance would teach the tagger a wrong O)."""
    toks = tokens(text)
    labels = ["O"] * len(toks)
    folded = unicodedata.normalize("NFKC", text).casefold()
    for fact in facts:
        key, value = fact.get("key"), unicodedata.normalize("NFKC", str(fact.get("value") or "")).casefold().strip()
        if key not in TAGGED_KEYS or not value:
            continue
        start = folded.find(value)
        if start < 0:
            return None
        end = start + len(value)
        inside = [i for i, t in enumerate(toks) if t[1] < end and t[2] > start]
        if not inside or any(labels[i] != "O" for i in inside):
            continue
        for n, i in enumerate(inside):
            labels[i] = ("B-" if n == 0 else "I-") + key
    return labels


# ---- the tagger, loaded once per process ---------------------------------------------------------

_tagger = None
_tagger_lock = threading.Lock()
_tagger_override: contextvars.ContextVar = contextvars.ContextVar("learned_tagger", default=None)
_forced: contextvars.ContextVar[bool | None] = contextvars.ContextVar("learned_backup_forced", default=None)
_keys_override: contextvars.ContextVar[frozenset | None] = contextvars.ContextVar("learned_backup_keys", default=None)
_chosen: frozenset | None = None


def chosen_keys() -> frozenset:
    """The keys learned_train.py chose by cross-validation (learned_backup_keys.json), read once per process;
    none when the file is missing, so a model without its evidence writes nothing."""
    global _chosen
    if _chosen is None:
        try:
            keys = json.loads(KEYS_PATH.read_text(encoding="utf-8"))["keys"]
        except FileNotFoundError:
            keys = []
        _chosen = frozenset(keys) & ELIGIBLE_KEYS
    return _chosen


def backup_keys() -> frozenset:
    """The keys the back-up writes in this context: the chosen ones, or a cross-validation fold's own
    (`using_tagger(..., keys=...)`), so a fold is scored with the keys its training part chose."""
    override = _keys_override.get()
    return chosen_keys() if override is None else override


def _load_tagger():
    global _tagger
    if _tagger is None:
        with _tagger_lock:
            if _tagger is None:
                import pycrfsuite

                tagger = pycrfsuite.Tagger()
                tagger.open(str(MODEL_PATH))
                _tagger = tagger
    return _tagger


def model_available() -> bool:
    return MODEL_PATH.exists()


@contextlib.contextmanager
def using_tagger(tagger, keys=None):
    """Tag with `tagger` (a pycrfsuite.Tagger) instead of the committed model, and write `keys` (a subset of
    ELIGIBLE_KEYS) instead of the chosen ones when given: cross-validation and tests."""
    token = _tagger_override.set(tagger)
    keys_token = _keys_override.set(None if keys is None else frozenset(keys) & ELIGIBLE_KEYS)
    try:
        yield
    finally:
        _keys_override.reset(keys_token)
        _tagger_override.reset(token)


@contextlib.contextmanager
def backup_forced(on: bool):
    """Turn the back-up on or off for extraction in this context whatever the caller asked (measurement)."""
    token = _forced.set(on)
    try:
        yield
    finally:
        _forced.reset(token)


def backup_on(asked: bool | None) -> bool:
    """Whether extraction runs the back-up: a forced value, else what the caller asked, else the formation
    policy's code default (`FormationPolicy.learned_backup`)."""
    forced = _forced.get()
    if forced is not None:
        return forced
    if asked is not None:
        return asked
    from layers.formation.policy import FormationPolicy

    return FormationPolicy.__dataclass_fields__["learned_backup"].default


def tag(text: str) -> list[Span]:
    """The value spans the tagger finds in `text`, each with the mean marginal probability of its labels."""
    toks = tokens(text)
    if not toks:
        return []
    tagger = _tagger_override.get() or _load_tagger()
    labels = tagger.tag(features(toks))
    spans: list[Span] = []
    index = 0
    while index < len(labels):
        label = labels[index]
        if label == "O":
            index += 1
            continue
        key = label[2:]
        end = index + 1
        while end < len(labels) and labels[end] == "I-" + key:
            end += 1
        probability = sum(tagger.marginal(labels[i], i) for i in range(index, end)) / (end - index)
        start_char, end_char = toks[index][1], toks[end - 1][2]
        value = tidy_value(text[start_char:end_char])
        if value and probability >= MIN_SPAN_PROBABILITY:
            spans.append(Span(key, value, start_char, end_char, probability))
        index = end
    return spans


# ---- whose fact, and is it said ----------------------------------------------------------------

_USER_AS_SUBJECT = re.compile(r"(?i)\b(?:i|i'm|im|i've|ive|i'd|i'll|me|myself)\b")
_ROLE_BEFORE = re.compile(rf"(?i)\b(?:my|our|his|her|their)\s+(?:[a-z-]+\s+)?{_PEOPLE_ROLE}(?:'s)?\b")
_NEGATED_EN = re.compile(r"(?i)\b(?:not|no|never|don't|dont|doesn't|didn't|can't|cannot|won't|isn't|aren't|wasn't|haven't|hasn't|nor|without)\b|n't\b")
_NEGATED_ZH = re.compile(r"不|没|别|无|未|非")
# Families whose very statement may be a negation ("I don't eat pork", "不喜欢香菜", "don't call me", "不在X干了").
_SAID_NEGATED = {"user.food_restrictions", "user.dislikes", "user.contact_preference", "user.former_employer"}
# A past the rules' past-state reading (text.is_past_state) lets through: "实习过", "之前在 Meta 做", "I was a".
_PAST_MARK = re.compile(r"(?i)之前|以前|[了干做待住学实习读去]过|\b(?:was|were|had\s+been)\b")
# Other people in a code-switched clause ("我 colleague 对 gluten 过敏") or beside a role the Chinese lists lack.
_OTHER_ZH_MORE = re.compile(r"(?i)实习生|新来的|\b(?:colleague|coworker|friend|boss|roommate|classmate|manager|intern)s?\b")
# Values no family holds: a date or a time word, a bare number where no age is meant.
_NOT_A_VALUE = re.compile(r"^(?:\d+|[一二三四五六七八九十两]+)$")
# Who a sentence is about is never its value ("我和男朋友阿杰是七夕那天在一起的" holds no allergy "男朋友"): the
# role tables of the family rules, and the other-subject words and pronouns of the subject checks.
_ROLE_WORDS = frozenset(word.casefold() for word in (*_PEOPLE_ZH, *_ROLES_EN))
_PERSON_PRONOUN = re.compile(r"(?i)i|me|myself|my|mine|you|him|it|us|them|[我你您他她它咱俺][们]?|自己|本人")
# Keys whose family a clause must speak of for a span to be its value: a substance in "penicillin put me in
# hospital once" is no contact preference, and "男朋友" in a clause with no 过敏 is no allergy.
_FAMILY_CUE = {
    "user.allergies": re.compile(r"(?i)allerg|anaphyla|epi-?pen|intoleran|过敏|敏感"),
    "user.birthday": re.compile(r"(?i)birthday|\bb-?day|\bborn\b|生日|出生|生于"),
    "user.contact_preference": re.compile(rf"(?i)\b(?:{_CHANNELS}|reach|contact|ping|notify|notifications?|disturb|reply|respond|hold\s+of)\b"
                                          rf"|{_CHANNELS_ZH}|联系|打扰|找我|回复|回消息|通知|提醒我|发给我|打给我"),
}
# A birthday is a day of the calendar: a month or a day number ("五月三号", "March 3rd", "12/25"); a day counted
# from today ("下周六", "next Saturday") is when something happens, not a date of birth.
_CALENDAR_DAY = re.compile(r"(?i)\d|[月号]|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b")
# A number with another unit after it is no age ("20 weeks pregnant", "瘦了5斤", "3个月").
_NOT_YEARS = re.compile(r"(?i)\s*(?:weeks?|months?|days?|hours?|hrs?|mins?|minutes?|kgs?|kilos?|lbs?|pounds?|stone|cm|km|miles?|k\b|%"
                        r"|周|星期|个?月|天|小时|分钟|斤|公斤|块|元|次|年级|楼|号)")
# Nicknames and full names before the value are someone else ("隔壁工位的小王对猫毛过敏", "老李对海鲜过敏"):
# 小/老/阿 before a surname, or a word jieba tags as a person's name that starts with a surname (it tags 过敏 as
# one too, hence the surname).
_CITY = re.compile(f"(?:{_CITY_ALT})")
_ZH_NICKNAME = re.compile(rf"[小老阿][{''.join(sorted(_SURNAMES))}]")


def is_person_word(value: str, key: str) -> bool:
    """Whether `value` names a person rather than holding a value: a role (男朋友, boyfriend, 同事), another
    subject (coworker, she, 邻居) or a pronoun. An occupation may be a word of work (学生, manager), so only
    the family roles count for it."""
    folded = unicodedata.normalize("NFKC", value).casefold().strip()
    if folded in _ROLE_WORDS or folded.removesuffix("s") in _ROLE_WORDS or _PERSON_PRONOUN.fullmatch(folded):
        return True
    if key == "user.occupation":
        return False
    if _OTHER_SUBJECT.fullmatch(folded) or _ZH_OTHER.fullmatch(folded):
        return True
    return is_cjk(value) and all(flag == "r" for _, flag in pos_tags(value))


def names_someone_zh(text: str) -> bool:
    """Whether a Chinese stretch names a person by name or nickname (小王, 老李, 张伟)."""
    return any(_ZH_NICKNAME.fullmatch(word) or (flag.startswith("nr") and len(word) >= 2 and word[0] in _SURNAMES)
               for word, flag in pos_tags(text))


def value_is_plausible(span: Span, clause: str | None = None) -> bool:
    """Whether the span could be a value of its key: no date or time word stands for a place, an
    organisation, a school, a language or a name, only an age or a date is a bare number, an age counts
    years and a birthday names a calendar day, a Chinese home is a place, no person's role or pronoun is a
    value, and a key that needs its family named (`_FAMILY_CUE`) has it in the clause."""
    from layers.formation.extractor import attrs as A
    from layers.formation.extractor.rules_zh.pos import is_time_word

    value = span.value
    if is_person_word(value, span.key):
        return False
    cue = _FAMILY_CUE.get(span.key)
    if cue and clause is not None and not cue.search(clause):
        return False
    if span.key == "user.age" and clause is not None and _NOT_YEARS.match(clause[span.end:]):
        return False
    if span.key == "user.birthday":
        return bool(_CALENDAR_DAY.search(value))
    if span.key == "user.age":
        return True
    # A home or a hometown is a place: in Chinese, one jieba tags as a place or the city table names
    # ("我小时候在农村长大" names none).
    if span.key in ("user.home_city", "user.hometown") and is_cjk(value) and not (place_names(value) or _CITY.search(value)):
        return False
    # A place is no employer ("刚从广州搬到了厦门").
    if span.key in ("user.employer", "user.former_employer") and is_cjk(value) and place_names(value) == [value]:
        return False
    if _NOT_A_VALUE.match(value) or is_time_word(value) or A.any_date(value) == value \
            or (_NEGATED_ZH.search(value) and span.key not in _SAID_NEGATED):
        return False
    return True


def says_past(clause: str) -> bool:
    """A past the rules' past-state reading (text.is_past_state) lets through, for the back-up's spans only."""
    return bool(_PAST_MARK.search(clause))


def _cut_out(clause: str, span: Span) -> bool:
    """"moved over to Channel 4", "works at Bank of America", "by 2:50": a span cut out of a longer name or
    number; or the whole clause, which leaves no predicate to have read it by."""
    if tidy_value(clause) == span.value:
        return True
    if is_cjk(span.value):
        return False
    before = clause[:span.start]
    return bool(re.match(r"\s*(?:\d+\b|of\s+[A-Z]|[A-Z][a-z])", clause[span.end:]) or re.search(r"[\w:./$-]$", before))


# A move or a stay still to come is a plan, not where the user lives or works ("下个月要搬家，搬到浦东").
_FUTURE = re.compile(r"要|准备|打算|下个?月|下周|明年|(?i:\b(?:will|going\s+to|gonna|moving|next\s+(?:week|month|year))\b)")
# A place is where the user lives or comes from, an organisation where the user works, only where the clause says so: being or going somewhere
# ("I'm in Shanghai right now", "周末去了上海", "我在杭州旅游") is neither. A name is read only where the
# clause speaks of naming ("I'm Australian" names no one).
_PREDICATE_CUE = {
    "user.home_city": re.compile(r"(?i)\b(?:live|lives|living|based|moved|relocated|settled|home)\b|住|搬|定居|base|安家|落户"),
    "user.hometown": re.compile(r"(?i)\b(?:from|grew\s+up|originally|born|native|hometown|raised)\b|老家|人|长大|出生|土生土长|家乡"),
    "user.name": re.compile(r"(?i)\bname|\bcall|\bthis\s+is\b|叫|名字|自我介绍|称呼"),
    # "去了京东物流" after small talk is a visit; an employer is where the clause says the user works.
    "user.employer": re.compile(r"(?i)\b(?:work|works|working|job|joined|join|hired|employed|intern|offer|start|starting|at|for)\b"
                                r"|上班|工作|入职|就职|任职|跳槽|实习|做|当|干|打工|offer"),
    "user.former_employer": re.compile(r"(?i)\b(?:left|quit|former|laid|resigned|notice|no\s+longer|used\s+to|previous|old)\b"
                                       r"|离职|辞职|离开|不在|裁|前东家|上一份|之前"),
}


def span_is_users(clause: str, span: Span) -> bool:
    """Whether a tagged span in an accepted clause is the user's own, asserted fact: English wants the user
    before it (I / my / me) with no one else after that ("my friend is vegetarian", "she's allergic to"), and
    no negation in the clause unless the family is said that way; Chinese wants the part it is in to be about
    the user (rules_zh.subject.zh_segments), no one else after the last 我 in it, no wish up to the span
    ("等我有钱了，我要去冰岛") and no negation in the part. Whether the clause tells of a past is
    `says_past`'s, read by the caller with the rules' past-state reading."""
    if not value_is_plausible(span, clause) or _cut_out(clause, span):
        return False
    cue = _PREDICATE_CUE.get(span.key)
    if (span.key == "user.home_city" and _FUTURE.search(clause)) or (cue and not cue.search(clause)):
        return False
    if _OTHER_ZH_MORE.search(clause[:span.start]):
        return False
    if is_cjk(clause):
        if is_vague_wish_part(clause[:span.end]):
            return False
        at = 0
        for part, users in zh_segments(clause):
            found = clause.find(part, at)
            if found < 0:
                continue
            at = found + len(part)
            if found <= span.start < at:
                if not users:
                    return False
                before = clause[found:span.start]
                last_me = before.rfind("我")
                since_me = before[last_me + 1:] if last_me >= 0 else before
                if _ZH_OTHER.search(since_me) or (since_me and names_someone_zh(since_me)):
                    return False
                return span.key in _SAID_NEGATED or not _NEGATED_ZH.search(part.replace(span.value, ""))
        return False
    prefix = clause[:span.start]
    if not _FIRST_PERSON.search(prefix):
        return False
    # "a guy in my yoga class is allergic to bees": "my" owns a noun and makes no one the subject; only an I
    # or a me does, and then whoever comes after the last of them is who the span is about.
    subjects = list(_USER_AS_SUBJECT.finditer(prefix))
    after_me = prefix[subjects[-1].start():] if subjects else prefix
    if _OTHER_SUBJECT.search(after_me) or _ROLE_BEFORE.search(after_me):
        return False
    return span.key in _SAID_NEGATED or not _NEGATED_EN.search(clause)

