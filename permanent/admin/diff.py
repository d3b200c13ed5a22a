"""Pretty JSON and a line diff between the current and the proposed value, for the review page."""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class DiffLine:
    kind: str  # "same" | "added" | "removed"
    text: str


def json_diff(current: Any, proposed: Any, *, current_exists: bool = True, proposed_exists: bool = True) -> list[DiffLine]:
    before = pretty_json(current).splitlines() if current_exists else []
    after = pretty_json(proposed).splitlines() if proposed_exists else []
    lines: list[DiffLine] = []
    for line in difflib.ndiff(before, after):
        tag, text = line[:2], line[2:]
        if tag == "  ":
            lines.append(DiffLine("same", text))
        elif tag == "- ":
            lines.append(DiffLine("removed", text))
        elif tag == "+ ":
            lines.append(DiffLine("added", text))
    return lines
