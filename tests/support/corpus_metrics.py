"""Per-kind precision and recall over a labelled corpus, printed so the test output shows them."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml


def load_corpus(path: Path) -> dict:
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@dataclass
class KindScore:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


@dataclass
class Scores:
    kinds: dict[str, KindScore] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)

    def add(self, text: str, expected: list[str], found: list[str]) -> None:
        want, got = Counter(expected), Counter(found)
        for kind in set(want) | set(got):
            score = self.kinds.setdefault(kind, KindScore())
            hit = min(want[kind], got[kind])
            score.tp += hit
            score.fp += got[kind] - hit
            score.fn += want[kind] - hit
            if want[kind] > hit:
                self.misses.append(f"{kind}: {text!r}")
            if got[kind] > hit:
                self.false_alarms.append(f"{kind}: {text!r}")

    def add_items(self, text: str, expected: list, found: list, kind_of) -> None:
        """Score whole items (matched exactly), grouped under `kind_of(item)`."""
        want, got = Counter(expected), Counter(found)
        for item in set(want) | set(got):
            score = self.kinds.setdefault(kind_of(item), KindScore())
            hit = min(want[item], got[item])
            score.tp += hit
            score.fp += got[item] - hit
            score.fn += want[item] - hit

    def table(self, title: str) -> str:
        lines = [f"{title}", f"{'kind':<26}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}"]
        for kind in sorted(self.kinds):
            s = self.kinds[kind]
            lines.append(f"{kind:<26}{s.tp:>5}{s.fp:>5}{s.fn:>5}{s.precision:>11.3f}{s.recall:>8.3f}")
        return "\n".join(lines)
