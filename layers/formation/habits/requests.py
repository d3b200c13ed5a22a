"""Reading one user turn as a routine request: (action, object) in canonical form, or None.

Offline and deterministic: a verb from the lexicon (zh: longest match, the 把-construction; en: phrasal
verbs with the particle before or after the object), the object after it (a known one by any of its
names, otherwise the words themselves), with negated, interrogative and scheduled clauses left out —
"别放白噪音", "白噪音是什么", "明天早上7点打开窗帘" are not the user doing the thing now.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from layers.formation.habits.lexicon import (
    BA_VERBS_ZH,
    CHECK,
    CLOSE,
    EN_PARTICLE_VERBS,
    FILLERS_EN,
    FILLERS_ZH,
    MEDIA,
    NEGATIONS_EN,
    NEGATIONS_ZH,
    OBJECTS,
    OPEN,
    OPENABLE,
    PLAY,
    QUESTIONS_EN,
    QUESTIONS_ZH,
    READABLE,
    STOP,
    TURN_OFF,
    TURN_ON,
    VERBS_EN,
    VERBS_ZH,
)

MAX_UNKNOWN_OBJECT_CHARS = 12
MAX_UNKNOWN_OBJECT_WORDS = 4
_CJK = re.compile(r"[\u4e00-\u9fff]")
_CLAUSES = re.compile(r"[，。！？；、,.!?;\n]+")
# A request for later is an intent (layers/reminders), not an occurrence of the habit now.
_LATER_ZH = re.compile(r"明天|明早|明晚|后天|等会|等一会|待会|一会儿|过会|分钟后|小时后|之后|以后|提醒|每天|每周|每晚|每个")
_LATER_EN = re.compile(r"\b(remind|tomorrow|later|tonight at|in \d+ (?:minutes?|hours?)|every (?:day|morning|evening|night|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b")
_TIME_WORDS_ZH = re.compile(r"(今天|今晚|早上|晚上|中午|下午|上午|现在)?\d{1,2}[点:：]\d{0,2}分?|今天|今晚|早上|晚上|中午|下午|上午")
_TIME_WORDS_EN = re.compile(r"\b(at \d{1,2}(:\d{2})?\s*(am|pm)?|\d{1,2}(:\d{2})?\s*(am|pm)|this (morning|evening)|tonight|right now|now)\b")
_SINGLE_CHAR_VERBS = {verb for verb in VERBS_ZH if len(verb) == 1}
_FILLERS_ZH_LONGEST_FIRST = tuple(filler for filler in sorted(FILLERS_ZH, key=len, reverse=True) if filler)

_ZH_VERBS = sorted(VERBS_ZH, key=len, reverse=True)
_BA = re.compile("把(.{1,12}?)(" + "|".join(sorted(map(re.escape, BA_VERBS_ZH), key=len, reverse=True)) + ")")
_EN_VERBS = sorted(VERBS_EN, key=len, reverse=True)
_EN_VERB = re.compile(r"\b(" + "|".join(re.escape(verb) for verb in _EN_VERBS) + r")\b")
_EN_PARTICLE = re.compile(r"\b(" + "|".join(EN_PARTICLE_VERBS) + r")\s+(.{1,40}?)\s+(on|off|up|down)\b")

# "fan on please", "lights off": a known thing and its new state, no verb (only things the lexicon knows, so
# "game on" or "hands off" are no requests)
_BARE_STATE = re.compile(r"^(.{1,30}?)\s+(on|off)\b(.*)$")

_ZH_NAMES = sorted(((name, key) for key, (_, _, names, _) in OBJECTS.items() for name in names),
                   key=lambda pair: len(pair[0]), reverse=True)
_EN_NAMES = sorted(((name, key) for key, (_, _, _, names) in OBJECTS.items() for name in names),
                   key=lambda pair: len(pair[0]), reverse=True)


@dataclass(frozen=True)
class Request:
    action: str
    object: str  # a canonical object (layers/formation/habits/lexicon.py OBJECTS) or the user's own words
    known: bool  # whether the object is one of the lexicon's
    language: str  # "zh" | "en"


def _refine(action: str, obj: str) -> str:
    """One action per meaning: 开窗帘 opens, 开灯 switches on, 打开新闻 plays, 打开天气 checks."""
    if obj in OPENABLE:
        return {TURN_ON: OPEN, TURN_OFF: CLOSE}.get(action, action)
    if obj in MEDIA:
        return {TURN_ON: PLAY, OPEN: PLAY, TURN_OFF: STOP, CLOSE: STOP}.get(action, action)
    if obj in READABLE:
        return {TURN_ON: CHECK, OPEN: CHECK, PLAY: CHECK}.get(action, action)
    return {OPEN: TURN_ON, CLOSE: TURN_OFF}.get(action, action)


def _known_zh(text: str) -> str | None:
    for name, key in _ZH_NAMES:
        if name in text:
            return key
    return None


def _known_en(text: str) -> str | None:
    for name, key in _EN_NAMES:
        if re.search(r"(?<![a-z])" + re.escape(name) + r"(?![a-z])", text):
            return key
    return None


def _clean_zh(text: str) -> str:
    text = _TIME_WORDS_ZH.sub("", text)
    changed = True
    while changed:  # ends: each pass that changes anything makes the text shorter
        changed = False
        for filler in _FILLERS_ZH_LONGEST_FIRST:
            # each removal applies to the text as it is now: a pair of candidates computed from the same
            # text would put a stripped prefix back when the suffix's candidate is taken (an endless loop)
            stripped = text.removeprefix(filler).removesuffix(filler)
            if stripped != text:
                text, changed = stripped, True
    return re.sub(r"\s+", "", text)


def _clean_en(text: str) -> str:
    text = _TIME_WORDS_EN.sub(" ", text)
    words = [word for word in re.findall(r"[a-z0-9'/-]+", text) if word not in FILLERS_EN]
    return " ".join(words)


def _object(rest: str, *, zh: bool) -> tuple[str, bool] | None:
    known = _known_zh(rest) if zh else _known_en(rest)
    if known:
        return known, True
    words = _clean_zh(rest) if zh else _clean_en(rest)
    if not words or not re.search(r"\w", words):
        return None
    if zh and (len(words) > MAX_UNKNOWN_OBJECT_CHARS or not _CJK.search(words)):
        return None
    if not zh and len(words.split()) > MAX_UNKNOWN_OBJECT_WORDS:
        return None
    return words, False


def _zh_clause(clause: str) -> Request | None:
    if any(marker in clause for marker in QUESTIONS_ZH) or _LATER_ZH.search(clause):
        return None
    ba = _BA.search(clause)
    if ba:
        prefix, rest, action = clause[:ba.start()], ba.group(1), BA_VERBS_ZH[ba.group(2)]
    else:
        found = None
        for position in range(len(clause)):
            verb = next((v for v in _ZH_VERBS if clause.startswith(v, position)), None)
            if verb:
                found = (position, verb)
                break
        if not found:
            return None
        position, verb = found
        prefix, rest, action = clause[:position], clause[position + len(verb):], VERBS_ZH[verb]
        if verb in _SINGLE_CHAR_VERBS and not _known_zh(rest):
            return None  # 开心, 开会, 放心: a one-character verb counts only before a thing it acts on
    if any(negation in prefix for negation in NEGATIONS_ZH):
        return None
    obj = _object(rest, zh=True)
    if obj is None:
        return None
    return Request(_refine(action, obj[0]), obj[0], obj[1], "zh")


def _en_clause(clause: str) -> Request | None:
    if any(marker in clause for marker in QUESTIONS_EN) or _LATER_EN.search(clause):
        return None
    # the pattern takes any particle after any of the verbs; only the lexicon's pairs are actions
    # ("put the meeting off" is no request to play anything, and does not hide a "turn the lights on" after it)
    particle = next((match for match in _EN_PARTICLE.finditer(clause)
                     if match.group(3) in EN_PARTICLE_VERBS[match.group(1)]), None)
    verb = _EN_VERB.search(clause)
    if particle and (verb is None or particle.start() <= verb.start()):
        prefix, rest = clause[:particle.start()], particle.group(2)
        action = EN_PARTICLE_VERBS[particle.group(1)][particle.group(3)]
    elif verb:
        prefix, rest, action = clause[:verb.start()], clause[verb.end():], VERBS_EN[verb.group(1)]
    else:
        return _en_bare_state(clause)
    if any(negation in prefix for negation in NEGATIONS_EN):
        return None
    obj = _object(rest, zh=False)
    if obj is None:
        return None
    return Request(_refine(action, obj[0]), obj[0], obj[1], "en")


def _en_bare_state(clause: str) -> Request | None:
    """'fan on please', 'the lights off now': the clause is a known object's name and on/off, fillers aside."""
    bare = _BARE_STATE.match(clause)
    if bare is None or _clean_en(bare.group(3)):
        return None
    words = _clean_en(bare.group(1))
    known = _known_en(words)
    if known is None or words not in {name.removeprefix("the ") for name in OBJECTS[known][3]} | set(OBJECTS[known][3]):
        return None
    return Request(_refine(TURN_ON if bare.group(2) == "on" else TURN_OFF, known), known, True, "en")


def request_read(text: str) -> Request | None:
    """The routine request a user turn makes, or None (a statement, a question, a request for later)."""
    zh = bool(_CJK.search(text))
    read = _zh_clause if zh else _en_clause
    for clause in _CLAUSES.split(text if zh else text.lower()):
        clause = clause.strip()
        if clause:
            request = read(clause)
            if request is not None:
                return request
    return None


def request_words(request: Request) -> tuple[str, str]:
    """(zh, en) words for the object: the lexicon's labels, or the user's own words for both."""
    if request.known:
        zh, en, *_ = OBJECTS[request.object]
        return zh, en
    return request.object, request.object

