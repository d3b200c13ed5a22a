"""The transport to an OpenAI-compatible chat endpoint, through the official `openai` SDK: one JSON
answer per call, validated against a JSON Schema. What is asked and what the answer means belong to
the caller (memory formation: layers/formation/llm.py); this module knows neither.
"""
from __future__ import annotations

import json
import logging
from typing import Any

import jsonschema
from django.conf import settings

logger = logging.getLogger("memoryhub.llm")


class LLMError(Exception):
    pass


class LLMUnavailable(LLMError):
    """The endpoint could not be reached or refused the request; retry later."""


class LLMOutputInvalid(LLMError):
    """The model's reply did not fit the schema; it was rejected and nothing from it is used."""


def llm_configured() -> bool:
    """An endpoint is configured (else the offline defaults serve)."""
    return bool(settings.OPENAI_BASE_URL or settings.OPENAI_API_KEY)


def llm_settings_key() -> tuple:
    """What a client depends on: a client built for other settings must be rebuilt."""
    return (settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY, settings.OPENAI_CHAT_MODEL, settings.OPENAI_TIMEOUT,
            settings.OPENAI_MAX_RETRIES)


class ChatJSONClient:
    """One endpoint and model; `complete_json` sends messages and returns the parsed JSON reply."""

    def __init__(self, *, base_url: str | None = None, api_key: str | None = None, model: str | None = None,
                 timeout: float | None = None, max_retries: int | None = None, client: Any = None):
        import openai  # noqa: PLC0415 — only needed when an endpoint is configured

        self.model = model or settings.OPENAI_CHAT_MODEL
        self.client = client or openai.OpenAI(
            base_url=base_url if base_url is not None else (settings.OPENAI_BASE_URL or None),
            # Local OpenAI-compatible servers often need no key, but the SDK insists on one.
            api_key=api_key if api_key is not None else (settings.OPENAI_API_KEY or "unused"),
            timeout=timeout if timeout is not None else settings.OPENAI_TIMEOUT,
            max_retries=max_retries if max_retries is not None else settings.OPENAI_MAX_RETRIES,
        )
        self._openai = openai
        self._json_mode = True  # until the endpoint refuses `response_format`

    def complete_json(self, messages: list[dict], *, purpose: str) -> Any:
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
    def check(document: Any, schema: dict, *, purpose: str) -> None:
        error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(document))
        if error is not None:
            # Path and validator only: the offending value may be user content.
            logger.warning("llm %s reply rejected: schema %s at %s", purpose, error.validator, error.json_path)
            raise LLMOutputInvalid(f"{purpose}: reply does not fit the schema ({error.validator} at {error.json_path})")
