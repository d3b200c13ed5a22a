"""The console pages staff meet: a 403 that says why, the propose page that starts from the current
value with the JSON editor, memories readable and actionable from their page, version titles that
are not raw timestamps, paged session turns, no rollback to the current value, the language switch."""
from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from memoryhub.core.errors import InvalidInput
from permanent.models import ChangeRequest, PermanentEntry
from permanent.services import (
    change_request_approve,
    change_request_propose,
    change_request_propose_rollback,
)

pytestmark = pytest.mark.django_db


def login(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@pytest.fixture
def rule(tenant, editor, reviewer):
    def make(key="rules.tone", value="calm", schema=None):
        cr = change_request_propose(tenant=tenant, key=key, action="create", value=value, schema=schema,
                                    proposer_user=editor)
        change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
        return PermanentEntry.objects.get(tenant=tenant, key=key)
    return make


def _reason(response) -> str:
    match = re.search(r'id="forbidden-reason">([^<]+)<', response.content.decode())
    return match.group(1) if match else ""


# --- 403 that says why --------------------------------------------------------------------------

def test_the_auditor_is_told_auditors_read_only(auditor):
    response = login(auditor).get("/admin/permanent/changerequest/add/")
    assert response.status_code == 403
    assert "Auditors read only" in _reason(response)
    assert 'id="forbidden-title"' in response.content.decode() and "console_style" not in response.content.decode()


def test_the_editor_approving_is_told_they_are_not_a_reviewer(tenant, editor, make_staff):
    other_editor = make_staff(tenant, "editor", username="ed2")
    cr = change_request_propose(tenant=tenant, key="rules.x", action="create", value=1, proposer_user=other_editor)
    response = login(editor).post(f"/admin/permanent/changerequest/{cr.pk}/change/",
                                  {"operation": "approve", "payload_hash": cr.payload_hash})
    assert response.status_code == 403 and "Only reviewers" in _reason(response)
    assert ChangeRequest.objects.get(pk=cr.pk).state == "pending"


def test_the_reviewer_approving_their_own_is_told_so(tenant, reviewer):
    cr = change_request_propose(tenant=tenant, key="rules.x", action="create", value=1, proposer_user=reviewer)
    response = login(reviewer).post(f"/admin/permanent/changerequest/{cr.pk}/change/",
                                    {"operation": "approve", "payload_hash": cr.payload_hash})
    assert response.status_code == 403 and "You proposed this change" in _reason(response)
    chinese = login(reviewer, "zh-hans").post(f"/admin/permanent/changerequest/{cr.pk}/change/",
                                              {"operation": "approve", "payload_hash": cr.payload_hash})
    assert chinese.status_code == 403 and re.search("[\u4e00-\u9fff]", _reason(chinese))


def test_the_auditor_changing_a_memory_is_told_why(tenant, api, auditor):
    memory_id = api.post_json("/api/v1/memories", {"user_id": "u1", "kind": "fact", "content": "Lives in Lyon"}).json()["id"]
    response = login(auditor).post(f"/admin/long_term/memory/{memory_id}/operation/", {"operation": "soft_delete"})
    assert response.status_code == 403 and "reviewers" in _reason(response).lower()


# --- proposing ------------------------------------------------------------------------------------

def test_editing_an_existing_key_prefills_its_value_and_schema(tenant, editor, rule):
    entry = rule(value={"tone": "calm", "emoji": False},
                 schema={"type": "object", "required": ["tone"], "properties": {"tone": {"type": "string"}}})
    page = login(editor).get("/admin/permanent/changerequest/add/",
                             {"key": entry.key, "action": "update", "tenant": tenant.pk}).content.decode()
    assert 'id="editing-notice"' in page
    textarea = re.search(r'<textarea[^>]*name="value"[^>]*>(.*?)</textarea>', page, re.S)
    assert textarea and "&quot;tone&quot;: &quot;calm&quot;" in textarea.group(1)
    assert 'data-json-editor' in textarea.group(0) and 'data-json-schema-from="entry-schema"' in textarea.group(0)
    assert '<script id="entry-schema" type="application/json">' in page and '"required": ["tone"]' in page
    assert "console/json_editor.js" in page and "<script>" not in page  # no inline script
    assert finders.find("console/json_editor.js")


def test_a_new_key_has_nothing_to_prefill(editor, tenant):
    page = login(editor).get("/admin/permanent/changerequest/add/", {"key": "rules.new"}).content.decode()
    assert 'id="editing-notice"' not in page and 'data-json-schema-from="id_schema"' in page


def test_proposing_update_of_a_new_key_in_the_console_says_to_create(editor, tenant):
    response = login(editor).post("/admin/permanent/changerequest/add/", {
        "tenant": tenant.pk, "action": "update", "key": "rules.brand_new", "value": '"x"'})
    assert response.status_code == 200
    assert "rules.brand_new yet" in response.content.decode() and "&quot;create&quot;" in response.content.decode()
    assert not ChangeRequest.objects.filter(key="rules.brand_new").exists()


# --- rollback -------------------------------------------------------------------------------------

def test_no_rollback_to_a_version_equal_to_the_current_one(tenant, editor, reviewer, reviewer2, rule):
    entry = rule(value="calm")
    for value in ("warm", "calm"):  # v2 differs, v3 equals v1
        cr = change_request_propose(tenant=tenant, key=entry.key, action="update", value=value, proposer_user=editor)
        change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    page = login(reviewer2).get(f"/admin/permanent/permanententry/{entry.pk}/change/").content.decode()
    rows = dict(re.findall(r'<tr id="version-(\d+)">(.*?)</tr>', page, re.S))
    assert "rollback-button" not in rows["1"] and "rollback-button" in rows["2"] and "rollback-button" not in rows["3"]
    with pytest.raises(InvalidInput) as refused:
        change_request_propose_rollback(entry=PermanentEntry.objects.get(pk=entry.pk), target_version=1,
                                        proposer_user=reviewer2)
    assert refused.value.code == "no_change"


# --- history list pages (django-simple-history) ---------------------------------------------------

RAW_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d")


def _history_titles(page: str) -> list[str]:
    return re.findall(r'<tr class="history-version" id="history-version-\d+">\s*<td><a [^>]*>([^<]+)</a>', page)


def test_permanent_entry_history_titles_versions_by_number_and_change_request(tenant, editor, reviewer, rule):
    entry = rule(value="calm")
    update = change_request_propose(tenant=tenant, key=entry.key, action="update", value="warm", proposer_user=editor)
    change_request_approve(change_request=update, reviewer=reviewer, payload_hash=update.payload_hash)
    client = login(reviewer)
    titles = _history_titles(client.get(f"/admin/permanent/permanententry/{entry.pk}/history/").content.decode())
    assert titles and titles[0].startswith("v") and titles[-1].startswith("v1 · "), titles
    assert any(f"change request #{update.pk}" in title for title in titles), titles
    assert not any(RAW_TIMESTAMP.search(title) for title in titles), titles
    zh = _history_titles(login(reviewer, "zh-hans").get(
        f"/admin/permanent/permanententry/{entry.pk}/history/").content.decode())
    assert any(f"变更请求 #{update.pk}" in title for title in zh) and all(title.startswith("第") for title in zh), zh
    version_id = entry.history.order_by("history_date").first().history_id
    version_page = client.get(f"/admin/permanent/permanententry/{entry.pk}/history/{version_id}/").content.decode()
    assert re.search(r"<title>[^<]*v1 · ", version_page), "the version page is titled like its row"


def test_memory_history_list_titles_versions_and_offers_no_revert_to_the_current_content(api, reviewer):
    created = api.post_json("/api/v1/memories", {"user_id": "alice", "kind": "fact", "content": "Lives in Lyon"}).json()
    api.patch_json(f"/api/v1/memories/{created['id']}", {"content": "Lives in Paris"})
    api.patch_json(f"/api/v1/memories/{created['id']}", {"content": "Lives in Lyon"})  # v3 equals v1
    client = login(reviewer)
    url = f"/admin/long_term/memory/{created['id']}/history/"
    titles = _history_titles(client.get(url).content.decode())
    assert [title.split(" · ")[0] for title in titles] == ["v3", "v2", "v1"], titles
    assert not any(RAW_TIMESTAMP.search(title) for title in titles), titles
    versions = re.findall(r'href="[^"]*/history/(\d+)/"', client.get(url).content.decode())
    first, second = versions[-1], versions[-2]
    assert "Revert to this version" not in client.get(f"{url}{first}/").content.decode()  # same content as now
    assert "Revert to this version" in client.get(f"{url}{second}/").content.decode()


# --- memories -------------------------------------------------------------------------------------

def test_memory_list_is_readable_and_filters_by_user(api, reviewer):
    long_text = "Prefers window seats on long flights and always asks for a vegetarian meal " * 3
    api.post_json("/api/v1/memories", {"user_id": "alice", "kind": "preference", "content": long_text})
    api.post_json("/api/v1/memories", {"user_id": "bob", "kind": "fact", "content": "Lives in Lyon"})
    client = login(reviewer)
    page = client.get("/admin/long_term/memory/").content.decode()
    cells = re.findall(r'field-readable_content[^>]*>(?:<a [^>]*>)?([^<]+)<', page)
    assert any(len(cell) > 150 for cell in cells), cells  # more than a fragment
    assert "?user=alice" in page
    filtered = client.get("/admin/long_term/memory/", {"user": "bob"}).content.decode()
    assert "Lives in Lyon" in filtered and "window seats" not in filtered


def test_memory_page_soft_deletes_restores_and_reverts(api, reviewer):
    created = api.post_json("/api/v1/memories", {"user_id": "alice", "kind": "fact", "content": "Lives in Lyon"}).json()
    api.patch_json(f"/api/v1/memories/{created['id']}", {"content": "Lives in Paris"})
    client = login(reviewer)
    url = f"/admin/long_term/memory/{created['id']}/"
    page = client.get(f"{url}change/").content.decode()
    assert 'id="soft-delete-button"' in page and 'id="restore-button"' not in page
    titles = re.findall(r'<tr id="memory-version-\d+">\s*<td><a [^>]*>([^<]+)<', page)
    assert titles and all(title.startswith("Version ") and " of " in title for title in titles), titles
    assert not any(re.match(r"^\d{4}-\d\d-\d\d", title) for title in titles)
    assert page.count("revert-button") == 1  # only the older version differs from the current content
    client.post(f"{url}operation/", {"operation": "soft_delete"})
    assert api.get(f"/api/v1/memories/{created['id']}").json()["status"] == "deleted"
    page = client.get(f"{url}change/").content.decode()
    assert 'id="restore-button"' in page and "revert-button" not in page
    client.post(f"{url}operation/", {"operation": "restore"})
    assert api.get(f"/api/v1/memories/{created['id']}").json()["status"] == "active"
    oldest = re.search(r'name="history_id" value="(\d+)"', client.get(f"{url}change/").content.decode()).group(1)
    client.post(f"{url}operation/", {"operation": "revert", "history_id": oldest})
    assert api.get(f"/api/v1/memories/{created['id']}").json()["content"] == "Lives in Lyon"
    version_page = client.get(f"{url}history/{oldest}/").content.decode()
    assert re.search(r'id="version-title">Version 1 of \d', version_page)
    assert client.post(f"{url}operation/", {"operation": "revert", "history_id": "x"}).status_code == 302


def test_memory_of_another_tenant_is_not_reachable(other_api, reviewer):
    foreign = other_api.post_json("/api/v1/memories", {"user_id": "z", "kind": "fact", "content": "Other tenant"}).json()
    client = login(reviewer)
    assert client.post(f"/admin/long_term/memory/{foreign['id']}/operation/", {"operation": "soft_delete"}).status_code == 404
    assert other_api.get(f"/api/v1/memories/{foreign['id']}").json()["status"] == "active"


# --- sessions -------------------------------------------------------------------------------------

def test_session_page_pages_its_turns(api, reviewer):
    session_id = "console-paging-1"
    assert api.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": "alice"}).status_code == 201
    for batch in range(3):
        turns = [{"role": "user", "content": f"turn number {batch * 25 + i}"} for i in range(25)]
        assert api.post_json(f"/api/v1/sessions/{session_id}/turns", {"turns": turns}).status_code in (200, 201)
    from layers.short_term.models import Session
    pk = Session.objects.get(session_id=session_id).pk
    client = login(reviewer)
    first = client.get(f"/admin/short_term/session/{pk}/change/").content.decode()
    assert first.count('class="session-turn"') == 50 and "turn number 0<" in first and "turn number 74<" not in first
    assert "turns_page=2" in first
    second = client.get(f"/admin/short_term/session/{pk}/change/", {"turns_page": 2}).content.decode()
    assert second.count('class="session-turn"') == 25 and "turn number 74<" in second


# --- language -------------------------------------------------------------------------------------

def test_the_language_switcher_switches(editor):
    client = login(editor)
    page = client.get("/admin/").content.decode()
    assert 'id="language-switcher"' in page and 'value="zh-hans"' in page
    response = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/admin/"})
    assert response.status_code == 302
    assert "审核" in client.get("/admin/").content.decode() or "控制台" in client.get("/admin/").content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/admin/"})
    assert "At a glance" in client.get("/admin/").content.decode()


def test_every_quarantine_reason_has_a_translated_label():
    """A detector's new reason code must come with words for the reviewer, in both languages."""
    from django.utils import translation

    from layers.long_term.admin import (
        QUARANTINE_REASON_LABELS,
        quarantine_reason_labels,
    )
    from memoryhub.safety.injection import INJECTION_REASONS

    assert set(INJECTION_REASONS) <= set(QUARANTINE_REASON_LABELS)
    with translation.override("zh-hans"):
        labels = quarantine_reason_labels(INJECTION_REASONS)
    assert all(re.search("[\u4e00-\u9fff]", label) for label in labels), labels


@pytest.mark.parametrize("role, code", [("editor", "not_a_reviewer"), ("auditor", "auditor_read_only")])
def test_the_review_page_says_why_there_is_nothing_to_decide(tenant, make_staff, role, code):
    proposer = make_staff(tenant, "editor", username="proposer")
    cr = change_request_propose(tenant=tenant, key="rules.y", action="create", value=1, proposer_user=proposer)
    page = login(make_staff(tenant, role)).get(f"/admin/permanent/changerequest/{cr.pk}/change/").content.decode()
    assert f'id="review-refusal-notice" data-code="{code}"' in page and 'id="approve-button"' not in page


def test_app_labels_and_statuses_read_in_chinese(make_staff, api):
    api.post_json("/api/v1/memories", {"user_id": "alice", "kind": "fact", "content": "Alice lives in Lyon"})
    client = login(make_staff(superuser=True, username="root"), "zh-hans")
    index = client.get("/admin/").content.decode()
    for label in ("短期记忆", "瞬时记忆", "控制台"):
        assert label in index, label
    assert "Short_Term" not in index and "Transient" not in index
    memories = client.get("/admin/long_term/memory/").content.decode()
    assert re.search(r'class="field-status">[^<]*[\u4e00-\u9fff]', memories)


def test_fields_named_by_django_read_in_chinese_without_a_migration():
    """Column and filter titles of fields declared without a verbose_name are translated too."""
    from io import StringIO

    from django.core.management import call_command
    from django.utils import translation

    from memoryhub.console.labels import auto_named_fields

    fields = list(auto_named_fields())
    assert any(field.name == "tenant" for _model, field in fields)
    with translation.override("zh-hans"):
        english = sorted({f"{model.__name__}.{field.name}: {field.verbose_name}" for model, field in fields
                          if not re.search("[\u4e00-\u9fff]", str(field.verbose_name))})
    assert english == []
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())  # exits non-zero on a change
