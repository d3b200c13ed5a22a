"""Chinese is complete: every translatable string in the code and the templates, as Django's own
`makemessages` extracts it today, has a zh_Hans translation that is not fuzzy.

The extraction runs on a copy of the project in a temporary directory, merged into a copy of the
catalogue, so the check sees strings added since the catalogue was last made (a check of the .po
against itself would not) and never writes to locale/.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from django.core.management import call_command
from django.test import override_settings

from tests.support.translations import po_entries

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ("memoryhub", "layers", "permanent", "audit", "templates")
CATALOGUE = Path("zh_Hans") / "LC_MESSAGES" / "django.po"


def _copy_sources(target: Path) -> None:
    for name in SOURCES:
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "static", "*.pyc"))


def extracted_catalogue(tmp_path: Path) -> list[dict]:
    tree = tmp_path / "tree"
    _copy_sources(tree)
    locale = tree / "locale"
    (locale / CATALOGUE).parent.mkdir(parents=True)
    shutil.copy(ROOT / "locale" / CATALOGUE, locale / CATALOGUE)
    previous = os.getcwd()
    os.chdir(tree)
    try:
        with override_settings(LOCALE_PATHS=[str(locale)]):
            call_command("makemessages", locale=["zh_Hans"], domain="django", verbosity=0, no_obsolete=True,
                         extensions=["html", "txt", "py"])
    finally:
        os.chdir(previous)
    return [entry for entry in po_entries(locale / CATALOGUE) if entry["msgid"]]


def test_every_extracted_string_has_a_chinese_translation(tmp_path):
    entries = extracted_catalogue(tmp_path)
    assert len(entries) > 300  # the extraction saw the code and the templates
    missing = sorted(e["msgid"] for e in entries if not e["msgstr"] or not all(e["msgstr"].values()))
    fuzzy = sorted(e["msgid"] for e in entries if "fuzzy" in e["flags"])
    assert missing == [], f"{len(missing)} strings without Chinese (add them to locale/{CATALOGUE}): {missing}"
    assert fuzzy == [], f"fuzzy (guessed) translations to check: {fuzzy}"


def test_the_extraction_sees_strings_of_code_and_templates(tmp_path):
    """The check would catch a new string: these come from a model, a template and an event label."""
    msgids = {entry["msgid"] for entry in extracted_catalogue(tmp_path)}
    assert {"Auditors read only: they can inspect everything here, but not propose, decide or change anything.",
            "You may not do this", "staff role granted", "Short-term memory", "quarantined"} <= msgids
