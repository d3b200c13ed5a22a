"""Finding secrets in text. First version: the interface every layer calls; the formation issue
replaces the detectors with the full, corpus-tested set."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SecretFinding:
    kind: str  # "password" | "api_key" | "token" | "card_number" | "cn_id_number" | ...
    start: int
    end: int


_PATTERNS = [
    ("api_key", re.compile(r"\b(?:sk-[A-Za-z0-9_-]{16,}|ghp_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16})\b")),
    ("password", re.compile(r"(?i)(?:password|passwd|密码)\s*(?:is|是|为|:|：|=)\s*\S+")),
]


def find_secrets(text: str) -> list[SecretFinding]:
    findings = []
    for kind, pattern in _PATTERNS:
        findings.extend(SecretFinding(kind, m.start(), m.end()) for m in pattern.finditer(text))
    return sorted(findings, key=lambda f: f.start)


def redact_secrets(text: str) -> tuple[str, list[SecretFinding]]:
    """The text with each secret replaced by `[REDACTED:<kind>]`, and what was found (in the original)."""
    findings = find_secrets(text)
    out, last = [], 0
    for finding in findings:
        if finding.start < last:
            continue
        out.append(text[last:finding.start])
        out.append(f"[REDACTED:{finding.kind}]")
        last = finding.end
    out.append(text[last:])
    return "".join(out), findings
