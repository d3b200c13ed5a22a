"""The extractor and summariser behind memory formation: one interface, an OpenAI-compatible one and an offline one.

Public interface (what the formation jobs call):

    get_llm_provider() -> LLMProvider
        OpenAIChatProvider when OPENAI_BASE_URL or OPENAI_API_KEY is set, else OfflineProvider.
    provider.name / provider.version / provider.label ("openai-chat:<model>@1", "offline@1")
    provider.extract(turns, *, user_id, learned_backup=None) -> ExtractionResult  (layers.formation.extractor)
    provider.summarise(previous_summary, turns, *, max_tokens=300) -> SummaryResult
                                                                   (layers.formation.summariser)
    Errors: LLMUnavailable (network, timeout, HTTP 5xx/4xx: retry later, nothing was decided)
            LLMOutputInvalid (the model answered but not in the schema: rejected and logged,
            nothing from it is returned; the caller may retry or fall back to OfflineProvider)
            both subclass LLMError.

`turns` is anything `as_transcript_turns` accepts (Turn rows, dicts, TranscriptTurns).

What the OpenAI path guarantees: the request asks for a JSON object (`response_format`), the
transcript goes out redacted and fenced as untrusted data (layers.formation.prompts); the reply is
validated with jsonschema: a reply that is not a JSON object of the right shape raises
LLMOutputInvalid; inside a valid reply, each memory is validated on its own and one that does not
fit, names another user, names a non-`user.` key or a permanent/system scope, cites a turn that was
not sent, or carries a secret is dropped and counted (`result.dropped`), never returned. Instruction-
like text found by the offline detector in the user's turns is added as quarantine-flagged notes,
so an injection attempt is recorded for review whichever provider runs.
"""
from __future__ import annotations

import logging
import re
import threading
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable
from typing import Any

import jsonschema

from layers.formation import prompts
from layers.formation.extractor import (
    DROP_FORBIDDEN_KEY,
    DROP_INVALID,
    DROP_OTHER_USER,
    ExtractedItem,
    ExtractionResult,
    as_transcript_turns,
    extract_memories,
    guard_item,
)
from layers.formation.extractor.text import is_cjk
from layers.formation.summariser import SummaryResult, summarise_turns
from memoryhub.providers.llm import (  # noqa: F401  the errors are part of this interface
    ChatJSONClient,
    LLMError,
    LLMOutputInvalid,
    LLMUnavailable,
    llm_configured,
    llm_settings_key,
)
from memoryhub.providers.tokens import count_tokens, truncate_to_tokens
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import contains_secret

logger = logging.getLogger("memoryhub.llm")

_FORBIDDEN_SCOPES = {"permanent", "global", "system", "tenant", "policy", "admin"}


class LLMProvider(ABC):
    name: str
    version: str = "1"

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    @abstractmethod
    def extract(self, turns: Iterable[Any], *, user_id: str, learned_backup: bool | None = None) -> ExtractionResult:
        """`learned_backup` is the tenant's formation setting (None: its code default); only the offline rules
        read it (layers/formation/extractor/learned.py)."""

    @abstractmethod
    def summarise(self, previous_summary: str | None, turns: Iterable[Any], *, max_tokens: int = 300) -> SummaryResult: ...


class OfflineProvider(LLMProvider):
    """Deterministic rules and extractive summaries: no network, same output every time."""

    name = "offline"

    def extract(self, turns, *, user_id, learned_backup=None):
        return extract_memories(turns, user_id=user_id, learned_backup=learned_backup)

    def summarise(self, previous_summary, turns, *, max_tokens=300):
        return summarise_turns(previous_summary, turns, max_tokens=max_tokens)


class OpenAIChatProvider(LLMProvider):
    """Any OpenAI-compatible chat endpoint through the official `openai` SDK."""

    version = "1"

    def __init__(self, *, base_url: str | None = None, api_key: str | None = None, model: str | None = None,
                 timeout: float | None = None, max_retries: int | None = None, client: Any = None):
        self.transport = ChatJSONClient(base_url=base_url, api_key=api_key, model=model, timeout=timeout,
                                        max_retries=max_retries, client=client)
        self.model = self.transport.model
        self.name = f"openai-chat:{self.model}"

    # --- extraction -------------------------------------------------------------------------

    def extract(self, turns, *, user_id, learned_backup=None):
        transcript = as_transcript_turns(turns)
        if not transcript:
            return ExtractionResult(items=[], extractor=self.name, extractor_version=self.version)
        document = self.transport.complete_json(prompts.extraction_messages(transcript), purpose="extract")
        self.transport.check(document, prompts.EXTRACTION_SCHEMA, purpose="extract")
        seqs = {turn.seq for turn in transcript}
        languages = {turn.seq: ("zh" if is_cjk(turn.content) else "en") for turn in transcript}
        items: list[ExtractedItem] = []
        dropped: Counter = Counter()
        item_validator = jsonschema.Draft202012Validator(prompts.EXTRACTION_ITEM_SCHEMA)
        for index, raw in enumerate(document["memories"]):
            reason = self._item_problem(raw, item_validator, seqs, user_id)
            if reason:
                logger.info("llm extract item %d dropped: %s", index, reason)
                dropped[reason] += 1
                continue
            item = ExtractedItem(
                kind=raw["kind"], memory_key=raw.get("memory_key"), value=raw.get("value"),
                content=raw["content"].strip(), entities=tuple(dict.fromkeys(raw.get("entities") or ())),
                confidence=float(raw["confidence"]), importance=float(raw["importance"]),
                source_turn_seq=raw["source_turn"],
                attributes={"lang": "zh" if is_cjk(raw["content"]) else languages[raw["source_turn"]]})
            checked, reason = guard_item(item, user_id=user_id)
            if checked is None:
                logger.info("llm extract item %d dropped: %s", index, reason)
                dropped[reason] += 1
            else:
                items.append(checked)
        # Injection attempts are recorded for review even when the model (rightly) ignored them.
        offline = extract_memories(transcript, user_id=user_id, learned_backup=learned_backup)
        items.extend(item for item in offline.items if item.quarantine)
        dropped.update({k: v for k, v in offline.dropped.items() if k == "secret"})
        return ExtractionResult(items=items, dropped=dropped, extractor=self.name, extractor_version=self.version,
                                covers_up_to=transcript[-1].seq)

    @staticmethod
    def _item_problem(raw: Any, validator, seqs: set[int], user_id: str) -> str | None:
        if isinstance(raw, dict):
            declared = raw.get("user_id")
            if declared not in (None, "") and str(declared) != str(user_id):
                return DROP_OTHER_USER
            scope = raw.get("scope")
            if isinstance(scope, str) and scope.strip().lower() in _FORBIDDEN_SCOPES:
                return DROP_FORBIDDEN_KEY
            key = raw.get("memory_key")
            if isinstance(key, str) and not re.match(r"^user\.", key):
                return DROP_FORBIDDEN_KEY
        if not validator.is_valid(raw):
            return DROP_INVALID
        if raw["source_turn"] not in seqs:
            return DROP_INVALID  # provenance must point at a turn we actually sent
        return None

    # --- summarisation ----------------------------------------------------------------------

    def summarise(self, previous_summary, turns, *, max_tokens=300):
        transcript = as_transcript_turns(turns)
        max_words = max(50, int(max_tokens * 0.7))
        document = self.transport.complete_json(
            prompts.summary_messages(previous_summary, transcript, max_words=max_words), purpose="summarise")
        self.transport.check(document, prompts.SUMMARY_SCHEMA, purpose="summarise")
        dropped: Counter = Counter()

        def clean(text: str) -> str | None:
            if contains_secret(text):
                dropped["secret"] += 1
                return None
            if injection_reasons(text):
                dropped["injection"] += 1
                return None
            return text

        pieces = re.split(r"(?<=[。！？!?\n])|(?<=\.)(?=\s)", document["summary"])
        content = "".join(piece for piece in pieces if piece and clean(piece) is not None).strip()
        content = truncate_to_tokens(content, max_tokens)
        lists = {name: tuple(t for t in document.get(name) or () if clean(t) is not None)
                 for name in ("facts", "decisions", "open_questions")}
        mood = document.get("mood")
        return SummaryResult(
            content=content, token_count=count_tokens(content),
            covers_up_to=transcript[-1].seq if transcript else None, summariser=self.label,
            facts=lists["facts"], decisions=lists["decisions"], open_questions=lists["open_questions"],
            mood=(mood,) if mood and clean(mood) is not None else (), dropped=+dropped)


_provider: OpenAIChatProvider | None = None
_provider_key: tuple | None = None
_provider_lock = threading.Lock()


def get_llm_provider() -> LLMProvider:
    """The configured provider: an OpenAI-compatible endpoint if one is set, else offline rules. The
    endpoint's client is one per process (its connection pool, and what it learned about the endpoint),
    rebuilt only when the settings change."""
    global _provider, _provider_key
    if not llm_configured():
        return OfflineProvider()
    key = llm_settings_key()
    with _provider_lock:
        if _provider is None or _provider_key != key:
            _provider, _provider_key = OpenAIChatProvider(), key
        return _provider
