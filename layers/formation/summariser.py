"""Deterministic extractive summariser for session windows (Chinese and English, no model).

Public interface for the summarisation job:

    summarise_turns(previous_summary, turns, *, max_tokens=300, language=None) -> SummaryResult
    SummaryResult(content, token_count, covers_up_to, summariser, facts, decisions,
                  open_questions, mood, dropped)
    SUMMARISER_NAME, SUMMARISER_VERSION; SummaryResult.summariser == "offline-extractive@1"

Incremental: pass the latest `SessionSummary.content` and only the turns after its `covers_up_to`;
the result merges both. Pass `previous_summary=None` to summarise one evicted span on its own (the
`episode` memory for that span). Like the LLM prompt (layers/formation/prompts.py), it keeps
1. facts and preferences the user stated (via the extractor; a new home city replaces the old line),
2. confirmed decisions, 3. questions still open, 4. the user's mood and how it changed, and ignores
greetings, thanks and chatter. Secrets and instruction-like text never reach a summary (they are
counted in `dropped`). The content fits `max_tokens` by `memoryhub.providers.tokens.count_tokens`:
when it does not, open questions go first, then decisions, then mood, then the least important facts.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from layers.formation.extractor import (
    DROP_SECRET,
    TranscriptTurn,
    as_transcript_turns,
    extract_memories,
)
from layers.formation.extractor.text import (
    is_cjk,
    is_question,
    split_sentences,
    strip_lead_in,
    tidy_value,
)
from memoryhub.providers.tokens import count_tokens, truncate_to_tokens
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import mentions_secret

SUMMARISER_NAME = "offline-extractive"
SUMMARISER_VERSION = "1"
MAX_LINE_CHARS = 160

HEADERS = {
    "en": {"facts": "Facts and preferences:", "decisions": "Decisions:", "open_questions": "Open questions:",
           "mood": "Mood:"},
    "zh": {"facts": "事实与偏好：", "decisions": "已确认的决定：", "open_questions": "未解决的问题：", "mood": "情绪："},
}
ROLE_LABEL = {"en": {"user": "User", "assistant": "Assistant"}, "zh": {"user": "用户", "assistant": "助手"}}

# Lines about these facts are replaced, not accumulated, when the user states a new value.
REPLACEABLE_FACTS = {
    "user.home_city": (r"^User lives in .+\.$", r"^用户住在.+。$"),
    "user.name": (r"^User's name is .+\.$", r"^用户的名字是.+。$"),
    "user.work_city": (r"^User works in .+\.$", r"^用户在.+工作。$"),
    "user.employer": (r"^User works at .+\.$", r"^用户在.+工作。$"),
    "user.occupation": (r"^User works as .+\.$", r"^用户的职业是.+。$"),
}

_DECISION = re.compile(
    r"\b(?:let's go with|let's do|(?:we|i)(?:'ve| have)? decided|i'll take|i'll go with|go with|confirmed|"
    r"booked|i choose|i'll choose|agreed|it's a deal|deal\b|please book|book it|i'll buy|order placed|"
    r"reservation (?:is )?confirmed|we'll use|i'll use|settled on)"
    r"|决定|确定了|就这么定|就选|就订|订好了|已预订|已经预订|已确认|确认了|就这个|成交|就要这个|那就(?:订|买|选|定|用)|已下单|说定了",
    re.IGNORECASE)
_UNCERTAIN = re.compile(
    r"\b(?:i don't know|not sure|i'll check|let me check|i can't|unable to|no idea|unclear|get back to you)\b"
    r"|不确定|不清楚|稍后|查一下|暂时无法|无法|不知道|回头告诉", re.IGNORECASE)
_SMALL_TALK_QUESTION = re.compile(
    r"^(?:how are you|how's it going|what's up|are you there|you there|really|right|ok|okay)\b"
    r"|^(?:你好吗|在吗|真的吗|是吗|好吗|对吗|行吗|怎么样了?)", re.IGNORECASE)
MOODS = [
    ("frustrated", "不满", re.compile(
        r"\b(?:frustrat\w*|annoy\w*|angry|furious|ridiculous|unacceptable|terrible|awful|fed up|waste of time)\b|!!+"
        r"|着急|生气|气死|太慢了|离谱|无语|不满|烦死|烦人|投诉", re.IGNORECASE)),
    ("worried", "担心", re.compile(r"\b(?:worried|anxious|nervous|concerned|stressed|scared)\b|担心|焦虑|紧张|害怕",
                                 re.IGNORECASE)),
    ("disappointed", "失望", re.compile(r"\b(?:disappointed|sad|upset|let down)\b|失望|难过|伤心|遗憾", re.IGNORECASE)),
    ("satisfied", "满意", re.compile(
        r"\b(?:thank you so much|thanks a lot|perfect|awesome|great|love it|happy|glad|excellent|wonderful)\b"
        r"|太好了|满意|开心|高兴|太棒了|完美|非常感谢", re.IGNORECASE)),
]


@dataclass(frozen=True)
class SummaryResult:
    content: str
    token_count: int
    covers_up_to: int | None
    summariser: str
    facts: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    mood: tuple[str, ...] = ()  # the user's mood over time, oldest first
    dropped: Counter = field(default_factory=Counter)


@dataclass
class _Sections:
    facts: list[tuple[str, float]] = field(default_factory=list)  # (line, importance)
    decisions: list[str] = field(default_factory=list)
    open_questions: list[str] = field(default_factory=list)
    mood: list[str] = field(default_factory=list)


def _clip(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 1] + "…"


def _safe(line: str, dropped: Counter) -> bool:
    if mentions_secret(line):
        dropped[DROP_SECRET] += 1
        return False
    if injection_reasons(line):
        dropped["injection"] += 1
        return False
    return True


def parse_summary(text: str | None) -> _Sections:
    """Read a summary this module wrote (either language) back into its sections."""
    sections = _Sections()
    if not text:
        return sections
    current = None
    header_of = {h: name for lang in HEADERS.values() for name, h in lang.items()}
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        mood_header = next((h for h, name in header_of.items() if name == "mood" and line.startswith(h)), None)
        if mood_header:
            sections.mood = [m.strip() for m in line[len(mood_header):].split("→") if m.strip()]
            current = None
        elif line in header_of:
            current = header_of[line]
        elif line.startswith("- ") and current:
            item = line[2:].strip()
            if current == "facts":
                sections.facts.append((item, 0.95 if re.search(r"allergic|过敏|患有|User has ", item) else 0.5))
            else:
                getattr(sections, current).append(item)
    return sections


def _language(turns: list[TranscriptTurn], previous: str | None) -> str:
    user_text = " ".join(t.content for t in turns if t.role == "user")
    if user_text.strip():
        return "zh" if is_cjk(user_text) else "en"
    return "zh" if previous and is_cjk(previous) else "en"


def _mood_of(text: str, lang: str) -> str | None:
    for en_label, zh_label, pattern in MOODS:
        if pattern.search(text):
            return zh_label if lang == "zh" else en_label
    return None


def _translate_mood(label: str, lang: str) -> str:
    for en_label, zh_label, _ in MOODS:
        if label in (en_label, zh_label):
            return zh_label if lang == "zh" else en_label
    return label


def _content_words(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}
    cjk = re.sub(r"[^\u4e00-\u9fff]", "", text)
    return words | {cjk[i:i + 2] for i in range(len(cjk) - 1)}


def _merge(previous: _Sections, turns: list[TranscriptTurn], lang: str, dropped: Counter) -> _Sections:
    merged = _Sections(
        facts=[(line, weight) for line, weight in previous.facts if _safe(line, dropped)],
        decisions=[line for line in previous.decisions if _safe(line, dropped)],
        # A question carried over from before is closed once a later answer covers it.
        open_questions=[line for line in previous.open_questions if _safe(line, dropped) and not _answered(line, turns)],
        mood=[_translate_mood(m, lang) for m in previous.mood])

    extraction = extract_memories(turns)
    dropped[DROP_SECRET] += extraction.dropped.get(DROP_SECRET, 0)
    for item in extraction.items:
        if item.quarantine:
            dropped["injection"] += 1
            continue
        patterns = REPLACEABLE_FACTS.get(item.memory_key or "")
        if patterns:
            merged.facts = [(line, w) for line, w in merged.facts if not any(re.match(p, line) for p in patterns)]
        if item.content not in {line for line, _ in merged.facts}:
            merged.facts.append((_clip(item.content), item.importance))

    labels = ROLE_LABEL[lang]
    for index, turn in enumerate(turns):
        if turn.role not in ("user", "assistant"):
            continue
        separator = "：" if lang == "zh" else ": "
        for sentence in split_sentences(turn.content):
            if not tidy_value(sentence):
                continue
            if turn.role == "user" and is_question(sentence):
                if _SMALL_TALK_QUESTION.search(strip_lead_in(sentence)) or len(_content_words(sentence)) < 2:
                    continue
                if _safe(sentence, dropped) and not _answered(sentence, turns[index + 1:]):
                    merged.open_questions.append(_clip(sentence.strip()))
                continue
            if _DECISION.search(sentence) and _safe(sentence, dropped):
                line = _clip(f"{labels[turn.role]}{separator}{sentence.strip()}")
                if line not in merged.decisions:
                    merged.decisions.append(line)
        if turn.role == "user":
            mood = _mood_of(turn.content, lang)
            if mood and (not merged.mood or merged.mood[-1] != mood):
                merged.mood.append(mood)

    merged.open_questions = list(dict.fromkeys(merged.open_questions))
    merged.mood = merged.mood[-3:]
    return merged


def _answered(question: str, later: list[TranscriptTurn]) -> bool:
    words = _content_words(question)
    for turn in later:
        if turn.role != "assistant" or _UNCERTAIN.search(turn.content):
            continue
        if len(words & _content_words(turn.content)) >= min(2, len(words)):
            return True
    return False


def _render(sections: _Sections, lang: str) -> str:
    headers = HEADERS[lang]
    blocks = []
    for name in ("facts", "decisions", "open_questions"):
        lines = [line for line, _ in sections.facts] if name == "facts" else getattr(sections, name)
        if lines:
            blocks.append("\n".join([headers[name], *(f"- {line}" for line in lines)]))
    if sections.mood:
        blocks.append(f"{headers['mood']}{'' if lang == 'zh' else ' '}{' → '.join(sections.mood)}")
    return "\n".join(blocks)


def _fit(sections: _Sections, lang: str, max_tokens: int) -> str:
    content = _render(sections, lang)
    while content and count_tokens(content) > max_tokens:
        if sections.open_questions:
            sections.open_questions.pop(0)
        elif sections.decisions:
            sections.decisions.pop(0)
        elif sections.mood:
            sections.mood = []
        elif len(sections.facts) > 1:
            weakest = min(range(len(sections.facts)), key=lambda i: (sections.facts[i][1], i))
            sections.facts.pop(weakest)
        else:
            return truncate_to_tokens(content, max_tokens)
        content = _render(sections, lang)
    return content


def summarise_turns(previous_summary: str | None, turns: Iterable[Any], *, max_tokens: int = 300,
                    language: str | None = None) -> SummaryResult:
    """A new summary = `previous_summary` + what matters in `turns`, within `max_tokens`."""
    transcript = as_transcript_turns(turns)
    lang = language or _language(transcript, previous_summary)
    dropped: Counter = Counter()
    sections = _merge(parse_summary(previous_summary), transcript, lang, dropped)
    content = _fit(sections, lang, max_tokens)
    final = parse_summary(content)
    return SummaryResult(
        content=content, token_count=count_tokens(content),
        covers_up_to=transcript[-1].seq if transcript else None,
        summariser=f"{SUMMARISER_NAME}@{SUMMARISER_VERSION}",
        facts=tuple(line for line, _ in final.facts), decisions=tuple(final.decisions),
        open_questions=tuple(final.open_questions), mood=tuple(final.mood),
        dropped=+dropped)
