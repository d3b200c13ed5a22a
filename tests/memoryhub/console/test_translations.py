"""The zh_Hans catalogue is complete, compiled, and used by the console."""
from __future__ import annotations

import gettext
import pytest
from django.test import Client

from permanent.services import change_request_propose
from tests.support.translations import LOCALE, po_entries

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
