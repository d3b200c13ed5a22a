"""The whole four-eyes story in a real browser (headless Chromium): an editor proposes a safety rule
and finds no approve button, a reviewer approves it with the diff in view, the agent reads it, the
reviewer rolls it back through a request someone else approves, and an auditor follows it all and
is refused an edit."""
from __future__ import annotations

import json
import os

import httpx2 as httpx
import pytest
from selenium.webdriver.support.ui import Select

from permanent.models import ChangeRequest, PermanentEntry
from permanent.selectors import permanent_system_rules
from permanent.services import change_request_approve, change_request_propose
from tests.support.browser import chromium

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "pw-Browser-Flow-7"
RULE = "safety.no_medical_advice"


def test_four_eyes_workflow_in_the_browser(live_server, tenant, make_staff, make_client, tmp_path):
    editor = make_staff(tenant, "editor", username="erin", password=PASSWORD)
    make_staff(tenant, "reviewer", username="rita", password=PASSWORD)
    second_reviewer = make_staff(tenant, "reviewer", username="sam", password=PASSWORD)
    make_staff(tenant, "auditor", username="otto", password=PASSWORD)
    agent = make_client(tenant, scopes=["read", "write", "propose"])

    def agent_context_rules() -> str:
        response = httpx.post(f"{live_server.url}/api/v1/context", json={"user_id": "end-user-1", "query": "headache?"},
                              headers={"Authorization": f"Bearer {agent.plaintext}"}, timeout=60)
        assert response.status_code == 200, response.text
        return next(block["content"] for block in response.json()["blocks"] if block["name"] == "system_rules")

    def agent_reads():
        return httpx.get(f"{live_server.url}/api/v1/permanent/{RULE}",
                         headers={"Authorization": f"Bearer {agent.plaintext}"}, timeout=20)

    with chromium() as browser:
        browser.base_url = live_server.url

        # The editor proposes a new safety rule.
        browser.login("erin", PASSWORD)
        browser.go("/admin/permanent/changerequest/add/")
        Select(browser.find("#id_action")).select_by_value("create")
        browser.fill("#id_key", RULE)
        browser.fill("#id_value", json.dumps({"refuse": True, "say": "Please ask a doctor."}))
        browser.fill("#id_reason", "Legal asked for it")
        browser.submit("input[name=propose]")
        assert browser.find("#cr-state").get_attribute("data-state") == "pending"
        # Their own request: a notice, and nothing to approve.
        browser.find("#own-request-notice")
        assert not browser.all("#approve-button") and not browser.all("#reject-button")
        first = ChangeRequest.objects.get(key=RULE)
        assert agent_reads().status_code == 404

        # A reviewer sees current and proposed side by side, with the diff, and approves.
        browser.login("rita", PASSWORD)
        browser.go(f"/admin/permanent/changerequest/{first.pk}/change/")
        added = [line.text for line in browser.all("#value-diff .added")]
        assert any("Please ask a doctor." in line for line in added), added
        assert "Please ask a doctor." in browser.find("#proposed-value").text
        browser.driver.save_screenshot(str(os.environ.get("MH_SCREENSHOT") or tmp_path / "review.png"))
        browser.fill("#id_comment", "Matches the legal memo")
        browser.submit("#approve-button")
        assert browser.find("#cr-state").get_attribute("data-state") == "applied"

        # The agent's next read carries it, and so do the context's system rules.
        response = agent_reads()
        assert response.status_code == 200 and response.json()["value"]["say"] == "Please ask a doctor."
        assert [rule["key"] for rule in permanent_system_rules(tenant_id=tenant.id)] == [RULE]
        assert "Please ask a doctor." in agent_context_rules()

        # A later edit lands (v2); the reviewer then rolls back to v1 from the timeline.
        update = change_request_propose(tenant=tenant, key=RULE, action="update", value={"refuse": False},
                                        proposer_user=editor)
        change_request_approve(change_request=update, reviewer=second_reviewer, payload_hash=update.payload_hash)
        assert agent_reads().json()["version"] == 2
        assert "Please ask a doctor." not in agent_context_rules()
        entry = PermanentEntry.objects.get(key=RULE)
        browser.go(f"/admin/permanent/permanententry/{entry.pk}/change/")
        if os.environ.get("MH_SCREENSHOT"):
            browser.driver.save_screenshot(os.environ["MH_SCREENSHOT"].replace(".png", "-timeline.png"))
        browser.find("#version-1 input[name=reason]").send_keys("v2 was a mistake")
        browser.submit("#version-1 .rollback-button")
        assert browser.find("#cr-state").get_attribute("data-state") == "pending"
        browser.find("#own-request-notice")
        assert not browser.all("#approve-button")
        rollback = ChangeRequest.objects.get(key=RULE, state="pending")
        assert rollback.action == "rollback" and rollback.target_version == 1

        # Someone else approves the rollback; it becomes version 3 with version 1's value.
        browser.login("sam", PASSWORD)
        browser.go(f"/admin/permanent/changerequest/{rollback.pk}/change/")
        browser.submit("#approve-button")
        assert browser.find("#cr-state").get_attribute("data-state") == "applied"
        served = agent_reads().json()
        assert served["version"] == 3 and served["value"] == {"refuse": True, "say": "Please ask a doctor."}
        assert "Please ask a doctor." in agent_context_rules()

        # The auditor follows every step in the trail and cannot change anything.
        browser.login("otto", PASSWORD)
        browser.go("/admin/audit/auditevent/?object_type=permanent_change_request")
        actions = [cell.text for cell in browser.all("td.field-action_label")]
        for expected in ("change proposed", "change approved", "change applied"):
            assert expected in actions, actions
        assert "verifies" in browser.find("#chain-status").text
        browser.submit("th.field-occurred_at a")
        assert not browser.all("input[name=_save]")
        browser.go(f"/admin/permanent/changerequest/{rollback.pk}/change/")
        assert not browser.all("#approve-button") and not browser.all("#withdraw-button")
        browser.submit("#request-trail-link")
        trail = [cell.text for cell in browser.all("td.field-action_label")]
        assert {"change proposed", "change approved", "change applied"} <= set(trail)
        assert all(cell.text == str(rollback.pk) for cell in browser.all("td.field-object_id"))
        browser.go("/admin/permanent/changerequest/add/")
        assert "Auditors read only" in browser.find("#forbidden-reason").text
    assert PermanentEntry.objects.get(key=RULE).current_version == 3
