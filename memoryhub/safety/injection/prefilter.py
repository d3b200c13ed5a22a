"""Words a pattern cannot match without: read from the pattern itself, found in a text in one scan.

`needed_literals(pattern)` reads the parsed pattern: a run of literal characters must appear in every
match; a group needs what its body needs; an alternation needs one of what each branch needs; a repeat of
at least one needs what its body needs; anything else (classes, `\\w`, optional parts, lookarounds) needs
nothing. In a sequence the most selective element's literals are kept. None means the pattern needs no
literal that can be named (it is then always scanned).

`Literals(sets)` takes those sets for many patterns at once as one table; `present(text)` finds every
literal of the table in the text: a trie-shaped alternation finds the longest literal starting at the
first position where one starts, which with its prefixes in the table is every literal starting there,
and the search goes on from the next character, so overlapping literals are all found.
A pattern whose needed literals are all absent cannot match: that is the only thing the table is used for.
"""
from __future__ import annotations

import re
from functools import lru_cache

try:  # Python 3.11+
    from re import _constants as _sre, _parser as _sre_parse
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

_REPEATS = tuple(getattr(_sre, name) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(_sre, name))


def needed_literals(pattern: re.Pattern) -> frozenset[str] | None:
    if pattern.flags & re.IGNORECASE:
        return None
    return _needs(_sre_parse.parse(pattern.pattern, pattern.flags))


def _best(options: list[frozenset[str]]) -> frozenset[str] | None:
    # the most selective: longest shortest literal, then the fewest literals
    return max(options, key=lambda s: (min(map(len, s)), -len(s)), default=None)


def _needs(sequence) -> frozenset[str] | None:
    options: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in list(sequence) + [(None, None)]:
        if op is _sre.LITERAL:
            run.append(chr(av))
            continue
        if run:
            options.append(frozenset(["".join(run)]))
            run = []
        found = _element_needs(op, av) if op is not None else None
        if found:
            options.append(found)
    return _best(options)


def _element_needs(op, av) -> frozenset[str] | None:
    if op is _sre.SUBPATTERN:
        _group, add_flags, _del_flags, body = av
        return None if add_flags & _sre.SRE_FLAG_IGNORECASE else _needs(body)
    if op is _sre.BRANCH:
        union: set[str] = set()
        for branch in av[1]:
            found = _needs(branch)
            if not found:
                return None
            union |= found
        return frozenset(union)
    if op in _REPEATS:
        low, _high, body = av
        return _needs(body) if low >= 1 else None
    if hasattr(_sre, "ATOMIC_GROUP") and op is _sre.ATOMIC_GROUP:
        return _needs(av)
    return None


class Literals:
    """One table of needed literals for many patterns, and which of them a text holds."""

    def __init__(self, sets: list[frozenset[str] | None]):
        table = {lit for s in sets if s for lit in s}
        literals = sorted(table)
        # the literals that start where a longer one starts: its prefixes in the table
        self._prefixes = {lit: frozenset(lit[:i] for i in range(1, len(lit) + 1) if lit[:i] in table) for lit in literals}
        ascii_first = [lit for lit in literals if lit[0].isascii()]
        other_first = [lit for lit in literals if not lit[0].isascii()]
        self._scans = [re.compile(_trie(group)) for group in (ascii_first, other_first) if group]
        self.present = lru_cache(maxsize=512)(self._present)

    def _present(self, text: str) -> frozenset[str]:
        found: set[str] = set()
        for scan in self._scans:
            search, pos = scan.search, 0
            while (match := search(text, pos)) is not None:
                found |= self._prefixes[match.group()]
                pos = match.start() + 1
        return frozenset(found)


def _trie(literals: list[str]) -> str:
    """An alternation of `literals` (sorted, distinct) with shared prefixes factored out, matching the longest
    one that starts at a position: its branches start with distinct characters, so one path is tried, and a
    literal that another continues is the optional end of that path."""
    groups: dict[str, list[str]] = {}
    for lit in literals:
        groups.setdefault(lit[0], []).append(lit[1:])
    parts = []
    for first, rests in groups.items():
        ends_here = "" in rests
        longer = [rest for rest in rests if rest]
        tail = ""
        if longer:
            tail = f"(?:{_trie(longer)})" if len(longer) > 1 else re.escape(longer[0])
            if ends_here:
                tail = f"(?:{tail})?" if len(longer) == 1 else tail + "?"
        parts.append(re.escape(first) + tail)
    return "|".join(parts)
