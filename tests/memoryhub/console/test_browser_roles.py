"""The console walked in a real browser (headless Chromium) as editor, reviewer and auditor, in
English and in Chinese: the propose page starts from the current value and its JSON editor refuses
broken JSON and schema violations before submit; the reviewer switches to Chinese and approves; the
auditor reads translated audit labels and gets a 403 that says auditors read only."""
from __future__ import annotations

import json
import re

import pytest
from selenium.webdriver.support.ui import Select

from permanent.models import ChangeRequest, PermanentEntry
from permanent.services import change_request_approve, change_request_propose
from tests.support.browser import chromium

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "pw-Browser-Roles-5"
RULE = "persona.greeting"
SCHEMA = {"type": "object", "required": ["say"], "properties": {"say": {"type": "string", "maxLength": 80}},
          "additionalProperties": False}
HAN = re.compile("[\u4e00-\u9fff]")


def _switch_language(browser, code: str) -> None:
    Select(browser.find("#language-select")).select_by_value(code)
    browser.submit("#language-submit")
    assert browser.find("html").get_attribute("lang").lower().startswith(code.split("-")[0])


def _type_value(browser, text: str) -> str:
    """Replace the JSON editor's text and return what its status line says."""
    area = browser.find("#id_value")
    area.clear()
    area.send_keys(text)
    return browser.find("#id_value-status").text


def test_editor_reviewer_auditor_in_english_and_chinese(live_server, tenant, make_staff, api):
    editor = make_staff(tenant, "editor", username="erin", password=PASSWORD)
    first_reviewer = make_staff(tenant, "reviewer", username="rita", password=PASSWORD)
    make_staff(tenant, "reviewer", username="sam", password=PASSWORD)
    make_staff(tenant, "auditor", username="otto", password=PASSWORD)
    created = change_request_propose(tenant=tenant, key=RULE, action="create", value={"say": "Hello"}, schema=SCHEMA,
                                     proposer_user=editor)
    change_request_approve(change_request=created, reviewer=first_reviewer, payload_hash=created.payload_hash)
    entry = PermanentEntry.objects.get(key=RULE)
    api.post_json("/api/v1/memories", {"user_id": "alice", "kind": "fact", "content": "Alice lives in Lyon"})

    with chromium() as browser:
        browser.base_url = live_server.url

        # Editor, in English: the timeline's "propose a change" opens the editor on the current value.
        browser.login("erin", PASSWORD)
        browser.go(f"/admin/permanent/permanententry/{entry.pk}/change/")
        browser.submit("#propose-change")
        browser.find("#editing-notice")
        assert json.loads(browser.find("#id_value").get_attribute("value")) == {"say": "Hello"}
        assert Select(browser.find("#id_action")).first_selected_option.get_attribute("value") == "update"
        assert "Not valid JSON" in _type_value(browser, '{"say": "Hi"')
        browser.click("input[name=propose]")  # refused in the page: nothing is sent
        assert browser.find("#json-editor-summary").is_displayed()
        assert not ChangeRequest.objects.filter(state="pending").exists()
        assert "expected string" in _type_value(browser, '{"say": 5}')
        assert "unexpected property" in _type_value(browser, '{"say": "Hi", "shout": true}')
        assert "matches the schema" in _type_value(browser, '{"say": "Hi there"}')
        browser.fill("#id_reason", "friendlier")
        browser.submit("input[name=propose]")
        assert browser.find("#cr-state").get_attribute("data-state") == "pending"
        assert not browser.all("#approve-button")
        pending = ChangeRequest.objects.get(key=RULE, state="pending")
        assert pending.proposed_value == {"say": "Hi there"} and pending.action == "update"

        # Reviewer: switches the console to Chinese, reviews and approves.
        browser.login("sam", PASSWORD)
        _switch_language(browser, "zh-hans")
        browser.go(f"/admin/permanent/changerequest/{pending.pk}/change/")
        assert "审核变更请求" in browser.page and "批准" in browser.find("#approve-button").text
        browser.submit("#approve-button")
        assert browser.find("#cr-state").get_attribute("data-state") == "applied"
        labels = [cell.text for cell in browser.all("#request-events td.event-label")]
        assert labels and all(HAN.search(label) for label in labels), labels
        # Memories read in Chinese too, with their actions on the memory page.
        browser.go("/admin/long_term/memory/")
        browser.submit("td.field-readable_content a, th.field-id a")
        assert browser.all("#soft-delete-button") and HAN.search(browser.find("#memory-status").text)
        _switch_language(browser, "en")
        assert "Soft-delete" in browser.find("#soft-delete-button").text

        # Auditor, in Chinese: translated audit labels with tenant slugs; refused with the reason.
        browser.login("otto", PASSWORD)
        _switch_language(browser, "zh-hans")
        browser.go("/admin/audit/auditevent/")
        labels = [cell.text for cell in browser.all("td.field-action_label")]
        assert labels and all(HAN.search(label) for label in labels), labels
        assert {cell.text for cell in browser.all("td.field-tenant_slug")} == {tenant.slug}
        width = browser.driver.execute_script("return document.documentElement.scrollWidth")
        viewport = browser.driver.execute_script("return window.innerWidth")
        assert width <= viewport + 1, (width, viewport)  # no sideways scrolling
        browser.go("/admin/permanent/changerequest/add/")
        assert HAN.search(browser.find("#forbidden-reason").text)
        _switch_language(browser, "en")
        assert "Auditors read only" in browser.find("#forbidden-reason").text
        browser.go("/admin/long_term/memory/")
        browser.submit("td.field-readable_content a, th.field-id a")
        assert not browser.all("#soft-delete-button") and browser.find("#memory-read-only")
    assert PermanentEntry.objects.get(key=RULE).value == {"say": "Hi there"}


# Schemas and values across the keywords the editor checks; the browser's verdict must be the server's.
_CASES = [
    ({"type": "string", "minLength": 2, "maxLength": 5}, ["ab", "a", "abcdef", 3, "中文字"]),
    ({"type": "integer", "minimum": 1, "maximum": 10}, [1, 0, 10, 11, 2.5, "3", True]),
    ({"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5}, [0.5, 0, 1.25, 3]),
    ({"enum": ["red", "green", 3]}, ["red", "blue", 3, "3"]),
    ({"const": {"a": 1}}, [{"a": 1}, {"a": 2}]),
    ({"type": "string", "pattern": "^[a-z]+\\.[a-z]+$"}, ["rules.tone", "Rules.tone", "rulestone"]),
    ({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2, "uniqueItems": True},
     [["a"], [], ["a", "b", "c"], ["a", "a"], ["a", 1]]),
    ({"type": "object", "required": ["say"], "properties": {"say": {"type": "string"}, "n": {"type": "integer"}},
      "additionalProperties": False}, [{"say": "hi"}, {}, {"say": "hi", "x": 1}, {"say": "hi", "n": "1"}, []]),
    ({"type": "object", "additionalProperties": {"type": "boolean"}, "maxProperties": 2},
     [{"a": True}, {"a": 1}, {"a": True, "b": False, "c": True}]),
    ({"anyOf": [{"type": "string"}, {"type": "null"}]}, ["x", None, 1]),
    ({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}, [-1, 1, 0.5, -0.5]),
    ({"allOf": [{"type": "string"}, {"maxLength": 3}], "not": {"const": "no"}}, ["yes", "no", "toolong"]),
    ({"type": ["string", "null"]}, ["s", None, 0]),
]


def test_the_json_editor_agrees_with_the_server(live_server, tenant, make_staff):
    import jsonschema

    make_staff(tenant, "editor", username="vera", password=PASSWORD)
    with chromium() as browser:
        browser.base_url = live_server.url
        browser.login("vera", PASSWORD)
        browser.go("/admin/permanent/changerequest/add/")
        browser.find("#id_value")
        for schema, values in _CASES:
            server = [jsonschema.validators.validator_for(schema)(schema).is_valid(value) for value in values]
            client = browser.driver.execute_script(
                "return arguments[1].map(v => window.consoleJsonValidate(v, arguments[0]).length === 0);",
                schema, values)
            assert client == server, (schema, values, client, server)
