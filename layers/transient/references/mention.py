"""A mention of an entity in one turn, and the small helpers every extractor uses."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Mention:
    name: str
    type: str
    start: int
    end: int
    gender: str = ""
    plural: bool = False  # a collective phrase: "两件衬衫", "my parents", "string lights"
    weak: bool = False  # typed by guess (an unknown capitalised name)
    guess: bool = False  # a noun the lexicon does not know, taken from how it was said ("bought a kayak")
    acted: bool = False  # the assistant acted on it in this turn ("已为你预订G7次", "Added the Kobo Clara")
    segment: str = ""  # the words stated with it, for attributes
    clause: str = ""
    numbers: list[float] = field(default_factory=list)


class _Found:
    """A literal occurrence, with the two methods of a regex match the callers use."""
    __slots__ = ("_start", "_end")

    def __init__(self, start: int, end: int):
        self._start, self._end = start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


def _find_all(text: str, word: str):
    at = text.find(word)
    while at >= 0:
        yield _Found(at, at + len(word))
        at = text.find(word, at + len(word))


def _han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def _add(found: list[Mention], name: str, kind: str, start: int, **extra) -> None:
    name = name.strip(" 的")
    if not name:
        return
    found.append(Mention(name=name, type=kind, start=start, end=start + len(name), **extra))
