"""Instruction-like content in untrusted text. First version of the interface; the formation issue
replaces it with the full, corpus-tested detector."""
from __future__ import annotations

import re

_PATTERNS = [
    ("override_instructions", re.compile(r"(?i)ignore (?:all )?(?:previous|prior|above) instructions|忽略(?:之前|以上|前面)的?(?:所有)?指令")),
    ("role_claim", re.compile(r"(?i)from now on,? you are|从现在开始你是")),
    ("forged_role_tag", re.compile(r"(?i)<\|?(?:system|im_start|im_end)\|?>|\[/?(?:INST|SYSTEM)\]")),
]


def injection_reasons(text: str) -> list[str]:
    """Why the text looks like an instruction to the model rather than a memory; empty when it does not."""
    return [name for name, pattern in _PATTERNS if pattern.search(text)]
