"""The deterministic rule-based extractor used when no LLM endpoint is configured.

Reads user turns only (assistant turns serve as context for short answers; tool turns are only
checked for planted instructions), sentence by sentence and clause by clause:
1. a clause holding a secret is dropped and counted, never turned into a memory;
2. instruction-like text becomes one flagged note so the writer quarantines it for review;
3. "remember for bob that …" / "帮bob记住…" is about another user's scope: dropped and counted;
4. questions, hypotheticals ("if I lived in Paris", "我想搬到上海") and quoted speech yield nothing;
5. first-person rules (rules_en, rules_zh) produce keyed items; "remember that X" with no rule
   match becomes a free-form note.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from layers.formation.extractor import attrs as A
from layers.formation.extractor import learned, rules_en, rules_zh
from layers.formation.extractor.followups import Referent, follow_up_candidates, referents_in, said_of_referent
from layers.formation.extractor.guard import guard_items
from layers.formation.extractor.keys import render_content, spec_for
from layers.formation.extractor.rules_en import Candidate
from layers.formation.extractor.rules_zh import cantonese
from layers.formation.extractor.text import (
    CORRECTION_MARK,
    CodeSwitched,
    blank_quotes,
    drop_question_part,
    drop_request_part,
    is_cjk,
    is_hypothetical,
    is_past_state,
    is_question,
    is_request,
    is_sarcastic,
    is_vague_wish,
    split_clauses,
    split_sentences,
    starts_conditional,
    strip_lead_in,
    tidy_value,
)
from layers.formation.extractor.types import (
    DROP_OTHER_USER,
    DROP_SECRET,
    ExtractedItem,
    ExtractionResult,
    TranscriptTurn,
    as_transcript_turns,
)
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import contains_secret

EXTRACTOR_NAME = "offline-rules"
EXTRACTOR_VERSION = "1"

_REMEMBER_FOR_OTHER = re.compile(
    r"\b(?:remember|note|save|store|memori[sz]e|keep)\b(?:\s+(?:this|that|it))?\s+(?:for|on\s+behalf\s+of)\s+(?!me\b|myself\b|us\b|later\b|now\b|next\b)\w+"
    r"|\b(?:tell|remind)\s+(?!me\b)\w+\s+(?:that|to)\b"
    r"|(?:帮|替|给|为)(?!我)[\w\u4e00-\u9fff]{1,10}?(?:记住|记下|记一下|记着|保存|存一下)", re.IGNORECASE)
_REMEMBER_SELF = re.compile(
    r"^(?:please\s+)?(?:remember|note|keep\s+in\s+mind|don't\s+forget|do\s+not\s+forget)(?:\s+that)?[\s:,]+(?P<rest>.+)$"
    r"|^(?:请|麻烦)?(?:你)?(?:帮我)?(?:记住|记下|记一下|记着|记得)(?:一下)?(?:吧)?[:：,，\s]*(?P<rest_zh>.+)$",
    re.IGNORECASE)
_ASKED_CITY = re.compile(r"where do you live|which city|你住(?:在)?哪|哪个城市|你在哪个城市", re.IGNORECASE)
_ASKED_NAME = re.compile(r"what(?:'s| is) your name|how should i call you|你叫什么|怎么称呼|您贵姓", re.IGNORECASE)


def _lang(text: str) -> str:
    return "zh" if is_cjk(text) else "en"


def _overlaps(a: Candidate, b: Candidate) -> bool:
    x, y = a.value.casefold(), b.value.casefold()
    return a.memory_key == b.memory_key and (x in y or y in x)


def _other_script_name(a: Candidate, b: Candidate) -> bool:
    """"my name is Kevin, 中文名叫李凯": an English and a Chinese name are two facts (FACTS.md), not two
    readings of one."""
    return a.memory_key == b.memory_key == "user.name" and is_cjk(a.value) != is_cjk(b.value)


def _match(clause: str, *, past: bool = False) -> list[Candidate]:
    """The fact families first (they carry attributes), then the older sentence rules for what the
    families did not already say. In a past-state clause ("以前在百度干了四年", "used to live in
    Madrid") only facts that stay true of the past are kept: a former employer, a hometown, a
    finished education."""
    # Written Cantonese ("我喺深圳返工") is read in Mandarin words of the same length, its values given back as written.
    mandarin = cantonese.as_mandarin(clause)
    switched = CodeSwitched(mandarin)
    # The Chinese rules read only a clause with Chinese in it: on a clause of English alone they misread
    # ("every week" as a habit, "a little Greek" as fluent) and their reading would take the English one's place.
    chinese = is_cjk(switched.text)
    zh_found = [_as_written(c, switched, clause) for c in rules_zh.zh_fact_candidates(switched.text)] if chinese else []
    zh_matched = [_as_written(c, switched, clause) for c in rules_zh.match_clause(switched.text)] if chinese else []
    found = rules_en.en_fact_candidates(clause) + zh_found
    for candidate in rules_en.match_clause(clause) + zh_matched:
        if not any(_overlaps(candidate, other) or (candidate.memory_key == other.memory_key
                   and candidate.memory_key in _ONE_PER_CLAUSE and not _other_script_name(candidate, other)) for other in found):
            found.append(candidate)
    found = _merge_people(_contained_once(found))
    # "I prefer texts" / "我比较喜欢打电话沟通" is how to reach the user, not a taste; "I quit my job
    # at Google" names a former employer, not the current one.
    channels = [c.value.casefold() for c in found if c.memory_key == "user.contact_preference"]
    former = {c.value.casefold() for c in found if c.memory_key == "user.former_employer"}
    found = [c for c in found if not (c.memory_key == "user.likes" and any(ch in c.value.casefold() for ch in channels))
             and not (c.memory_key == "user.employer" and c.value.casefold() in former)
             # Being a student is education (FACTS.md), not an occupation.
             and not (c.memory_key == "user.occupation" and re.search(r"(?i)的|(?:学生|研究生|博士生|本科生|大学生)$|\bstudents?$|\bundergrad$|\bfreshman$|\bsophomore$", c.value))]
    homes = {c.value for c in found if c.memory_key == "user.home_city"}
    unique: list[Candidate] = []
    for candidate in found:
        # "moved to Seattle two years ago" still lives there (unless "used to" / 以前 says otherwise).
        moved_here = candidate.memory_key == "user.home_city" and _MOVED.search(clause) and not _NOT_NOW.search(clause)
        if past and candidate.memory_key not in _PAST_SAFE and not candidate.memory_key.startswith(_PAST_SAFE_PREFIXES) \
                and not moved_here \
                and not rules_zh.said_in_present(candidate.value, clause) and not rules_en.said_in_present(candidate.value, clause):
            continue
        # FACTS.md: a work city is worth keeping only where it differs from home.
        if candidate.memory_key == "user.work_city" and candidate.value in homes:
            continue
        # A colleague, boss or roommate is the user's fact only when named (else "my coworker
        # says…" would make one of every passing mention).
        if candidate.memory_key.rsplit(".", 1)[-1] in _NAMED_ONLY and candidate.memory_key.startswith("user.relationship") \
                and not candidate.value:
            continue
        if not any(c.memory_key == candidate.memory_key and c.value.casefold() == candidate.value.casefold() for c in unique):
            unique.append(candidate)
    return unique


def _as_written(candidate: Candidate, switched: CodeSwitched, clause: str) -> Candidate:
    """A Chinese-rule candidate read from a code-switched or Cantonese clause, its value and attributes in the user's words."""
    if switched.text == switched.clause == clause:
        return candidate

    def said(value):
        return cantonese.as_said(switched.original(value), switched.clause, clause)

    return Candidate(candidate.memory_key, said(candidate.value), candidate.confidence,
                     {name: said(value) for name, value in candidate.attributes.items()})


def _contained_once(found: list[Candidate]) -> list[Candidate]:
    """One fact read twice in a clause, the second reading inside the first ("周末去gym" by the Chinese
    rules, "gym" by the English ones in a code-switched clause): kept once, whatever the key, as the
    reading with more attributes (the longer on a tie), taking the other's attributes it lacks. People
    and pets are joined by `_merge_people`; an English and a Chinese name are two facts."""
    out: list[Candidate] = []
    for candidate in found:
        if candidate.memory_key.startswith(("user.relationship.", "user.pet.")) or not candidate.value:
            out.append(candidate)
            continue
        twin = next((i for i, c in enumerate(out) if c.value and _overlaps(c, candidate) and not _other_script_name(c, candidate)), None)
        if twin is None:
            out.append(candidate)
            continue
        other = out[twin]
        keep, drop = sorted((other, candidate), key=lambda c: (len(c.attributes), len(c.value)), reverse=True)
        out[twin] = Candidate(keep.memory_key, keep.value, max(keep.confidence, drop.confidence), {**drop.attributes, **keep.attributes})
    return out


_NAMED_ONLY = {"colleague", "boss", "roommate"}
_MOVED = re.compile(r"(?i)\b(?:moved|relocated)\s+(?:back\s+)?(?:down\s+|up\s+|out\s+)?(?:here\s+)?to\b|搬到|搬来|搬回|搬去")
_NOT_NOW = re.compile(r"(?i)\bused\s+to\b|\bthen\s+moved\b|\bafter\s+that\b|以前|之前|后来又")


def _merge_people(found: list[Candidate]) -> list[Candidate]:
    """"My rabbit Thumper is a Holland Lop" read twice (named, and as a breed): one pet, attributes
    joined. An unnamed mention folds into a named one of the same role in the same clause."""
    out: list[Candidate] = []
    for candidate in found:
        if not candidate.memory_key.startswith(("user.relationship.", "user.pet.")):
            out.append(candidate)
            continue
        twin = next((i for i, c in enumerate(out) if c.memory_key == candidate.memory_key
                     and (not c.value or not candidate.value or c.value == candidate.value)), None)
        if twin is None:
            out.append(candidate)
            continue
        other = out[twin]
        named = candidate if candidate.value and not other.value else other
        rest = other if named is candidate else candidate
        out[twin] = Candidate(named.memory_key, named.value, max(named.confidence, rest.confidence),
                              {**rest.attributes, **named.attributes})
    return out


_ONE_PER_CLAUSE = {"user.plan", "user.name", "user.age", "user.birthday", "user.home_city", "user.employer", "user.occupation"}
# Facts a past-tense clause still states truly: where one worked and grew up, what one studied
# ("graduated from UCLA in 2018"), when one married ("got married in June 2015"), and who one's people
# are ("I married my husband Tom in 2015", "my dad used to take me fishing").
_PAST_SAFE = {"user.former_employer", "user.hometown", "user.education", "user.anniversary", "user.birthday"}
_PAST_SAFE_PREFIXES = ("user.relationship.",)


def _item(candidate: Candidate, *, seq: int, clause: str) -> ExtractedItem:
    spec = spec_for(candidate.memory_key)
    lang = _lang(candidate.value) if is_cjk(candidate.value) else _lang(clause)
    attributes = {"lang": lang, **candidate.attributes}
    if CORRECTION_MARK.search(clause) and candidate.memory_key != "user.plan":
        attributes["correction"] = True
    entities = [candidate.value]
    if candidate.memory_key.count(".") >= 2:
        entities.append(candidate.memory_key.rsplit(".", 1)[-1])
    # Entities are the places, organisations and people a fact is about, never its time words
    # ("下个月要去北京出差" is about 北京, not 下个月).
    for name in ("destination", "school"):
        if attributes.get(name):
            entities.append(str(attributes[name]))
    if candidate.memory_key == "user.plan":
        entities = [e for e in entities[1:] if e] or ([candidate.value] if candidate.value else [])
    return ExtractedItem(
        kind=spec.kind, memory_key=candidate.memory_key, value=candidate.value,
        content=render_content(candidate.memory_key, candidate.value, lang=lang, attributes=candidate.attributes),
        entities=tuple(dict.fromkeys(e for e in entities if e)), confidence=candidate.confidence,
        importance=spec.importance, source_turn_seq=seq, attributes=attributes)


def _note(text: str, *, seq: int, reasons: Iterable[str] = (), origin: str = "user") -> ExtractedItem:
    """A keyless item: a note the user asked to keep, or (with reasons) a flagged instruction,
    whose content is the flagged text verbatim so reviewers see exactly what was said."""
    reasons = tuple(reasons)
    text = text.strip()[:1000]
    note = not reasons
    return ExtractedItem(
        kind="fact", memory_key=None, value=text if note else None,
        content=render_content(None, text, lang=_lang(text)) if note else text, entities=(),
        confidence=1.0 if origin == "user" and not reasons else 0.5,
        importance=0.6 if not reasons else 0.1, source_turn_seq=seq,
        attributes={"lang": _lang(text), "origin": origin, **({"note": True} if not reasons else {})},
        injection_reasons=reasons)


def _answer_to_question(turn: TranscriptTurn, asked: str | None) -> list[ExtractedItem]:
    """A bare answer ("Berlin." / "上海") to the assistant's "where do you live?"."""
    if not asked:
        return []
    reply = tidy_value(strip_lead_in(split_sentences(turn.content)[0] if turn.content.strip() else ""))
    if not reply or is_question(turn.content) or re.search(r"[不没]|\b(?:not|no)\b", reply, re.I):
        return []
    if is_cjk(reply):
        ok = re.fullmatch(r"[\u4e00-\u9fff]{2,6}", reply) is not None
    else:
        ok = re.fullmatch(r"[A-Z][a-zA-Z'-]+(?:\s[A-Z][a-zA-Z'-]+){0,2}", reply) is not None
    if not ok:
        return []
    key = "user.home_city" if asked == "city" else "user.name"
    if asked == "city" and is_cjk(reply):
        reply = rules_zh._place(reply) or ""
    if not reply:
        return []
    return [_item(Candidate(key, reply, 0.8, {"inferred": "answer"}), seq=turn.seq, clause=reply)]


# "I have a cat. Her name's Mochi." / "猫主子…，它叫大橘": the name comes in a sentence of its own.
_LATER_NAME = re.compile(
    r"\b(?i:her|his|its|their)\s+(?i:name)(?:'s|\s+(?i:is))\s+(?P<en>[A-Z][a-zà-ÿ'-]+)|\b(?i:calling|call|named|called|naming)\s+"
    r"(?i:her|him|it)\s+(?P<en2>[A-Z][a-zà-ÿ'-]+)|"
    # "She's called Hannah", "He's an African grey called Kiwi", "Named him Clover".
    r"(?:^|[.!?]\s+)(?i:she's|he's|it's|she\s+is|he\s+is|it\s+is)\s+(?:(?i:an?)\s+(?:[\w-]+\s+){0,3})?(?i:called|named)\s+(?P<en3>[A-Z][a-zà-ÿ'-]+)|(?:^|[.!?]\s+)(?i:named|called)\s+(?i:her|him|it)\s+(?P<en4>[A-Z][a-zà-ÿ'-]+)|(?:^|[，,。！!\s])(?:它|牠)(?:的名字)?叫(?P<zh>[\u4e00-\u9fff]{1,3}|[A-Z][a-z]+)")


_LATER_AGE = re.compile(
    r"(?i)\b(?:she's|he's|she\s+is|he\s+is|it's|they're|both)\s+(?P<n>\d{1,2}|[a-z]+(?:-[a-z]+)?)(?:\s+(?:years?\s+old|yrs?\s+old|y/o))?(?=\s*(?:$|[,.!;]|\s+(?:now|this\s+year)\b))")


_LATER_NAMES = re.compile(
    r"(?:^|[.!?]\s+)(?:(?i:they're|they\s+are)\s+(?i:called|named)|(?i:their\s+names\s+are|their\s+names\s+r))\s+"
    r"(?P<names>[A-Z][a-zà-ÿ'-]+(?:\s*,\s*[A-Z][a-zà-ÿ'-]+)*\s*(?:,?\s*(?i:and)|&)\s*[A-Z][a-zà-ÿ'-]+)")
_SENTENCE_AGE = re.compile(
    r"(?:^|[.!?]\s+)(?i:she's|he's|she\s+is|he\s+is)\s+(?P<n>\d{1,2}|[a-z]+(?:-[a-z]+)?)(?:\s+(?:years?\s+old|yrs?\s+old|y/o))?"
    r"(?=\s*(?:$|[,.!;]|\s+(?i:now|this\s+year|and|but|today)\b))")


def _name_across_sentences(items: list[ExtractedItem], turn: TranscriptTurn) -> list[ExtractedItem]:
    """One animal or person said twice in a turn is one memory: an unnamed mention takes the name
    given later in the turn, or folds into a named mention of the same key."""
    people = [i for i in items if (i.memory_key or "").startswith(("user.pet.", "user.relationship."))]
    named = {i.memory_key for i in people if i.value}
    unnamed = sum(1 for i in people if not i.value)
    if not people:
        return items
    # What the turn says of a name or an age is the same for every item: read it once.
    text = turn.content
    later = _LATER_NAME.search(text)
    later_name = later and (later.group("en") or later.group("en2") or later.group("en3") or later.group("en4") or later.group("zh"))
    later_age = _LATER_AGE.search(text, later.start()) if later else None
    several = _LATER_NAMES.search(text) if unnamed == 1 else None
    # Several names only for a mention that counted several ("two kids", "twins"), never for "a son".
    if several and not re.search(r"(?i)\b(?:two|three|four|five|[2-5]|twins|triplets|a\s+couple\s+of)\b", text[:several.start()]):
        several = None
    both = re.match(r"(?i)\s*,?\s*(?:both|each)\s+(?P<n>\d{1,2}|[a-z]+)\b", text[several.end():]) if several else None
    aged = _SENTENCE_AGE.search(text) if len(people) == 1 else None
    # The rest a later he / she sentence says of the one person (not of a pet: "it" is no person).
    later_attributes = rules_en.attributes_said_later(text, 0) if len(people) == 1 and people[0].memory_key.startswith("user.relationship.") else {}
    if len(people) == 1 and people[0].memory_key.startswith("user.pet.") and (breed := rules_en.breed_said_later(text)):
        later_attributes = {"breed": breed}
    out = []
    for item in items:
        key = item.memory_key or ""
        if key.startswith(("user.pet.", "user.relationship.")) and not item.value:
            if key in named:
                continue
            # A person takes a later name only when the turn introduces one unnamed person or pet, so
            # "I've got a younger brother. His name is Arjun" cannot hand the name to someone else.
            name = later_name if key.startswith("user.pet.") or unnamed == 1 else None
            if several:
                # "I have two kids. They're called Leo and Max, both 3.": one memory per name, the shared age on each.
                attributes = {k: v for k, v in item.attributes.items() if k != "lang"}
                if both and "age" not in attributes and (years := A.plausible_age(A.en_int(both.group("n")))) is not None:
                    attributes["age"] = years
                for each in re.split(r"\s*(?:,|\band\b|&)\s*", several.group("names")):
                    if each:
                        out.append(_item(Candidate(key, each, item.confidence, attributes), seq=item.source_turn_seq, clause=text))
                continue
            if name:
                attributes = {k: v for k, v in item.attributes.items() if k != "lang"}
                # "…called Biscuit and he's 4." / "Named him Clover, he's two.": the age said with the name.
                if later_age and "age" not in attributes and (years := A.plausible_age(A.en_int(later_age.group("n")))) is not None:
                    attributes["age"] = years
                item = _item(Candidate(key, name, item.confidence, attributes), seq=item.source_turn_seq, clause=text)
        # "Talked to my mum today. She's 71 and …": the one person or pet of the turn, aged in a sentence of its own.
        if aged and key.startswith(("user.pet.", "user.relationship.")) and "age" not in item.attributes \
                and (years := A.plausible_age(A.en_int(aged.group("n")))) is not None:
            attributes = {k: v for k, v in item.attributes.items() if k != "lang"}
            item = _item(Candidate(key, item.value, item.confidence, {**attributes, "age": years}), seq=item.source_turn_seq, clause=text)
        missing = {k: v for k, v in later_attributes.items() if k not in item.attributes} if key.startswith(("user.relationship.", "user.pet.")) else {}
        if missing:
            attributes = {k: v for k, v in item.attributes.items() if k != "lang"}
            item = _item(Candidate(key, item.value, item.confidence, {**attributes, **missing}), seq=item.source_turn_seq, clause=text)
        out.append(item)
    return out


def _education_beside(items: list[ExtractedItem], sentence: str) -> list[ExtractedItem]:
    """The one school of a Chinese sentence takes the year of study and major said in its other clauses
    ("我们学校是川大，我大三，学法学的"); what the school's own clause said is kept."""
    schools = [i for i in items if i.memory_key == "user.education"]
    if not is_cjk(sentence):
        return items
    # "学校是南开，我研二": a programme said in another clause than the one named school is that school's.
    programmes = [i for i in schools if rules_zh.is_programme(i.value)]
    named = [i for i in schools if i not in programmes]
    if len(named) == 1 and programmes:
        school = named[0]
        attributes = {k: v for k, v in school.attributes.items() if k != "lang"}
        for programme in programmes:
            said = {k: v for k, v in programme.attributes.items() if k != "lang"}
            said.setdefault("degree", programme.value if not re.search(r"[一二三]$|自考", programme.value) else None)
            attributes.update({k: v for k, v in said.items() if v and not attributes.get(k)})
        grown = _item(Candidate(school.memory_key, school.value, school.confidence, attributes), seq=school.source_turn_seq, clause=sentence)
        items = [grown if i is school else i for i in items if i not in programmes]
        schools = [grown]
    if len(schools) != 1:
        return items
    missing = {k: v for k, v in rules_zh.education_attrs_beside(sentence).items() if not schools[0].attributes.get(k)}
    if "field" in missing and schools[0].value and (missing["field"] in schools[0].value or schools[0].value in missing["field"]):
        missing.pop("field")
    if not missing:
        return items
    item = schools[0]
    attributes = {k: v for k, v in item.attributes.items() if k != "lang"}
    grown = _item(Candidate(item.memory_key, item.value, item.confidence, {**attributes, **missing}), seq=item.source_turn_seq, clause=sentence)
    return [grown if i is item else i for i in items]


# "Do you know good ramen in Vancouver? I just relocated here", "hi from Nairobi 👋 I live here", "asking
# because that's where I'm moving in September": here / there stands for the place the turn named before.
_PLACE_SAID = re.compile(r"\b(?:in|to|at|from|around|near|visiting)\s+(?P<p>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})")
_NOT_A_PLACE = re.compile(r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|"
                          r"August|September|October|November|December|I|The|My|Christmas|Easter)\b")
_HERE_THERE = (
    (re.compile(r"(?i)\b(relocated|moved|moving|relocating|heading|flying|going|coming)\s+(?:back\s+)?(?:here|there)\b"), r"\1 to {place}"),
    (re.compile(r"(?i)\b(live|living|based|settled)\s+(?:here|there)\b"), r"\1 in {place}"),
    (re.compile(r"(?i)\bthat's\s+where\s+(i'm|i\s+am|we're|we\s+are)\s+(moving|going|heading|flying|relocating)\b"), r"\1 \2 to {place}"),
)


def _place_before(text: str) -> str | None:
    places = [m.group("p") for m in _PLACE_SAID.finditer(text) if not _NOT_A_PLACE.match(m.group("p"))]
    return places[-1] if places else None


def _here_is(sentence: str, place: str | None) -> str:
    if not place or is_cjk(sentence):
        return sentence
    for pattern, replacement in _HERE_THERE:
        sentence = pattern.sub(replacement.format(place=place), sentence)
    return sentence


# "My job? Paramedic.", "Where am I based? Manchester, but…", "favourite band? Radiohead, always": the user asks
# the question about themself and answers it; read as the statement it makes.
_SELF_QUESTIONS = (
    (re.compile(r"(?i)^(?:my\s+)?(?:job|work|occupation|profession|role)\?$"), "I'm a {answer}"),
    (re.compile(r"(?i)^where\s+am\s+i\s+(?:based|living)\?$"), "I'm based in {answer}"),
    (re.compile(r"(?i)^where\s+(?:am\s+i|do\s+i\s+come)\s+from\?$"), "I'm from {answer}"),
    (re.compile(r"(?i)^(?:my\s+)?(?P<what>(?:fave|favourite|favorite)\s+[a-z]+(?:\s+[a-z]+)?)\?$"), "my {what} is {answer}"),
)


def _self_answered(sentences: list[str]) -> list[str]:
    out, index = [], 0
    while index < len(sentences):
        sentence = sentences[index]
        pattern = next(((p, template) for p, template in _SELF_QUESTIONS if p.match(sentence.strip())), None) \
            if index + 1 < len(sentences) and not is_cjk(sentence) else None
        if pattern:
            match = pattern[0].match(sentence.strip())
            answer = sentences[index + 1].strip()
            if pattern[1].startswith("I'm a "):
                answer = answer[:1].lower() + answer[1:]  # "Paramedic." is the role, capitalised as a sentence
            out.append(pattern[1].format(answer=answer, what=match.groupdict().get("what") or ""))
            index += 2
            continue
        out.append(sentence)
        index += 1
    return out


_SENTENCE_PART = re.compile(r"(?<=[,;—–])\s*|\s+(?=[—–]\s)")


def _people_asked_about(question: str, *, seq: int) -> list[ExtractedItem]:
    """A question asks nothing of the user, but the people and pets it names are theirs: "How do I tell
    my roommate Theo to stop eating my yogurt?", "what should I feed my rabbit in winter?". Only a named
    person counts ("should I get my kid a hamster?" says no more than that there is a kid), and only a pet
    said to be the user's; a hypothetical question ("if my dog ate chocolate…") names no one."""
    out = []
    for clause in split_clauses(blank_quotes(question)):
        core = strip_lead_in(clause)
        if not core or starts_conditional(core) or is_hypothetical(core) or not re.search(r"(?i)\b(?:my|our|mine)\b", core):
            continue
        for candidate in _match(core):
            if (candidate.memory_key.startswith("user.relationship.") and candidate.value) or candidate.memory_key.startswith("user.pet."):
                out.append(_item(candidate, seq=seq, clause=core))
    return out


def _learned_items(items: list[ExtractedItem], clauses: list[tuple[str, bool]], *, seq: int) -> list[ExtractedItem]:
    """The learned back-up (learned.py): in the clauses the rules accepted (with whether each states a
    past), the tagged value spans of the families the rules left empty in the turn, each the user's own
    asserted fact (`learned.span_is_users`), none a value the rules already read under another key. In a
    past-state clause only what stays true of the past is kept, as for the rules."""
    def family(key: str | None) -> str:
        return (key or "").split(".")[1] if key and "." in key else ""

    said = {family(i.memory_key) for i in items if i.memory_key}
    values = [(i.value or "").casefold() for i in items if i.value]
    out: list[ExtractedItem] = []
    for clause, past in clauses:
        for span in learned.tag(clause):
            value = span.value.casefold()
            if span.key not in learned.backup_keys() or family(span.key) in said or any(value in v or v in value for v in values) \
                    or ((past or learned.says_past(clause)) and span.key not in _PAST_SAFE) or not learned.span_is_users(clause, span):
                continue
            out.append(_item(Candidate(span.key, span.value, round(0.6 * span.probability, 3), {"learned": True}), seq=seq, clause=clause))
            values.append(value)
    # One item per family from the back-up, the likeliest, as a rule's single reading would be.
    best: dict[str, ExtractedItem] = {}
    for item in out:
        name = item.memory_key
        if name not in best or item.confidence > best[name].confidence:
            best[name] = item
    return [i for i in out if best.get(i.memory_key) is i]


def _before_condition(core: str) -> str:
    """"我是腾讯的设计师，要是哪天辞职了就去开咖啡店": in Chinese a condition opening a later part takes
    that part and what follows it; the parts before it still say what is."""
    if not is_cjk(core) or not is_hypothetical(core):
        return core
    parts = re.split(r"(?<=[，,；;])", core)
    for index, part in enumerate(parts[1:], start=1):
        if starts_conditional(part.strip()):
            kept = "".join(parts[:index]).rstrip("，,；; ")
            return kept if kept and not is_hypothetical(kept) else core
    return core


def _user_turn(turn: TranscriptTurn, dropped: Counter, asked: str | None, backup: bool = False) -> list[ExtractedItem]:
    items: list[ExtractedItem] = []
    accepted: list[tuple[str, bool]] = []  # the clauses the rules read, for the learned back-up
    flagged: list[str] = []
    flagged_reasons: list[str] = []
    said = ""
    for sentence in _self_answered(split_sentences(turn.content)):
        place, said = _place_before(said + " " + sentence), said + " " + sentence
        sentence = _here_is(sentence, place)
        if not is_cjk(sentence):
            sentence = rules_en.allergen_first(sentence)
        reasons = injection_reasons(sentence)
        if reasons:
            if contains_secret(sentence):
                dropped[DROP_SECRET] += 1
            else:
                flagged.append(sentence)
                flagged_reasons.extend(reasons)
            continue
        if _REMEMBER_FOR_OTHER.search(sentence):
            dropped[DROP_OTHER_USER] += 1
            continue
        if is_request(sentence) and not _REMEMBER_SELF.match(strip_lead_in(sentence)):
            sentence = drop_request_part(sentence)
            if not sentence:
                continue
        if starts_conditional(sentence) or is_sarcastic(sentence):
            continue
        if is_vague_wish(sentence):
            # "I've been flexitarian for a while — meat maybe once a week": in English the wish or hedge takes
            # only its own part of the sentence; the parts without one still say what is.
            sentence = "" if is_cjk(sentence) else " ".join(
                part.strip() for part in _SENTENCE_PART.split(sentence) if part.strip() and not is_vague_wish(part)).strip(" ,;—–")
            if not sentence:
                continue
        kept = drop_question_part(sentence)
        if kept != sentence and not is_cjk(sentence):
            items.extend(_people_asked_about(sentence[len(kept):] if sentence.startswith(kept) else sentence, seq=turn.seq))
        sentence = kept
        if not sentence:
            continue
        body, explicit = sentence, False
        remember = _REMEMBER_SELF.match(strip_lead_in(sentence))
        if remember:
            body, explicit = (remember.group("rest") or remember.group("rest_zh")), True
        sentence_items: list[ExtractedItem] = []
        quoted = blank_quotes(body) != body
        for clause in split_clauses(blank_quotes(body)):
            if contains_secret(clause):
                dropped[DROP_SECRET] += 1
                continue
            core = _before_condition(strip_lead_in(clause))
            if not core or is_question(core) or is_hypothetical(core):
                continue
            if backup:
                accepted.append((core, is_past_state(core)))
            # Around a quotation the people named are its speakers ("my boss told me \"…\""), not facts.
            sentence_items.extend(_item(c, seq=turn.seq, clause=core) for c in _match(core, past=is_past_state(core))
                                  if not (quoted and c.memory_key.startswith("user.relationship") and not c.value))
        sentence_items = _education_beside(sentence_items, body)
        if explicit and not sentence_items and not contains_secret(body) and not is_question(body):
            sentence_items.append(_note(tidy_value(body), seq=turn.seq))
        items.extend(sentence_items)
    items = _name_across_sentences(items, turn)
    if backup and accepted:
        items.extend(_learned_items(items, accepted, seq=turn.seq))
    if flagged:
        # One quarantined note per turn, holding every flagged sentence, for staff review.
        items.append(_note(" ".join(flagged), seq=turn.seq, reasons=dict.fromkeys(flagged_reasons)))
    if not items:
        items.extend(_answer_to_question(turn, asked))
    return items


def _follow_up(turn: TranscriptTurn, items: list[ExtractedItem], referents: list[Referent]) -> list[ExtractedItem]:
    """A turn that names no person or pet of its own may go on about one an earlier turn introduced
    (layers/formation/extractor/followups.py)."""
    if not referents or any((i.memory_key or "").startswith(("user.relationship.", "user.pet.")) for i in items):
        return items
    candidates, about = follow_up_candidates(turn.content, referents)
    if not about:
        return items
    kept = [i for i in items if not said_of_referent(i, about)]
    return kept + [_item(c, seq=turn.seq, clause=turn.content) for c in candidates]


_JOB_CHANGE_SAID = re.compile(r"换了?(?:个|份)?(?:新)?工作|跳槽了|离职了|辞职了|(?i:\b(?:changed|switched)\s+jobs\b|\bnew\s+job\b)")


def _next_job(turn: TranscriptTurn, items: list[ExtractedItem], changed_job: bool) -> list[ExtractedItem]:
    """"我换工作了" then "去了京东物流" / "去 Stripe 了！": the turn after a job change names the new employer
    the way a part after one does in the same clause (rules_zh.employment `_zb_next_job`)."""
    if not changed_job or not is_cjk(turn.content) or any(i.memory_key == "user.employer" for i in items):
        return items
    sentences = split_sentences(turn.content)
    first = strip_lead_in(sentences[0]) if sentences else ""
    if not first or is_question(first) or is_hypothetical(first):
        return items
    jobs = [c for c in _match("我换了工作，" + first) if c.memory_key in ("user.employer", "user.work_city")]
    return items + [_item(c, seq=turn.seq, clause=first) for c in jobs]


def extract_memories(turns: Iterable[Any], *, user_id: str | None = None, learned_backup: bool | None = None) -> ExtractionResult:
    """Candidate memories from `turns` (Turn rows, mappings or TranscriptTurns), deterministic.

    `learned_backup` runs the learned recall back-up (learned.py) after the rules; None takes the formation
    policy's code default (`FormationPolicy.learned_backup`).

    Items are ordered by turn and de-duplicated (same key and value once, the first mention kept);
    every item has passed `guard_items`. `covers_up_to` is the highest seq looked at.
    """
    transcript = as_transcript_turns(turns)
    dropped: Counter = Counter()
    items: list[ExtractedItem] = []
    asked: str | None = None
    # The people and pets earlier user turns introduced, for a later "大的叫毛毛" / "his name is Rex".
    referents: list[Referent] = []
    changed_job = False  # whether the last user turn told of a job change ("我换工作了", "guess what, new job")
    backup = learned.backup_on(learned_backup) and learned.model_available()
    for turn in transcript:
        role = turn.role.lower()
        if role == "assistant":
            asked = "city" if _ASKED_CITY.search(turn.content) else "name" if _ASKED_NAME.search(turn.content) else None
            continue
        if role == "user":
            # A context turn is read for its referents only: its items and drops belong to an earlier run.
            found = _user_turn(turn, Counter() if turn.context else dropped, asked, backup=backup and not turn.context)
            found = _follow_up(turn, found, referents)
            found = _next_job(turn, found, changed_job)
            referents.extend(referents_in(found, turn.content))
            changed_job = _JOB_CHANGE_SAID.search(turn.content) is not None
            if not turn.context:
                items.extend(found)
        elif turn.context:
            pass
        elif role in ("tool", "function", "system"):
            # Tool output is not the user speaking; it only matters when it tries to plant instructions.
            reasons = injection_reasons(turn.content)
            if reasons and not contains_secret(turn.content):
                items.append(_note(turn.content, seq=turn.seq, reasons=reasons, origin=role))
        asked = None
    unique: list[ExtractedItem] = []
    seen: set[tuple] = set()
    for item in items:
        identity = (item.memory_key, (item.value or item.content).casefold(), item.injection_reasons)
        if identity not in seen:
            seen.add(identity)
            unique.append(item)
    kept, guard_dropped = guard_items(unique, user_id=user_id)
    dropped.update(guard_dropped)
    return ExtractionResult(
        items=kept, dropped=dropped, extractor=EXTRACTOR_NAME, extractor_version=EXTRACTOR_VERSION,
        covers_up_to=transcript[-1].seq if transcript else None)
