"""The search's optional second stage: the first stage's best candidates re-scored with evidence that
stage does not weigh, then cut at `min_score` and `top_k` (layers/long_term/selectors/search.py).

Each piece of evidence closes a fixed share of the gap the first stage left:
relevance = 1 − (1 − first-stage relevance)(1 − boost), boost = 1 − Π(1 − share × feature). So a memory
the first stage found irrelevant stays irrelevant, the order among equal evidence is kept, and the result
depends on the query and the memory only (never on the other candidates), which keeps `min_score` one
meaning. The features, each in [0, 1]:

- subject: a person, place or organisation the query names is the memory's subject: the speaker its
  provenance records (`attributes.speaker` or `attributes.subject`, as an importer or extractor sets them)
  or, for a transcript line, the label it starts with ("[date] Caroline: …", "Ana: …"). BM25 weighs a
  name like any word, and a name that labels half the lines has little IDF, yet a question about a person
  is answered by that person's own lines first. The query's names are read without the memory: runs of
  capitalised words that are not sentence openers, question words or calendar words ("C. S. Lewis" →
  c s lewis, "New York", "John's" → john), and the people, places and organisations jieba tags in
  Chinese that have no zh/en bridge (老公 is a role with a translation, not a name). So "books by John
  Greene" does not name the speaker John. A query typed without capitals names a subject it contains as
  a whole word. The user's own lines ("user: …") have no subject here: the query's "I" is the user. (A
  memory that only mentions the name in its text is BM25's to weigh: counting that too, at a quarter,
  raised LoCoMo dev R@10 by 0.002 but added two false positives on the relevance dev part, places a
  question named.)
- first person and event: of the subject's own lines, the share of the line's personal pronouns that are first
  person (I, my, we, 我; against you, your, 你, 您; half when it has none) closes `rerank_first_person_share`, and
  a report of something that happened to the speaker (a first-person past-tense verb, "I went", "we adopted", or
  a past time, "last week", 昨天, 上周) closes `rerank_event_share`. What a person did, where they went and when
  is told in their own reports; their acknowledgements and advice ("Yeah, Maria, keep it up!") are about the
  one they talk to, and the subject share alone lifts both alike. (LoCoMo dev in-process R@10 0.766 -> 0.781,
  multi-hop 0.470 -> 0.516; held-out, leave one conversation out over the shares' grid, 0.777; the
  relevance dev part unchanged: the user's own lines have no subject.)
- person: the memory names the person the query means by a role ("what's my wife called?", "我女朋友在哪个
  城市？"): the name the user's own relationship fact gives ("User's wife is Anna.", read by the first
  stage, selectors/search.py `_with_person_names`) stands in the memory's text ("Anna still beats me at
  chess"). The first stage already counts the name as part of the role word's concept, where it shares the
  query's IDF mass with every other word; such an episode is the answer (the linking-facts rule of
  tests/layers/long_term/corpora/RELEVANCE.md), so it gets this share too. (Relevance dev: share 0.1 three
  more relevant memories over the cut and no false positive, 0.2 five and five; LoCoMo has no such facts.)
  A question about the person other than their name ("where does my daughter live?", "我老公什么时候做手术？")
  closes `rerank_person_answer_share` (0.2) instead: a line naming them is then most often the answer, while for
  "what's my wife called?" the fact is and a line that only names her is not, and in a request the person
  comes along to (a meal: `person_companion_scenes`) what matters of theirs is what the scene reads. A Chinese
  name is also found by the short forms people use for it (马小燕 -> 小燕, 高丽 -> 丽丽: `name_variants`).
  (Relevance dev: 355/117/72 -> 362/119/65; 0.3 one more relevant and two more false positives.)
- destination: for a transport booking to see a person the query means by a role ("train times to go and visit my
  daughter"), a line naming that person and a place ("Fiona moved up to Aberdeen with her work") also closes
  `rerank_destination_share` (0.2) of the gap: it is where the trip goes (relevance dev 758/228/88 -> 760/228/86).
- coverage: how many of the query's concepts (a term with its bridges) the memory holds together, as
  (matched − 1) / (concepts − 1): BM25 already rewards one matching term, and rewards one rare term as much
  as several common ones, while a memory that answers the whole question usually holds several of its
  concepts at once. (Counting the first match too lifted incidental one-word matches, such as "likes" for
  "what's the weather like", over the context floor.)

- time form: a question for the hour or the habit of something ("when's my lesson?", "我一般几点喝咖啡", the
  question forms `rerank_time_forms`) is answered by a habit (`rerank_time_form_keys`) it shares a word with.
- slot: a question whether a slot is free (a slot topic, or the scheduling scene asked as leave,
  `slot_question_cues`: "can I take a call on Saturday morning?", "周四下午能约牙医吗") is answered by what already fills that day: a memory naming a weekday the query
  names (selectors/days.py: "every Tuesday and Thursday", 每周一三五, weekdays, 周末) closes `rerank_slot_share` of
  the gap (RELEVANCE.md, indirect needs: the recurring commitments that fall in the asked slot).
- allergen: an allergy (`allergy_keys`) that shares a concept with the request (keywords.py `CARRIED_WORDS` bridge a
  thing to what it carries: flowers to pollen, a cat to its dander) closes `rerank_allergen_share` (0.3) of the gap,
  whatever the scene: "想买束花" meets "用户对花粉过敏", "同学家养了猫，我能去吗" meets "用户对猫毛过敏" (relevance dev 754/228/92 ->
  756/228/90).
- taste: a like or dislike (`taste_keys`) bears on the scene it is about. When the memory's own words name
  the query's scene by its cue words ("User likes Korean food" for "order us something for dinner", read by
  scenes.text_scene) it closes `rerank_taste_fit_share` of the gap; when they name another scene ("User
  dislikes horror movies" for the same dinner, which the dining scene's blanket weight for dislikes would
  serve) the relevance keeps only `rerank_taste_misfit_factor` of itself. A taste whose words name no scene
  is left as the first stage scored it. A taste for a pastime (`pastime_kinds`: "User likes K-dramas", "用户喜欢钓鱼")
  fits a request for that kind (`pastime_query_cues`: "something to watch tonight?", "周末有什么好玩的") the same
  way, unless the request names a pastime itself; never a misfit. The query's scene is read from its words (a task type the search
  was given is not seen here).

Three corrections that are not gap-closing shares:

- name given: a relationship fact whose name the query already uses ("when is Leo's soccer practice?" beside "User's
  son is Leo.", "朵朵几岁了" beside "用户的女儿叫朵朵。") keeps `rerank_other_key_factor` of its relevance: the query needs
  no link from a role to the name (RELEVANCE.md rule 2), unless it asks who that is ("who is Leo?"). (Relevance dev
  764/229/82 -> 764/224/82.)

- kept question: an episode's span ends with the assistant's question it answers ("（回答：今天过得怎么样？）",
  layers/formation/spans.py). When the query's concepts meet the memory only there and nowhere in the user's
  own words, and the kept question is small talk for the query (it holds none of the query's topical concepts,
  only words any chat question holds: `rerank_kept_question_generic_words`), the relevance keeps
  `rerank_kept_question_factor` of itself: "今天天气怎么样" is not answered by a recipe the user talked about when
  asked how the day went, while "where did I study?" is answered by "Purdue, class of 2016" kept with "where
  did you study?", and a short reply's meaning most often sits in the question it answers. (The span's vector
  still holds the question; that is the write side's to change.)
- fewer details: of the memories under one key the query asks for, one stating fewer bracketed details
  than another served one scores at most `rerank_detail_order_factor` of it (`_fuller_first`), so
  "用户的狗叫旺财（3岁，柯基）。" comes before "用户养了狗。", which BM25's length norm alone puts first. This is the
  stage's one comparison between candidates.

Measured on the LoCoMo dev split and the relevance dev part (docs/benchmarks.md, "Retrieval (issue 12)").
"""
from __future__ import annotations

import json
import re

import fnmatch
from functools import lru_cache

from layers.long_term.policy import Policy
from layers.long_term.selectors.days import days_named
from layers.long_term.selectors.scenes import (QueryReading, cue_hits, names_place, pastime_kinds, pastimes_asked,
                                              query_read, text_scene)
from memoryhub.providers.keywords import proper_names, query_concepts, synonyms, tokenize

# "[9:00 am on 3 March, 2024] Caroline: …" or "Caroline: …": a short label of letters before a colon.
_SPEAKER = re.compile(r"^\s*(?:\[[^\]]{0,80}\]\s*)?([^\W\d_][\w .'-]{0,38}?)\s*[:：]")
NOT_SPEAKERS = frozenset({"user", "assistant", "system", "tool", "note", "用户", "用户让记住", "助手"})
# A run of capitalised words (with the particles names carry inside them), and English words that are
# capitalised without being names: sentence openers, question and auxiliary words, calendar words.
_CAPITALISED_RUN = re.compile(r"(?<![\w'’])([A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|of|de|da|van|von|del))*)")
_NAME_PARTICLES = frozenset({"of", "de", "da", "van", "von", "del"})
NOT_NAMES = frozenset("""
i i'm i've i'd i'll what who whom whose where when which why how did does do is are was were would could can
should will shall may might must has have had based given if the a an and or but in on at to for of from with by
about after before during since until my your his her their our its it this that these those there here any some
yes no please hi hello hey ok okay thanks tell show find remind book recommend help let give get make according
monday tuesday wednesday thursday friday saturday sunday january february march april june july august september
october november december user
""".split())
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# A keyed fact's details in brackets ("（3岁，柯基）", "(at 7, tue)"), and the assistant's question an episode's span
# keeps at its end (layers/formation/spans.py writes "（回答：…）" or ' (answering "…")').
_BRACKETED = re.compile(r"[（(]([^（()）]*)[)）]")
_DETAIL_SEPARATORS = re.compile(r"[,，、;；/]")
_KEPT_QUESTION = re.compile(r"(?:（回答：[^（）]*）|\s*\(answering \"[^\"]*\"\))\s*$")


def detail_count(content: str) -> int:
    """How many details a memory's text states in brackets, the kept question of a span aside."""
    own = _KEPT_QUESTION.sub("", content or "")
    return sum(len([part for part in _DETAIL_SEPARATORS.split(inner) if part.strip()])
               for inner in _BRACKETED.findall(own))


def kept_question_only(content: str, concepts: list[list[str]]) -> bool:
    """The query's concepts meet the memory only in the question its span kept, not in the user's own words."""
    match = _KEPT_QUESTION.search(content or "")
    if match is None or not concepts:
        return False
    own, asked = set(tokenize(content[:match.start()])), set(tokenize(match.group(0)))
    hit = [concept for concept in concepts if asked.intersection(concept)]
    return bool(hit) and not any(own.intersection(concept) for concept in concepts)


@lru_cache(maxsize=8)
def _generic_terms(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(term for word in words for term in tokenize(word))


def kept_question_small_talk(content: str, concepts: list[list[str]], generic_words) -> bool:
    """The question a span kept is small talk for the query: the query has topical concepts (a concept none of
    whose terms is one of `generic_words`, the words any chat question holds: today, weekend, how it went) and the
    kept question holds none of them. "how was your day today?" for "what's the weather today?" is; "where did
    you study?" for "where did I study?" is not (the answer's meaning sits in the question), nor "how was your
    weekend?" for "how was my weekend?", a query with no topical concept of its own."""
    match = _KEPT_QUESTION.search(content or "")
    if match is None:
        return False
    generic = _generic_terms(tuple(generic_words))
    topical = [concept for concept in concepts if generic.isdisjoint(concept)]
    return bool(topical) and not any(set(tokenize(match.group(0))).intersection(concept) for concept in topical)


def speaker_of(content: str) -> str | None:
    """The speaker label a transcript line starts with, lowercased, or None."""
    match = _SPEAKER.match(content)
    if not match:
        return None
    label = match.group(1).strip().lower()
    # "User's diet: vegetarian." is a keyed fact's template, not a line the user said
    first_word = re.split(r"[\s']", label, maxsplit=1)[0]
    if label in NOT_SPEAKERS or first_word in NOT_SPEAKERS or label.startswith("用户"):
        return None
    return label


def subjects_of(row: dict) -> list[str]:
    """Who or what a memory is about by its provenance, lowercased: the speaker or subject its attributes
    record, else the label of the transcript line it is."""
    attributes = row.get("attributes")
    if isinstance(attributes, str):  # the search statement's rows carry jsonb as text (selectors/search.py)
        attributes = json.loads(attributes)
    out = []
    if isinstance(attributes, dict):
        out = [attributes[name].strip().lower() for name in ("speaker", "subject")
               if isinstance(attributes.get(name), str) and attributes[name].strip()]
    out = [name for name in out if name not in NOT_SPEAKERS]
    speaker = speaker_of(row.get("content") or "")
    if speaker and speaker not in out:
        out.append(speaker)
    return out


def query_names(query: str) -> list[str]:
    """The people, places and organisations a query names, lowercased (see the module's docstring)."""
    names: list[str] = []
    for match in _CAPITALISED_RUN.finditer(query):
        words = [word.strip(".'’-") for word in re.sub(r"['’]s\b", "", match.group(1)).split()]
        while words and words[0].lower() in NOT_NAMES:
            words = words[1:]
        while words and words[-1].lower() in _NAME_PARTICLES:
            words = words[:-1]
        name = " ".join(words).lower()
        if len(name) > 1 and name not in NOT_NAMES:
            names.append(name)
    if _CJK.search(query):
        names += [name for name in proper_names(query) if synonyms(name) <= {name}]
    return list(dict.fromkeys(names))


def names_subject(query: str, names: list[str], subjects: list[str]) -> bool:
    if any(subject in names for subject in subjects):
        return True
    if re.search(r"[A-Z]", query):
        return False  # the query's capitals say what it names
    lowered = query.lower()
    for subject in subjects:
        if subject.isascii():
            if re.search(r"(?<![\w])" + re.escape(subject) + r"(?![\w])", lowered):
                return True
        elif _CJK.search(subject) and subject in lowered:
            return True
    return False


def name_variants(name: str) -> list[str]:
    """A name with the short forms people call that person by: a Chinese full name by its given name
    (马小燕 -> 小燕, 邓小龙 -> 小龙) and a one-character given name doubled or with 小 / 阿 (高丽 -> 丽丽,
    小丽, 阿丽); a Latin name as written."""
    if not _CJK.search(name) or not name.isalpha():
        return [name]
    if len(name) in (3, 4):
        return [name, name[-2:]]
    if len(name) == 2:
        given = name[1]
        return [name, given * 2, "小" + given, "阿" + given]
    return [name]


# Personal pronouns: a word of the line (lowercased) or one of the Chinese characters.
_PRONOUN_WORDS = re.compile(r"[a-z']+|[我咱你您]")
_FIRST_PERSON = frozenset("i i'm i've i'd i'll im ive my me mine myself we we're we've our ours us 我 咱".split())
_SECOND_PERSON = frozenset("you you're you've you'd you'll your yours yourself u ur 你 您".split())


def _own_words(content: str) -> str:
    """A memory's text without the question its span kept (the assistant's words)."""
    content = content or ""
    return _KEPT_QUESTION.sub("", content) if content.rstrip().endswith((")", "）")) else content


def first_person_share(content: str) -> float:
    """The share of a line's personal pronouns that are first person (I, my, we, 我, 我们) rather than second
    (you, your, 你, 您); 0.5 when it has neither. The speaker's kept question, a transcript's label and an image
    caption hold no pronouns of the speaker's."""
    first = second = 0
    for word in _PRONOUN_WORDS.findall(_own_words(content).lower()):
        if word in _FIRST_PERSON:
            first += 1
        elif word in _SECOND_PERSON:
            second += 1
    return first / (first + second) if first + second else 0.5


# A report of something that happened: a first-person past-tense verb (regular, or one of the common irregular
# ones) or a past time.
_EVENT = re.compile(
    r"\b(?:i|we)(?:'ve)?\s+(?:\w+\s+)?(?:\w+ed|went|got|made|took|saw|met|did|had|began|won|ran|bought|found|gave|"
    r"wrote|read|left|came|became|built|threw|sold|spent|taught|caught|brought|felt|lost|heard|flew|drove|rode|swam|"
    r"ate|drank|sang|chose|forgot|kept|held|paid|sent|told|thought|wore)\b"
    r"|\b(?:yesterday|last (?:week|month|year|weekend|night|summer|winter|spring|fall|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|\w+ (?:days?|weeks?|months?|years?) ago)\b"
    r"|昨天|前天|上周|上个?星期|上个月|去年|前几天|前段时间", re.I)


def reports_event(content: str) -> bool:
    """The line reports something that happened to its speaker (the kept question of a span aside)."""
    return _EVENT.search(_own_words(content)) is not None


def _co_coverage(matched: int, concepts: int) -> float:
    if concepts < 2 or matched < 2:
        return 0.0
    return min(1.0, (matched - 1) / (concepts - 1))


def mentions(name: str, text: str) -> bool:
    """`text` names `name`: as a whole word for a Latin name (any case), as a substring for a Chinese one."""
    if name.isascii():
        return re.search(r"(?<![\w])" + re.escape(name.lower()) + r"(?![\w])", text.lower()) is not None
    return name in text


ALLERGY_SCENES = ("dining", "medical")


def _taste_scene(row: dict, policy: Policy) -> tuple[str | None, str | None]:
    """Which scene-bound family the row is ("taste" for `taste_keys`, "allergy" for `allergy_keys`, else None)
    and the scene its own words name: a taste's by the scenes' cue words, an allergy's by its allergen."""
    key = row.get("memory_key") or ""
    if not key:
        return None, None
    if any(fnmatch.fnmatchcase(key, pattern) for pattern in policy.taste_keys):
        return "taste", text_scene(row.get("content") or "", policy)
    if any(fnmatch.fnmatchcase(key, pattern) for pattern in policy.allergy_keys):
        content = (row.get("content") or "").lower()
        medical = any(mentions(cue, content) if cue.isascii() else cue in content
                      for cue in policy.allergen_medical_cues)
        return "allergy", "medical" if medical else "dining"
    return None, None


def _topic_asks_for(row: dict, reading, policy: Policy) -> bool:
    key = row.get("memory_key") or ""
    return reading is not None and any(fnmatch.fnmatchcase(key, pattern) for topic in reading.topics
                                       for pattern in policy.topic_keys.get(topic, {}))


def _supplied_by_query(row: dict, reading, policy: Policy) -> bool:
    """A keyed fact the query supplies itself: the home city for a weather question that names its place
    ("what's the weather like in Chicago?", "新加坡今天会下雨吗"), which the scene would otherwise need
    (RELEVANCE.md rule 5). The first stage drops the scene's keys then, but the city's own name or vector
    still matches the fact."""
    key = row.get("memory_key") or ""
    if not key or reading is None or not reading.named_place or not reading.scene:
        return False
    return any(fnmatch.fnmatchcase(key, pattern) for pattern in policy.scene_keys.get(reading.scene, {}))


def _another_keys_fact(row: dict, reading, policy: Policy) -> bool:
    """A keyed fact the query's question topic did not ask for, matched by one word only: "User works as a
    developer." for "where do I work?" (the topic asks the employer), "User lives in Melbourne." for "what do
    I do for a living?". A keyed fact states one typed thing; a question about the user or one of their
    people (`self_topics`, `person_topics`) asks for the keys of that topic, and one shared word with a fact
    of another key is a near-miss (RELEVANCE.md rule 4). Need topics (local, pets, plans, …) ask nothing."""
    key = row.get("memory_key") or ""
    asking = [name for name in (reading.topics if reading is not None else ())
              if name in policy.self_topics or name in policy.person_topics]
    if not key or not asking or not reading.key_weights:
        return False
    if int(row.get("matched_concepts") or 0) > 1:
        return False
    if reading.content_answers and float(row.get("key_relevance") or 0.0) > 0:
        return False  # its words say what the question asks ("moving to Seattle" for where one lives now)
    return not any(fnmatch.fnmatchcase(key, pattern) for pattern in reading.key_weights)


RELATIONSHIP_KEYS = "user.relationship.*"
# the name a relationship fact gives: "User's son is Leo.", "用户的女儿叫朵朵。"
_FACT_NAME = re.compile(r"\b(?:is|are|called|named)\s+([A-Z][\w'-]+)|(?:叫|是)([\u4e00-\u9fff]{1,4}|[A-Za-z][\w'-]+)[。.!！]?\s*$")


def _name_already_given(row: dict, query: str, policy: Policy) -> bool:
    """A relationship fact whose name the query already uses ("when is Leo's soccer practice?" beside "User's son is
    Leo."): the query needs no link from the role to the name (RELEVANCE.md rule 2), unless it asks who that is."""
    key = row.get("memory_key") or ""
    if not key or not fnmatch.fnmatchcase(key, RELATIONSHIP_KEYS):
        return False
    match = _FACT_NAME.search(row.get("content") or "")
    name = next((group for group in match.groups() if group), None) if match else None
    if not name or not mentions(name, query):
        return False
    return not cue_hits(query, policy.question_forms.get("who", []))


def _asked_key_weight(row: dict, reading) -> float:
    key = row.get("memory_key") or ""
    if not key or reading is None:
        return 0.0
    return max((weight for pattern, weight in reading.key_weights.items() if fnmatch.fnmatchcase(key, pattern)),
               default=0.0)


def _time_form_answer(row: dict, reading, policy: Policy) -> bool:
    """A habit the question for an hour or a habit ("when's my lesson?", `rerank_time_forms`) shares a word with."""
    key = row.get("memory_key") or ""
    if not key or reading is None or int(row.get("matched_concepts") or 0) < 1 \
            or not set(reading.forms) & set(policy.rerank_time_forms):
        return False
    return any(fnmatch.fnmatchcase(key, pattern) for pattern in policy.rerank_time_form_keys)


def _pastime_fits(content: str, key: str, asked: frozenset[str], policy: Policy) -> bool:
    """A taste for a kind of pastime the request asks for; a like of any kind for an open request ("something
    fun"), whose dislikes are not what it asks."""
    if not asked:
        return False
    kinds = pastime_kinds(content, policy)
    return bool(kinds & asked or (kinds and "any" in asked and "dislike" not in key))


def slot_days(query: str, reading, policy: Policy) -> frozenset[int]:
    """The weekdays a question about a free slot asks for (none when the query is no such question)."""
    if reading is None:
        return frozenset()
    # a slot topic, or a scheduling question asking leave ("can I book a dentist on Wednesday?"); "周一早上几点开会"
    # asks the hour of a meeting, not whether the morning is free
    if not (set(reading.topics) & set(policy.slot_topics)
            or (reading.scene == "scheduling" and cue_hits(query, policy.slot_question_cues))):
        return frozenset()
    return days_named(query)


def rerank_row(row: dict, *, query: str, names: list[str], concept_count: int, policy: Policy,
               linked_names: list[str] = (), query_scene: str | None = None, reading=None,
               concepts: list[list[str]] | None = None, query_days: frozenset[int] = frozenset(),
               pastimes: frozenset[str] = frozenset()) -> dict:
    """The second stage's features, boost and relevance for one first-stage row (its explain part)."""
    subjects = subjects_of(row)
    content = row.get("content") or ""
    family, memory_scene = _taste_scene(row, policy)
    taste = family == "taste"
    subject = names_subject(query, names, subjects)
    features = {
        "subject": 1.0 if subject else 0.0,
        "first_person": first_person_share(content) if subject else 0.0,
        "event": 1.0 if subject and reports_event(content) else 0.0,
        "person": 1.0 if any(mentions(variant, content) for name in linked_names
                             for variant in name_variants(name)) else 0.0,
        "coverage": _co_coverage(int(row.get("matched_concepts") or 0), concept_count),
        "taste_fit": 1.0 if taste and ((query_scene and memory_scene == query_scene)
                                       or _pastime_fits(content, row.get("memory_key") or "", pastimes, policy))
                      else 0.0,
        "time_form": 1.0 if _time_form_answer(row, reading, policy) else 0.0,
        "slot": 1.0 if query_days and query_days & days_named(content) else 0.0,
        "allergen": 1.0 if family == "allergy" and int(row.get("matched_concepts") or 0) >= 1 else 0.0,
    }
    # a ticket to see the person goes where their own line says they are ("Fiona moved up to Aberdeen", "嘉欣在墨尔本上班")
    features["destination"] = 1.0 if features["person"] and reading is not None \
        and set(policy.rerank_destination_topics) & set(reading.topics) and names_place(_own_words(content)) else 0.0
    # a memory naming the person is the answer to a question about them, not to one asking their name or to a
    # request they only come along to
    person_answers = not cue_hits(query, policy.name_question_cues) and query_scene not in policy.person_companion_scenes
    shares = {"subject": policy.rerank_subject_share, "first_person": policy.rerank_first_person_share,
              "event": policy.rerank_event_share,
              "person": policy.rerank_person_answer_share if person_answers else policy.rerank_person_share,
              "coverage": policy.rerank_coverage_share, "taste_fit": policy.rerank_taste_fit_share,
              "time_form": policy.rerank_time_form_share, "slot": policy.rerank_slot_share,
              "allergen": policy.rerank_allergen_share, "destination": policy.rerank_destination_share}
    remaining = 1.0
    for name, value in features.items():
        remaining *= 1.0 - shares[name] * value
    boost = 1.0 - remaining
    first = float(row["relevance"])
    relevance = 1.0 - (1.0 - first) * (1.0 - boost) if first > 0 else 0.0
    # a taste about another scene than the query's
    misfit = policy.rerank_taste_misfit_factor if taste and query_scene and memory_scene not in (None, query_scene) \
        else 1.0
    # an allergy about the other one of dining and medical, unless the query asks for allergies by topic
    if family == "allergy" and query_scene in ALLERGY_SCENES and memory_scene != query_scene \
            and not _topic_asks_for(row, reading, policy):
        misfit = policy.rerank_taste_misfit_factor
    other_key = _another_keys_fact(row, reading, policy)
    if other_key:
        misfit *= policy.rerank_other_key_factor
    name_given = _name_already_given(row, query, policy)
    if name_given:
        misfit *= policy.rerank_other_key_factor
    supplied = _supplied_by_query(row, reading, policy)
    if supplied:
        misfit *= policy.rerank_supplied_factor
    concepts = query_concepts(query) if concepts is None else concepts
    kept_question = kept_question_only(content, concepts)
    small_talk = kept_question and kept_question_small_talk(content, concepts, policy.rerank_kept_question_generic_words)
    if small_talk:
        misfit *= policy.rerank_kept_question_factor
    relevance *= misfit
    return {"kept_question_only": kept_question, "kept_question_small_talk": small_talk,
            "first_stage_relevance": first, "first_stage_score": float(row["score"]), "features": features,
            "subjects": subjects, "query_names": names, "linked_names": list(linked_names), "boost": boost,
            "query_scene": query_scene, "memory_scene": memory_scene, "scene_bound": family, "other_key": other_key,
            "name_given": name_given,
            "supplied": supplied,
            "misfit_factor": misfit, "relevance": relevance}


def rerank(rows: list[dict], *, query: str, concept_count: int, policy: Policy, min_score: float,
           top_k: int, linked_names: list[str] = (), reading: QueryReading | None = None) -> list[dict]:
    """The rows re-scored (relevance and score replaced, the stage's details under `rerank`), cut at
    `min_score`, best first, at most `top_k`. `reading` is the query's own reading (no task type), when the
    caller has it already."""
    names = query_names(query)
    if rows and reading is None:
        reading = query_read(query, policy)
    query_scene = reading.scene if reading else None
    concepts = query_concepts(query) if rows else []
    query_days = slot_days(query, reading, policy)
    pastimes = frozenset(pastimes_asked(query, policy)) if rows else frozenset()
    out = []
    for row in rows:
        stage = rerank_row(row, query=query, names=names, concept_count=concept_count, policy=policy,
                           linked_names=linked_names, query_scene=query_scene, reading=reading, concepts=concepts,
                           query_days=query_days, pastimes=pastimes)
        score = (stage["relevance"] * row["recency"] * row["scene"] * row["confidence_factor"]
                 * row["feedback_factor"])
        if score < min_score or stage["relevance"] <= 0:
            continue
        out.append({**row, "relevance": stage["relevance"], "score": score, "rerank": stage})
    _fuller_first(out, reading, policy)
    out = [row for row in out if row["score"] >= min_score]
    out.sort(key=lambda r: (-r["score"], -r["id"]))
    return out[:top_k]


def _fuller_first(rows: list[dict], reading, policy: Policy) -> None:
    """Of the memories under one key the query asks for, one stating fewer details than another (bracketed
    items: "用户养了狗。" beside "用户的狗叫旺财（3岁，柯基）。") scores at most `rerank_detail_order_factor` of the
    fuller one: both answer, the fuller answers more, and BM25's length norm alone would put the bare one
    first. The one comparison between candidates in this stage; the bare one's relevance takes the factor,
    so the factors still multiply to its score."""
    groups: dict[str, list[dict]] = {}
    for row in rows:
        row["rerank"]["details"] = detail_count(row.get("content") or "")
        if _asked_key_weight(row, reading) >= policy.rerank_detail_min_key_weight:
            groups.setdefault(row["memory_key"], []).append(row)
    for group in groups.values():
        group.sort(key=lambda r: (-r["rerank"]["details"], -r["score"]))
        for index, row in enumerate(group):
            details = row["rerank"]["details"]
            cap = min((other["score"] for other in group[:index] if other["rerank"]["details"] > details), default=None)
            if cap is None or row["score"] <= cap * policy.rerank_detail_order_factor:
                continue
            factor = cap * policy.rerank_detail_order_factor / row["score"]
            row["relevance"] *= factor
            row["score"] *= factor
            row["rerank"]["relevance"] = row["relevance"]
            row["rerank"]["misfit_factor"] *= factor
            row["rerank"]["fewer_details_than"] = round(cap, 4)
