"""What a query is about, read from its words: the scene (dining, travel, medical, …) and the topics it
asks for (where one lives, the spouse, the job, …), each with the memory keys it calls for.

Why keys: most of what an assistant must know for an ordinary request is a keyed fact ("User's diet:
vegetarian.", `user.diet`) that shares no word and little meaning with the request ("any good spots for
dinner tonight?"). Labelled that way in tests/layers/long_term/corpora/RELEVANCE.md (indirect needs), a
keyed fact the query's scene or topic calls for gets a *key relevance* (the weight of its key), fused with
the text relevance as 1 − (1 − text)(1 − key) in layers/long_term/selectors/search.py: a fixed rule that
depends on the query and the memory only, so `min_score` keeps its meaning.

Cue words, scenes and weights are policy (layers/long_term/policy.py: `scene_cues`, `scene_keys`,
`topic_cues`, `topic_keys`, and the topics needs imply by their shape or together: `shape_topics`,
`shape_scenes`, `implied_topics`, `holiday_words`, `move_cues`, `move_weight`, `arranging_scenes`),
overridable by approved permanent entries; only the shapes' regular expressions stay in code (`SHAPES`).
A cue in Latin letters matches a word starting with it ("allerg" matches allergic and allergies); a cue in
Chinese matches as a substring.
A key pattern is a memory key, or one with `*` (any run of characters: `user.relationship.*brother`).

Cue words are fitted to the phrasings someone thought of; a request worded otherwise ("anything fun to do
with the kids?") names no cue. So a query no cue names takes the scene of its nearest prototype sentence
(`scene_prototypes`, ordinary requests per scene in zh and en, plus `none`: personal and general questions that
need no scene) by the embedder's cosine, when the nearest is a scene's and at least
`scene_prototype_min_cosine` close. The prototypes are embedded once per process and provider; the query's
vector is the one the search embeds anyway (memoryhub/providers/embeddings.py caches it), so this costs one
small matrix product. `explain` says which way the scene was read (`scene_source`: task_type, cue or prototype).
"""
from __future__ import annotations

import logging
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from layers.long_term.policy import Policy

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class QueryReading:
    scene: str | None = None
    scene_cues: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    # memory key pattern -> relevance weight (the largest over the scene and every topic that fired)
    key_weights: dict[str, float] = field(default_factory=dict)
    # PostgreSQL regular expressions over a memory's lowercased content (any may match), and the relevance
    # a match earns
    content_patterns: tuple[str, ...] = ()
    content_weight: float = 0.0
    # the content patterns say what the question asks (a move, for where one lives), not what a scene needs
    content_answers: bool = False
    named_place: bool = False
    # how the scene was read: "task_type", "cue" or "prototype" (with the nearest prototype and its cosine)
    scene_source: str | None = None
    scene_prototype: str | None = None
    scene_prototype_cosine: float | None = None
    # question forms read (policy `question_forms`) and the keys they asked for with the key's meaning named
    forms: tuple[str, ...] = ()
    form_keys: tuple[str, ...] = ()

    def as_explain(self) -> dict:
        out = {"scene_name": self.scene, "scene_cues": list(self.scene_cues), "topics": list(self.topics),
               "named_place": self.named_place, "scene_source": self.scene_source,
               "question_forms": list(self.forms), "form_keys": list(self.form_keys)}
        if self.scene_prototype is not None:
            out["scene_prototype"] = {"text": self.scene_prototype, "cosine": self.scene_prototype_cosine}
        return out


_PG_SPECIAL = set(".^$*+?()[]{}|\\")
_PLACE_EN = re.compile(r"\b(?:in|at|for|to|near|around)\s+(?:the\s+)?[A-Z][a-zA-Z]+")


def _pg_regexes(cues: list[str]) -> tuple[str, ...]:
    """Cues as PostgreSQL AREs: the Latin ones from a word start, under one `\\m` (`\\m(?:budget|seat|…)`),
    and the Chinese ones anywhere, in a second expression. The same matches as one alternation with a
    `\\m` per cue, which cost ~170 µs a row for the travel cues (112 of a search's ~130 ms at 663
    memories, loaded machine; docs/benchmarks.md): one anchor and two expressions cost a tenth of that."""
    return _pg_regexes_of(tuple(cues))


@lru_cache(maxsize=64)
def _pg_regexes_of(cues: tuple[str, ...]) -> tuple[str, ...]:
    latin, chinese = [], []
    for cue in cues:
        cue = unicodedata.normalize("NFKC", cue).lower().strip()
        if not cue:
            continue
        escaped = "".join("\\" + ch if ch in _PG_SPECIAL else ch for ch in cue)
        (latin if cue.isascii() else chinese).append(escaped)
    out = []
    if latin:
        out.append("\\m(?:" + "|".join(latin) + ")")
    if chinese:
        out.append("(?:" + "|".join(chinese) + ")")
    return tuple(out)


def names_place(query: str) -> bool:
    """Whether the query names a place itself ("weather in Chicago", "上海明天下雨吗")."""
    if _PLACE_EN.search(query):
        return True
    if re.search(r"[\u4e00-\u9fff]", query):
        from memoryhub.providers.keywords import place_names

        return bool(place_names(query))
    return False


def _cue_branch(cue: str) -> str | None:
    """One cue as a branch of its list's alternation: a Latin one from a word start, with anything after it
    to the word's end ("allerg" -> allergies; a space in it matches any run of spaces), a Chinese one as
    itself; None for a cue that is blank once normalised.

    The word start is asserted after the cue's first letter (`h(?<![a-z]h)ome[a-z]*`), not before it
    (`(?<![a-z])home[a-z]*`): the same matches, but a branch that opens on a literal is rejected by the
    regex engine on one character comparison, while one that opens on a look-behind runs it at every
    position for every cue: the scenes' and topics' lists scan about five times faster so (same matches:
    tests/layers/long_term/test_scene_reading_equivalence.py)."""
    cue = unicodedata.normalize("NFKC", cue).lower().strip()
    if not cue:
        return None
    if not cue.isascii():
        return re.escape(cue)
    first = re.escape(cue[0])
    return first + "(?<![a-z]" + first + ")" + re.escape(cue[1:]).replace(r"\ ", r"\s+") + "[a-z]*"


class _CueList:
    """One list of cues compiled once: the plain cues as one alternation (its matches, left to right, are
    the hits), each joint cue ("回家+票") as its parts' own patterns, and the hits of the last texts read.

    A search reads the same texts against the same lists again and again (the query against
    `name_question_cues` once per candidate row, each candidate's words against every scene's cues), so
    the hits of a text are kept, for at most `MEMO_SIZE` texts a list (oldest dropped first)."""

    MEMO_SIZE = 1024

    def __init__(self, cues: tuple[str, ...]):
        branches = [branch for branch in map(_cue_branch, (cue for cue in cues if "+" not in cue)) if branch]
        self.pattern = re.compile("|".join(branches)) if branches else None
        self.joint = tuple((cue, tuple(_compiled((part,)) for part in cue.split("+") if part))
                           for cue in cues if "+" in cue)
        self._memo: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def holds_any(self, text: str) -> bool:
        return self.pattern is not None and self.pattern.search(text) is not None

    def hits(self, text: str) -> list[str]:
        found = self._memo.get(text)
        if found is None:
            out = [] if self.pattern is None else [m.group(0) for m in self.pattern.finditer(text)]
            out += [cue for cue, parts in self.joint if all(part.holds_any(text) for part in parts)]
            found = tuple(dict.fromkeys(out))
            with self._lock:
                if len(self._memo) >= self.MEMO_SIZE:
                    self._memo.pop(next(iter(self._memo)))
                self._memo[text] = found
        return list(found)


@lru_cache(maxsize=1024)
def _compiled(cues: tuple[str, ...]) -> _CueList:
    return _CueList(cues)


def _hits(text: str, cues: list[str]) -> list[str]:
    """The cues `text` holds. A cue joined by `+` ("回家+票", "home for+flight") holds when every part does,
    in any order and with anything between: a need some words say only together. Keyed by the cues' values,
    not the list: a policy is read afresh for each request (layers/long_term/policy.py), its lists with it."""
    return _compiled(tuple(cues)).hits(text)


def cue_hits(text: str, cues: list[str]) -> list[str]:
    """The cues `text` holds, matched as scene and topic cues are (Latin from a word start, Chinese anywhere)."""
    return _hits(unicodedata.normalize("NFKC", text).lower(), cues)


def _word_hits(text: str, cues: list[str], policy: Policy) -> list[str]:
    """The cues `text` holds (`_hits`), less a longer word begun by a whole-word cue (policy `whole_word_cues`:
    "song" begun by "son"); the word itself, its plural and a longer form listed as a cue of its own count."""
    whole = policy.whole_word_cues
    if not whole:
        return _hits(text, cues)
    listed = set(cues)
    return [hit for hit in _hits(text, cues)
            if hit in listed or not hit.isalpha() or not hit.isascii()
            or not any(hit.startswith(word) and hit not in (word, word + "s", word + "es") for word in whole)]


def _asks_time(text: str, policy: Policy) -> bool:
    return any(_hits(text, policy.question_forms.get(form, [])) for form in policy.rerank_time_forms)


# Chinese takes medicine with the verbs of eating and drinking (吃药, 能吃点啥药, 喝中药, 服药): such a verb is no meal's
# cue. Dropped before the scenes' cues are counted; the medicine word itself still counts.
_MEDICINE_VERB = re.compile(r"[吃喝服](?=[^，。！？,.!?\s]{0,3}药)")


def _cue_scene(text: str, policy: Policy) -> tuple[str | None, list[str]]:
    """The scene with most cue hits in `text` (on equal hits a scene other than an arranging one, policy
    `arranging_scenes`, unless the text asks a time, then the longer cues win: "什么药" reads medical over the
    meal's "吃"), and its hits."""
    scene, scene_hits, best = None, [], (0, 0, 0)
    asks_time = None
    text = _MEDICINE_VERB.sub(" ", text)
    for name, cues in policy.scene_cues.items():
        hits = _hits(text, cues)
        if hits and asks_time is None:
            asks_time = _asks_time(text, policy)
        rank = (len(hits), asks_time or name not in policy.arranging_scenes, sum(len(hit) for hit in hits))
        if hits and rank > best:
            scene, scene_hits, best = name, hits, rank
    return scene, scene_hits


def text_scene(text: str, policy: Policy) -> str | None:
    """The scene a memory's own words name by the cue words alone ("User dislikes horror movies" ->
    entertainment, "用户喜欢吃海鲜" -> dining), or None."""
    return _cue_scene(unicodedata.normalize("NFKC", text).lower(), policy)[0]


def pastime_kinds(text: str, policy: Policy) -> set[str]:
    """The kinds of pastime (`pastime_kinds`: screen, music, reading, outing) a text's words name."""
    lowered = unicodedata.normalize("NFKC", text).lower()
    return {name for name, cues in policy.pastime_kinds.items() if _hits(lowered, cues)}


def pastimes_asked(query: str, policy: Policy) -> set[str]:
    """The kinds of pastime an open request asks for ("any" for something to do at all); none when the query
    names a pastime itself, whose own words then find it."""
    lowered = unicodedata.normalize("NFKC", query).lower()
    asked = {name: _hits(lowered, cues) for name, cues in policy.pastime_query_cues.items()}
    rest = lowered
    for hit in (hit for hits in asked.values() for hit in hits):
        rest = rest.replace(hit, " ")  # "got a film for me?" names the kind it asks, not a pastime
    if pastime_kinds(rest, policy):
        return set()
    return {name for name, hits in asked.items() if hits}


_prototype_cache: dict[tuple, tuple[np.ndarray, list[str], list[str]]] = {}
_prototype_lock = threading.Lock()


def _prototype_matrix(policy: Policy, embedder) -> tuple[np.ndarray, list[str], list[str]]:
    """The prototypes' vectors (one row each), their scenes and texts, embedded once per provider and set."""
    scenes = [name for name, texts in policy.scene_prototypes.items() for _text in texts]
    texts = [text for texts in policy.scene_prototypes.values() for text in texts]
    key = (embedder.name, tuple(scenes), tuple(texts))
    with _prototype_lock:
        cached = _prototype_cache.get(key)
    if cached is None:
        vectors = np.asarray(embedder.embed(texts), dtype=np.float32) if texts else np.zeros((0, 1), np.float32)
        cached = (vectors, scenes, texts)
        with _prototype_lock:
            if len(_prototype_cache) > 8:
                _prototype_cache.clear()
            _prototype_cache[key] = cached
    return cached


def prototype_scene(query: str, policy: Policy) -> tuple[str | None, str | None, float | None]:
    """The scene of the query's nearest prototype (None when that is a `none` one or under the floor), the
    prototype and its cosine. Never raises: without an embedder the cue words alone read the scene."""
    if policy.scene_prototype_min_cosine >= 1.0 or not policy.scene_prototypes:
        return None, None, None
    from memoryhub.providers.embeddings import embed_query, get_embedder

    try:
        embedder = get_embedder()
        vectors, scenes, texts = _prototype_matrix(policy, embedder)
        if not len(texts):
            return None, None, None
        query_vector = np.asarray(embed_query(query, embedder), dtype=np.float32)
        cosines = vectors @ query_vector
    except Exception as exc:  # noqa: BLE001 — an embedder that is down degrades to the cue words
        logger.warning("scene prototypes unavailable (%s); the scene is read from cue words only",
                       type(exc).__name__)
        return None, None, None
    best = int(np.argmax(cosines))
    cosine = float(cosines[best])
    if scenes[best] not in policy.scene_keys or cosine < policy.scene_prototype_min_cosine:
        return None, texts[best], cosine
    return scenes[best], texts[best], cosine


def _about_the_user(text: str, policy: Policy) -> bool:
    """Whether `text` names the user (`self_reference_words`: a Latin word whole, an apostrophe either way;
    a Chinese one anywhere)."""
    return _self_reference(tuple(policy.self_reference_words)).search(text) is not None


@lru_cache(maxsize=64)
def _self_reference(words: tuple[str, ...]) -> re.Pattern:
    # one alternation finds a word wherever any of them, searched one by one, would
    branches = [r"(?<![\w'’])" + re.escape(word).replace("'", "['’]") + r"(?![\w'’])" if word.isascii()
                else re.escape(word) for word in (word.lower() for word in words)]
    return re.compile("|".join(f"(?:{branch})" for branch in branches) if branches else r"(?!)")


def _form_keys(text: str, policy: Policy) -> tuple[list[str], dict[str, float]]:
    """The question forms of `text` (policy `question_forms`) and the keys they ask for whose meaning the text
    names too (`key_lexicon`): "which city do I live in?" is a where-question naming what `user.home_city`
    means, so that key earns the form's weight. Only a question about the user reads the user's keys."""
    if not _about_the_user(text, policy):
        return [], {}
    forms = [name for name, cues in policy.question_forms.items() if _hits(text, cues)]
    weights: dict[str, float] = {}
    for form in forms:
        for pattern, weight in policy.form_keys.get(form, {}).items():
            if _hits(text, policy.key_lexicon.get(pattern, [])):
                weights[pattern] = max(weights.get(pattern, 0.0), float(weight))
    return forms, weights


# A slot asked by its shape rather than its cue phrases: a weekday with the time on it ("Tuesday morning", "周一上午",
# "Sunday 8:30", or a clock time anywhere: "a 9am meeting on Tuesday") in a question whether something can go there
# (`slot_question_cues`, or a question ending by asking whether that is fine: "…brunch with the team ok?",
# "…谈，行不行"). "can I take my Monday tablet with my morning tea" names a weekday and a time of day apart, as
# what the tablet is, and asks no slot.
_SLOT_WEEKDAY = re.compile(r"\b(?:mon|tues?|wednes|thurs?|fri|satur|sun)days?\b|(?:周|星期|礼拜)[一二三四五六日天]|周末|"
                           r"\bweekends?\b")
_SLOT_CLOCK = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b|[\d一二三四五六七八九十两]+点")
_SLOT_DAYPART = re.compile(r"morning|afternoon|evening|night|lunch ?time|noon|早上|上午|中午|下午|晚上|傍晚|早晨")
_SLOT_FINE = re.compile(r"\b(?:ok|okay|alright|all right|fine|doable)\s*[?？]|行不行|行吗|可以吗|好不好|没问题吧")
_SLOT_NEAR = 12  # characters between a weekday and the time of day said of it


def slot_by_shape(text: str, policy: Policy) -> bool:
    """Whether `text` (normalised, lowercased) asks if a time on a weekday is free (see `_SLOT_WEEKDAY`)."""
    days = list(_SLOT_WEEKDAY.finditer(text))
    if not days or not (_hits(text, policy.slot_question_cues) or _SLOT_FINE.search(text)):
        return False
    if _SLOT_CLOCK.search(text):
        return True
    return any(abs(part.start() - day.end()) <= _SLOT_NEAR or abs(day.start() - part.end()) <= _SLOT_NEAR
               for day in days for part in _SLOT_DAYPART.finditer(text))


# Needs said by their shape as well as by the topics' cue phrases: somewhere near the user ("somewhere good near
# us?", "close to home", "我家附近"), a meal one treats people to, a request naming a way to get there ("帮我订去北京的
# 高铁", "a coach to Leeds"). The patterns are here; the topic each implies and the scene it needs are policy
# (`shape_topics`, `shape_scenes`: the home city for the first two, where the trip leaves from for the third).
_NEAR_USER = re.compile(r"\b(?:near|nearby|close to|around|by)\s+(?:us|me|here|home|our place|my place|where (?:i|we) live)\b"
                        r"|(?:我|我们|我家|家)(?:附近|周边|旁边|门口)")
_TRANSPORT = re.compile(r"\b(?:flights?|planes?|trains?|rail|coach(?:es)?|bus(?:es)?|ferr(?:y|ies))\b"
                        r"|机票|飞机|航班|火车|高铁|动车|大巴|车票|船票")
# treating people to a meal happens out, somewhere in the city ("晚上请几个老同事吃饭", "take my parents out for dinner");
# 请 as "please" (请帮我, 请问, 请推荐) treats no one
_TREAT_TO_MEAL = re.compile(r"请(?![帮问给告推教])[^，。？！,.!?\s]{1,8}吃"
                            r"|\b(?:take|taking|treat|treating)\s+(?:\w+\s+){0,3}(?:out|to)\s+(?:for\s+)?"
                            r"(?:dinner|lunch|brunch|breakfast|a meal|a curry|drinks)\b")
SHAPES = {"near_user": _NEAR_USER, "treat_to_meal": _TREAT_TO_MEAL, "transport": _TRANSPORT}
# the topic the holiday words read as (policy `holiday_words`), for `implied_topics` to send the ticket home
HOLIDAY_TOPIC = "holiday"


def _shaped_topics(text: str, scene: str | None, topics: list[str], policy: Policy) -> list[str]:
    """The topics the needs said by their shape imply (`SHAPES`, policy `shape_topics` and `shape_scenes`)."""
    out = []
    for name, shape in SHAPES.items():
        implied, needs_scene = policy.shape_topics.get(name), policy.shape_scenes.get(name)
        if implied in policy.topic_keys and implied not in topics and implied not in out \
                and (not needs_scene or scene == needs_scene) and shape.search(text):
            out.append(implied)
    return out


def _implied_topics(topics: list[str], policy: Policy) -> list[str]:
    """The topics others imply together (policy `implied_topics`: "departure+parents" -> visit_parents)."""
    out = []
    for implied, joints in policy.implied_topics.items():
        for joint in joints:
            if implied in policy.topic_keys and implied not in topics and implied not in out \
                    and all(name in topics + out for name in joint.split("+") if name):
                out.append(implied)
    return out


def _fact_question(text: str, topics: list[str], policy: Policy) -> bool:
    """Whether `text` asks the user's own fact of a topic as a question (`fact_question_topics` in the forms
    `fact_question_forms`, or a topic in its own forms, `fact_question_topic_forms`), not the scene's needs."""
    forms = set(policy.fact_question_forms) if any(name in policy.fact_question_topics for name in topics) else set()
    forms |= {form for name in topics for form in policy.fact_question_topic_forms.get(name, [])}
    return bool(forms) and _about_the_user(text, policy) \
        and any(_hits(text, policy.question_forms.get(form, [])) for form in forms)


def query_read(query: str, policy: Policy, task_type: str | None = None) -> QueryReading:
    """The scene (the task type when it names a scene, else the one with most cue hits, first listed on a
    tie, else the nearest prototype's) and the topics of `query`, with the key weights they call for."""
    text = unicodedata.normalize("NFKC", query).lower()
    scene, scene_hits, source = None, [], None
    prototype, prototype_cosine = None, None
    if task_type and task_type in policy.scene_keys:
        scene, source = task_type, "task_type"
    else:
        scene, scene_hits = _cue_scene(text, policy)
        source = "cue" if scene else None
        if scene is None:
            scene, prototype, prototype_cosine = prototype_scene(query, policy)
            source = "prototype" if scene else None
    weights: dict[str, float] = {}

    def merge(pairs: dict[str, float]) -> None:
        for pattern, weight in pairs.items():
            weights[pattern] = max(weights.get(pattern, 0.0), float(weight))

    named_place = False
    if scene in policy.scenes_needing_place:
        named_place = names_place(query)
    topics = [name for name, cues in policy.topic_cues.items() if _word_hits(text, cues, policy)]
    if policy.slot_topics and not any(name in policy.slot_topics for name in topics) and slot_by_shape(text, policy):
        topics.append(policy.slot_topics[0])
    topics += _shaped_topics(text, scene, topics, policy)
    # a holiday trip that names where it goes ("五一去西安", "to see my son for thanksgiving") goes there, not home
    holidays = _hits(text, policy.holiday_words)
    if holidays and not any(name in policy.person_topics for name in topics) \
            and not names_place(re.sub("|".join(map(re.escape, holidays)), " ", query, flags=re.I)):
        topics.append(HOLIDAY_TOPIC)
    topics += _implied_topics(topics, policy)
    about_another = any(name in policy.person_topics for name in topics)
    if about_another:
        # "where does my brother live?" asks about the brother, not the user's own city
        topics = [name for name in topics if name not in policy.self_topics]
    # "周五晚上能约朋友吃饭吗" asks whether the evening is free, not what to eat: the scene's needs stay out
    slot_only = any(name in policy.slot_topics for name in topics)
    fact_question = _fact_question(text, topics, policy)
    if scene and not named_place and not slot_only and not fact_question:
        scene_keys = policy.scene_keys.get(scene, {})
        if about_another or any(name in policy.other_subject_topics for name in topics):
            # "我伴侣对什么药过敏？" asks about the partner's health, not the user's own conditions
            own = policy.scene_self_keys.get(scene, [])
            scene_keys = {pattern: weight for pattern, weight in scene_keys.items() if pattern not in own}
        merge(scene_keys)
    for name in topics:
        merge(policy.topic_keys.get(name, {}))
    forms, form_keys = _form_keys(text, policy) if not about_another else ((), {})
    asked = {pattern for name in topics if name in policy.self_topics for pattern in policy.topic_keys.get(name, {})}
    if asked:
        # a topic that names what the question is about reads it more narrowly than form and lexicon: "where's my
        # hometown?" asks no home city ("my home…"), "what company do I work for?" no occupation ("work")
        form_keys = {pattern: weight for pattern, weight in form_keys.items() if pattern in asked}
    merge(form_keys)
    content_patterns, content_weight = (), 0.0
    if scene and not named_place and not slot_only and policy.scene_content_weights.get(scene, 0) > 0:
        content_patterns = _pg_regexes(policy.scene_content_cues.get(scene, []))
        content_weight = float(policy.scene_content_weights[scene]) if content_patterns else 0.0
    content_answers = False
    if not content_patterns and any(name in policy.self_topics
                                    and policy.topic_keys.get(name, {}).get("user.home_city", 0.0) >= 0.8
                                    for name in topics):
        # where the user lives now: a move under way says it too (RELEVANCE.md rule 4, "a pending move is relevant")
        content_patterns, content_weight, content_answers = _pg_regexes(policy.move_cues), policy.move_weight, True
    return QueryReading(scene=scene, scene_cues=tuple(scene_hits), topics=tuple(topics),
                        key_weights={k: v for k, v in weights.items() if v > 0},
                        content_patterns=content_patterns, content_weight=content_weight,
                        content_answers=content_answers, named_place=named_place,
                        scene_source=source, scene_prototype=prototype, scene_prototype_cosine=prototype_cosine,
                        forms=tuple(forms), form_keys=tuple(form_keys))


def key_patterns_sql(weights: dict[str, float]) -> tuple[list[str], list[float]]:
    """The patterns as SQL LIKE patterns (`*` -> `%`, `_` and `%` escaped) with their weights."""
    likes = [p.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_").replace("*", "%") for p in weights]
    return likes, [float(w) for w in weights.values()]
