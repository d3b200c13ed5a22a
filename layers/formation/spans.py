"""Nothing said is lost: the user's own statements become `episode` memories over short spans of their
turns, whatever the extraction rules understood.

Extraction adds structure on top (keys, supersession); summaries compress long sessions. Spans are the
floor under both: a six-turn session that no rule understood still leaves what the user said
searchable, with provenance (session, turn range) and the date it was said. Only the user's turns are
spans (assistant and tool turns are context, not the user's words); small talk ("ok", "thanks!",
"哈哈好的") is not. Consecutive short turns join one span; a long turn is cut at sentence ends, so a span
stays short enough to rank well and to fit a context budget.

A reply keeps the question it answers: "Acme, as a designer" means nothing without "Where do you work
now?", so a span whose first turn answers an assistant question carries that question (its question
sentence only, not the assistant's other words, and never a secret or an instruction) beside the user's
words. The span's turn range stays the user's turns: the question is context, not their statement.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from layers.formation.extractor.text import is_cjk
from layers.formation.extractor.types import TranscriptTurn
from memoryhub.providers.tokens import count_tokens
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import mentions_secret

# The `extractor` every span memory records (the column tells spans from extracted memories).
SPAN_EXTRACTOR = "statement-spans@1"
SPAN_MAX_TOKENS = 80
# Turns shorter than this join their neighbours (a reply split over two messages is one thought).
SHORT_TURN_TOKENS = 12
# The question a reply keeps: the assistant turn's last question sentence, if no longer than this.
QUESTION_MAX_TOKENS = 30

_SMALL_TALK_WORDS = {
    # en
    "hi", "hey", "hello", "yo", "hiya", "morning", "evening", "night", "good", "gm", "gn", "ok", "okay", "k", "kk",
    "sure", "yes", "yeah", "yep", "yup", "no", "nope", "nah", "thanks", "thank", "you", "thx", "ty", "cheers",
    "great", "cool", "nice", "awesome", "perfect", "fine", "alright", "right", "lol", "haha", "hahaha", "lmao",
    "wow", "oh", "ah", "hmm", "hm", "um", "uh", "bye", "goodbye", "see", "later", "ya", "cya", "np", "welcome",
    "sounds", "got", "it", "gotcha", "indeed", "true", "exactly", "agreed", "please", "sorry", "oops", "wait",
    "so", "well", "and", "the", "a", "very", "much", "too", "again", "all", "to", "for", "that", "this", "is",
    "love", "amazing", "interesting", "really", "totally", "definitely", "absolutely", "same", "me", "what",
    "there", "everyone", "guys", "folks", "all", "mate", "buddy", "dear", "friend", "day", "afternoon", "talk",
    "soon", "take", "care", "have", "nice", "weekend", "lovely", "ha", "hehe", "xd", "omg", "yay", "hooray",
}
_SMALL_TALK_ZH = re.compile(
    r"^(?:(?:你好|您好|嗨|哈喽|早上好|早安|早|晚上好|晚安|下午好|中午好|好的?|好吧|好呀|好啊|行|可以|没问题|嗯+|哦+|噢|啊|呀|"
    r"哈+|呵呵|嘿嘿|谢谢(?:你|您)?|多谢|感谢|辛苦了|不客气|没事|没关系|对|是的?|对的|没错|收到|了解|明白了?|知道了|"
    r"再见|拜拜|回头见|好嘞|好滴|棒|太棒了|厉害|不错|真好|加油|嗯嗯|好好|OK|ok)"
    r"(?:[啊呀吧呢哦啦嘛了的～~]*))+$")
_SEPARATORS = re.compile(r"[\s,，.。!！?？~～、;；:：…\-—()（）\"'“”‘’]+")
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+")
_SENTENCE_END = re.compile(r"(?<=[。！？!?\n])|(?<=[.;；])\s+")
_QUESTION_END = re.compile(r"[?？][\s\"'”’)）]*$")
# Greetings and offers of help phrased as questions: they tell nothing about the reply.
_PHATIC_QUESTION = re.compile(
    r"what'?s up|wh?at'?s new|how (?:are|r) (?:you|u|things)|how(?:'s| is) it going|how have you been|how do you do|"
    r"you (?:ok|okay|alright)|(?:can|may|could) i help|anything else|what can i do for you|"
    r"你好吗|最近(?:怎么样|好吗|如何)|在吗|还好吗|(?:有什么|还有什么|需要什么).{0,4}(?:帮|需要)|能为你做什么", re.I)


def is_small_talk(text: str) -> bool:
    """Greetings, thanks, acknowledgements and laughter: nothing a later question could be about."""
    stripped = _EMOJI.sub(" ", text or "").strip()
    if not stripped:
        return True
    pieces = [piece for piece in _SEPARATORS.split(stripped) if piece]
    if not pieces:
        return True
    if all(piece.lower() in _SMALL_TALK_WORDS for piece in pieces):
        return True
    return all(_SMALL_TALK_ZH.match(piece) for piece in pieces)


def without_secrets(text: str) -> str:
    """`text` less every sentence that holds a secret or a redaction mark: no memory is about a password,
    not even that there was one (the extractor counts what it dropped)."""
    kept = [sentence for sentence in _SENTENCE_END.split(text or "") if sentence.strip() and not mentions_secret(sentence)]
    return "".join((" " if index and not is_cjk(sentence) else "") + sentence.strip() for index, sentence in enumerate(kept))


@dataclass(frozen=True)
class Span:
    turn_from: int
    turn_to: int
    text: str
    said_at: datetime | None
    # The assistant's question the span's first turn answers, or None.
    asked: str | None = None


def _chunks(text: str, limit: int) -> list[str]:
    """`text` cut at sentence ends into pieces of at most about `limit` tokens."""
    if count_tokens(text) <= limit:
        return [text]
    pieces, current = [], ""
    for sentence in (s.strip() for s in _SENTENCE_END.split(text)):
        if not sentence:
            continue
        joined = (current + ("" if is_cjk(sentence) else " ") + sentence) if current else sentence
        if current and count_tokens(joined) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = joined
    if current:
        pieces.append(current)
    return pieces


def question_in(text: str) -> str | None:
    """The last question sentence of an assistant turn, if it is short, holds no secret or instruction and
    asks more than how the user is, else None."""
    for sentence in reversed([s.strip() for s in _SENTENCE_END.split(text or "") if s.strip()]):
        if _QUESTION_END.search(sentence):
            if (count_tokens(sentence) > QUESTION_MAX_TOKENS or mentions_secret(sentence)
                    or _PHATIC_QUESTION.search(sentence) or injection_reasons(sentence)):
                return None
            return sentence
    return None


def user_spans(turns: list[TranscriptTurn], *, said_at: dict[int, datetime] | None = None) -> list[Span]:
    """Spans over the user's statements in `turns` (sorted by seq): consecutive short user turns joined,
    long ones cut, small talk left out; a span that answers the assistant turn right before it keeps that
    turn's question. `said_at` maps a seq to when it was said."""
    said_at = said_at or {}
    spans: list[Span] = []
    pending: list[TranscriptTurn] = []
    # Assistant turns by seq; a turn's question is read only when a span starts right after it (most
    # assistant turns precede no span, or one that joins an earlier turn), and at most once.
    assistant: dict[int, str] = {}
    questions: dict[int, str | None] = {}

    def asked_before(seq: int) -> str | None:
        if seq - 1 not in assistant:
            return None
        if seq - 1 not in questions:
            questions[seq - 1] = question_in(assistant[seq - 1])
        return questions[seq - 1]

    def flush():
        if pending:
            text = "".join((" " if index and not is_cjk(turn.content) else "") + turn.content.strip()
                           for index, turn in enumerate(pending))
            spans.append(Span(pending[0].seq, pending[-1].seq, text, said_at.get(pending[0].seq),
                              asked_before(pending[0].seq)))
            pending.clear()

    previous_seq = None
    for turn in turns:
        is_user = turn.role == "user"
        if turn.role == "assistant":
            assistant[turn.seq] = turn.content
        if not is_user or is_small_talk(turn.content):
            flush()
            previous_seq = turn.seq if is_user else previous_seq
            continue
        text = turn.content.strip()
        tokens = count_tokens(text)
        adjacent = previous_seq is not None and turn.seq == previous_seq + 1
        if pending and (not adjacent or tokens > SHORT_TURN_TOKENS
                        or count_tokens(" ".join(t.content for t in pending)) + tokens > SPAN_MAX_TOKENS):
            flush()
        if tokens > SPAN_MAX_TOKENS:
            for index, piece in enumerate(_chunks(text, SPAN_MAX_TOKENS)):
                spans.append(Span(turn.seq, turn.seq, piece, said_at.get(turn.seq),
                                  None if index else asked_before(turn.seq)))
        elif tokens > SHORT_TURN_TOKENS and not pending:
            spans.append(Span(turn.seq, turn.seq, text, said_at.get(turn.seq), asked_before(turn.seq)))
        else:
            pending.append(turn)
        previous_seq = turn.seq
    flush()
    return spans


def span_content(span: Span) -> str:
    """The memory's text: the user's words, marked as theirs and dated, so "my" reads as the user's and
    a later "when did I…" question has its answer; then the question they answer, marked as asked."""
    date = f"[{span.said_at.date().isoformat()}] " if span.said_at else ""
    if span.asked:
        asked = "（回答：" + span.asked + "）" if is_cjk(span.asked) else f' (answering "{span.asked}")'
        return f"{date}user: {span.text}{asked}"
    return f"{date}user: {span.text}"
