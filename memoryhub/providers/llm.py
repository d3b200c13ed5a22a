"""LLM providers for memory formation: one interface, an OpenAI-compatible one and an offline one.

Public interface (what the formation jobs call):

    get_llm_provider() -> LLMProvider
        OpenAIChatProvider when OPENAI_BASE_URL or OPENAI_API_KEY is set, else OfflineProvider.
    provider.name / provider.version / provider.label ("openai-chat:<model>@1", "offline@1")
    provider.extract(turns, *, user_id) -> ExtractionResult        (layers.formation.extraction)
    provider.summarise(previous_summary, turns, *, max_tokens=300) -> SummaryResult
                                                                   (layers.formation.summarise)
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

import json
import logging
import threading
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable
from typing import Any

import jsonschema
from django.conf import settings

from layers.formation import prompts
from layers.formation.extraction import (
    DROP_FORBIDDEN_KEY,
    DROP_INVALID,
    DROP_OTHER_USER,
    ExtractedItem,
    ExtractionResult,
    as_transcript_turns,
    extract_memories,
    guard_item,
)
from layers.formation.extraction.text import is_cjk
from layers.formation.summarise import SummaryResult, summarise_turns
from layers.safety.injection import injection_reasons
from layers.safety.secrets import contains_secret
from memoryhub.providers.tokens import count_tokens, truncate_to_tokens

logger = logging.getLogger("memoryhub.llm")

_FORBIDDEN_SCOPES = {"permanent", "global", "system", "tenant", "policy", "admin"}


class LLMError(Exception):
    pass


class LLMUnavailable(LLMError):
    """The endpoint could not be reached or refused the request; retry later."""


class LLMOutputInvalid(LLMError):
    """The model's reply did not fit the schema; it was rejected and nothing from it is used."""


class LLMProvider(ABC):
    name: str
    version: str = "1"

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    @abstractmethod
    def extract(self, turns: Iterable[Any], *, user_id: str) -> ExtractionResult: ...

    @abstractmethod
    def summarise(self, previous_summary: str | None, turns: Iterable[Any], *, max_tokens: int = 300) -> SummaryResult: ...


class OfflineProvider(LLMProvider):
    """Deterministic rules and extractive summaries: no network, same output every time."""

    name = "offline"

    def extract(self, turns, *, user_id):
        return extract_memories(turns, user_id=user_id)

    def summarise(self, previous_summary, turns, *, max_tokens=300):
        return summarise_turns(previous_summary, turns, max_tokens=max_tokens)


class OpenAIChatProvider(LLMProvider):
    """Any OpenAI-compatible chat endpoint through the official `openai` SDK."""

    version = "1"

    def __init__(self, *, base_url: str | None = None, api_key: str | None = None, model: str | None = None,
                 timeout: float | None = None, max_retries: int | None = None, client: Any = None):
        import openai  # noqa: PLC0415 — only needed when an endpoint is configured

        self.model = model or settings.OPENAI_CHAT_MODEL
        self.name = f"openai-chat:{self.model}"
        self.client = client or openai.OpenAI(
            base_url=base_url if base_url is not None else (settings.OPENAI_BASE_URL or None),
            # Local OpenAI-compatible servers often need no key, but the SDK insists on one.
            api_key=api_key if api_key is not None else (settings.OPENAI_API_KEY or "unused"),
            timeout=timeout if timeout is not None else settings.OPENAI_TIMEOUT,
            max_retries=max_retries if max_retries is not None else settings.OPENAI_MAX_RETRIES,
        )
        self._openai = openai
        self._json_mode = True  # until the endpoint refuses `response_format`

    # --- transport --------------------------------------------------------------------------

    def _complete_json(self, messages: list[dict], *, purpose: str) -> Any:
        request = {"model": self.model, "messages": messages, "temperature": 0}
        try:
            response = None
            if self._json_mode:
                try:
                    response = self.client.chat.completions.create(**request, response_format={"type": "json_object"})
                except self._openai.BadRequestError as exc:
                    # Some OpenAI-compatible servers reject `response_format`; the prompt itself demands
                    # JSON and the reply is validated either way, so ask without it, now and from now on.
                    if "response_format" not in str(exc):
                        raise
                    logger.info("llm %s: endpoint refused response_format, asking without it", purpose)
                    self._json_mode = False
            if response is None:
                response = self.client.chat.completions.create(**request)
        except self._openai.APIError as exc:
            logger.warning("llm %s request failed: %s", purpose, type(exc).__name__)
            raise LLMUnavailable(f"{purpose}: {type(exc).__name__}") from exc
        choice = response.choices[0] if response.choices else None
        content = choice.message.content if choice and choice.message else None
        if not content:
            logger.warning("llm %s reply rejected: empty content", purpose)
            raise LLMOutputInvalid(f"{purpose}: empty reply")
        try:
            return json.loads(content)
        except ValueError as exc:
            logger.warning("llm %s reply rejected: not JSON (%d chars)", purpose, len(content))
            raise LLMOutputInvalid(f"{purpose}: reply is not JSON") from exc

    @staticmethod
    def _check(document: Any, schema: dict, *, purpose: str) -> None:
        error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(document))
        if error is not None:
            # Path and validator only: the offending value may be user content.
            logger.warning("llm %s reply rejected: schema %s at %s", purpose, error.validator, error.json_path)
            raise LLMOutputInvalid(f"{purpose}: reply does not fit the schema ({error.validator} at {error.json_path})")

    # --- extraction -------------------------------------------------------------------------

    def extract(self, turns, *, user_id):
        transcript = as_transcript_turns(turns)
        if not transcript:
            return ExtractionResult(items=[], extractor=self.name, extractor_version=self.version)
        document = self._complete_json(prompts.extraction_messages(transcript), purpose="extract")
        self._check(document, prompts.EXTRACTION_SCHEMA, purpose="extract")
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
        offline = extract_memories(transcript, user_id=user_id)
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
        document = self._complete_json(
            prompts.summary_messages(previous_summary, transcript, max_words=max_words), purpose="summarise")
        self._check(document, prompts.SUMMARY_SCHEMA, purpose="summarise")
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
    if not (settings.OPENAI_BASE_URL or settings.OPENAI_API_KEY):
        return OfflineProvider()
    key = (settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY, settings.OPENAI_CHAT_MODEL, settings.OPENAI_TIMEOUT,
           settings.OPENAI_MAX_RETRIES)
    with _provider_lock:
        if _provider is None or _provider_key != key:
            _provider, _provider_key = OpenAIChatProvider(), key
        return _provider
