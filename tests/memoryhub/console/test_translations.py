"""The zh_Hans catalogue is complete, compiled, and used by the console."""
from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from django.test import Client

from permanent.services import change_request_propose

LOCALE = Path(__file__).resolve().parents[3] / "locale" / "zh_Hans" / "LC_MESSAGES"


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


def test_every_entry_is_translated_and_none_is_fuzzy():
    entries = [e for e in po_entries(LOCALE / "django.po") if e["msgid"]]
    assert len(entries) > 100
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"].values()) or not e["msgstr"]]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert untranslated == [] and fuzzy == []


def test_the_compiled_catalogue_matches_the_po():
    with open(LOCALE / "django.mo", "rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    for entry in po_entries(LOCALE / "django.po"):
        if entry["msgid"] and entry["msgid_plural"] is None:
            assert catalogue.gettext(entry["msgid"]) == entry["msgstr"][0], entry["msgid"]


@pytest.mark.django_db
def test_the_console_speaks_chinese(tenant, editor, reviewer):
    cr = change_request_propose(tenant=tenant, key="rules.tone", action="create", value="calm", proposer_user=editor)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(reviewer)
    page = client.get(f"/admin/permanent/changerequest/{cr.pk}/change/").content.decode()
    assert "审核变更请求" in page and "批准" in page and "当前值与提议值" in page
