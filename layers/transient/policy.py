"""Transient-layer numbers, read through memoryhub/core/policy.py: code defaults, overridden per tenant
by approved global permanent entries `policy.transient.<field>`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from layers.transient.models import TaskType
from memoryhub.core.policy import policy_read, setting


@dataclass(frozen=True)
class TransientPolicy:
    SECTION: ClassVar[str] = "transient"

    # The TTL a new task type gets when its creator names none (a task's TTL comes from its type).
    default_task_ttl_seconds: int = setting(TaskType.DEFAULT_TTL_SECONDS, low=TaskType.MIN_TTL_SECONDS,
                                            high=TaskType.MAX_TTL_SECONDS)
    # How many entities a session's working memory keeps (a ring buffer; the least recently mentioned goes).
    entity_registry_size: int = setting(50, low=5, high=500)
    # A resolution below this confidence is reported but not claimed (`resolved: false`).
    reference_min_confidence: float = setting(0.5, low=0.0, high=1.0)
    # Low-confidence choices reviewed by the configured chat model (layers/transient/references/llm.py); off by
    # default, and without an endpoint (OPENAI_BASE_URL / OPENAI_API_KEY) nothing is asked.
    reference_llm: bool = setting(False)


def transient_policy(tenant_id: int) -> TransientPolicy:
    return policy_read(TransientPolicy, tenant_id)
