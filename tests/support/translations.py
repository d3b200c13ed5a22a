"""Reading the zh_Hans catalogue: a small .po reader shared by the translation tests."""
from __future__ import annotations

from pathlib import Path

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES"


def _unquote(line: str) -> str:
    """The text between the first and last double quote, with C escapes resolved (UTF-8 kept)."""
    body = line[line.index('"') + 1:line.rindex('"')]
    return body.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def po_entries(path: Path) -> list[dict]:
    """A small .po reader: each entry's flags, msgid, msgid_plural and msgstr(s)."""
    entries, current, field = [], None, None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if current is not None:
                entries.append(current)
            current, field = None, None
            continue
        if line.startswith("#~"):
            continue
        current = current or {"flags": set(), "msgid": "", "msgid_plural": None, "msgstr": {}}
        if line.startswith("#,"):
            current["flags"].update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural"):
            field = ("msgid_plural", None)
            current["msgid_plural"] = _unquote(line)
        elif line.startswith("msgid"):
            field = ("msgid", None)
            current["msgid"] = _unquote(line)
        elif line.startswith("msgstr["):
            index = int(line[7:line.index("]")])
            field = ("msgstr", index)
            current["msgstr"][index] = _unquote(line)
        elif line.startswith("msgstr"):
            field = ("msgstr", 0)
            current["msgstr"][0] = _unquote(line)
        elif line.startswith('"') and field:
            name, index = field
            if name == "msgstr":
                current["msgstr"][index] += _unquote(line)
            else:
                current[name] = (current[name] or "") + _unquote(line)
    return entries
