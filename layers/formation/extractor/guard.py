"""The last check every extractor's output passes before it reaches the writer.

`guard_items(items, user_id=..., declared_user_ids=...)` keeps an item only if it is about the
session's own user, writes no forbidden key, and carries no secret; instruction-like items are
kept but marked (`injection_reasons`) so the writer quarantines them. Offline rules and the LLM
both go through it, so the rule lives in one place.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from layers.formation.extractor.keys import key_allowed
from layers.formation.extractor.types import (
    DROP_FORBIDDEN_KEY,
    DROP_OTHER_USER,
    DROP_SECRET,
    ExtractedItem,
)
from memoryhub.safety.injection import injection_reasons
from memoryhub.safety.secrets import mentions_secret


def guard_item(item: ExtractedItem, *, user_id: str | None, declared_user_id: str | None = None) -> tuple[ExtractedItem | None, str | None]:
    """(item, None) when it may be written (possibly marked for quarantine), else (None, drop reason)."""
    if declared_user_id is not None and user_id is not None and str(declared_user_id) != str(user_id):
        return None, DROP_OTHER_USER
    if not key_allowed(item.memory_key):
        return None, DROP_FORBIDDEN_KEY
    texts = [item.content, item.value or "", *item.entities]
    # A statement that held a secret is about that secret: dropped like the secret itself.
    if any(mentions_secret(text) for text in texts if text):
        return None, DROP_SECRET
    reasons = tuple(dict.fromkeys(r for text in texts if text for r in injection_reasons(text)))
    if reasons and reasons != item.injection_reasons:
        item = replace(item, injection_reasons=tuple(dict.fromkeys((*item.injection_reasons, *reasons))))
    return item, None


def guard_items(items: Iterable[ExtractedItem], *, user_id: str | None) -> tuple[list[ExtractedItem], Counter]:
    kept, dropped = [], Counter()
    for item in items:
        checked, reason = guard_item(item, user_id=user_id)
        if checked is None:
            dropped[reason] += 1
        else:
            kept.append(checked)
    return kept, dropped
