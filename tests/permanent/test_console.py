"""The permanent console through HTTP: propose, review with the diff, no buttons on one's own request,
rollback from the timeline, auditors read only, members see only their tenants."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from permanent.models import ChangeRequest, ChangeState, PermanentEntry
from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db

ADD = "/admin/permanent/changerequest/add/"


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def review_url(cr) -> str:
    return f"/admin/permanent/changerequest/{cr.pk}/change/"


def propose_in_console(client, tenant, **fields):
    body = {"tenant": tenant.pk, "action": "create", "key": "safety.no_diagnosis",
            "value": '{"refuse": true, "message": "See a doctor."}', "reason": "policy", **fields}
    return client.post(ADD, body)


def test_editor_proposes_and_sees_no_approve_button(tenant, editor):
    client = login(editor)
    assert client.get(ADD).status_code == 200
    response = propose_in_console(client, tenant)
    assert response.status_code == 302, response.content.decode()[:2000]
    cr = ChangeRequest.objects.get()
    assert cr.proposer_user == editor and cr.proposed_value == {"refuse": True, "message": "See a doctor."}
    page = client.get(review_url(cr)).content.decode()
    assert 'id="approve-button"' not in page and 'id="own-request-notice"' in page
    assert 'id="withdraw-button"' in page and "See a doctor." in page
    # Posting the decision anyway is refused by the service (editors lack the permission at all).
    client.post(review_url(cr), {"operation": "approve", "payload_hash": cr.payload_hash})
    cr.refresh_from_db()
    assert cr.state == ChangeState.PENDING


def test_console_reports_service_errors_on_the_form(tenant, editor):
    response = propose_in_console(login(editor), tenant, value='{"broken": ')
    assert response.status_code == 200 and "Not valid JSON" in response.content.decode()
    response = propose_in_console(login(editor), tenant, key="bad key")
    assert response.status_code == 200 and "A key is 1-" in response.content.decode()
    assert not ChangeRequest.objects.exists()


def test_reviewer_approves_with_the_diff_and_cannot_approve_own(tenant, editor, reviewer, reviewer2):
    propose_in_console(login(editor), tenant)
    cr = ChangeRequest.objects.get()
    client = login(reviewer)
    page = client.get(review_url(cr)).content.decode()
    assert 'id="approve-button"' in page and 'class="added"' in page and 'id="proposed-value"' in page
    response = client.post(review_url(cr), {"operation": "approve", "payload_hash": cr.payload_hash, "comment": "fine"})
    assert response.status_code == 302
    cr.refresh_from_db()
    assert cr.state == ChangeState.APPLIED and cr.approvals.get().comment == "fine"
    # The reviewer proposes the next change: they see nothing to click, and a forged post is refused.
    entry = PermanentEntry.objects.get()
    propose_in_console(client, tenant, action="update", value='{"refuse": false}')
    own = ChangeRequest.objects.get(state="pending")
    page = client.get(review_url(own)).content.decode()
    assert 'id="approve-button"' not in page and 'id="own-request-notice"' in page
    response = client.post(review_url(own), {"operation": "approve", "payload_hash": own.payload_hash}, follow=True)
    assert "someone else must review it" in response.content.decode()
    own.refresh_from_db()
    assert own.state == ChangeState.PENDING
    # A stale payload hash (the page the reviewer saw) is refused.
    response = login(reviewer2).post(review_url(own), {"operation": "approve", "payload_hash": "f" * 64}, follow=True)
    assert "not the one pending" in response.content.decode()
    login(reviewer2).post(review_url(own), {"operation": "approve", "payload_hash": own.payload_hash})
    entry.refresh_from_db()
    assert entry.current_version == 2


def test_rollback_from_the_timeline_opens_a_request(tenant, editor, reviewer, reviewer2):
    for action, value in (("create", 1), ("update", 2)):
        cr = change_request_propose(tenant=tenant, key="rules.level", action=action, value=value, proposer_user=editor)
        change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    entry = PermanentEntry.objects.get()
    client = login(reviewer)
    timeline = client.get(f"/admin/permanent/permanententry/{entry.pk}/change/").content.decode()
    assert 'id="version-1"' in timeline and "Roll back to this version" in timeline
    response = client.post(f"/admin/permanent/permanententry/{entry.pk}/rollback/1/", {"reason": "v2 broke it"})
    assert response.status_code == 302
    rollback = ChangeRequest.objects.get(state="pending")
    assert rollback.action == "rollback" and rollback.proposed_value == 1
    assert response["Location"] == review_url(rollback)
    login(reviewer2).post(review_url(rollback), {"operation": "approve", "payload_hash": rollback.payload_hash})
    entry.refresh_from_db()
    assert entry.current_version == 3 and entry.value == 1


def test_auditor_reads_but_cannot_change(tenant, editor, auditor):
    propose_in_console(login(editor), tenant)
    cr = ChangeRequest.objects.get()
    client = login(auditor)
    assert client.get(review_url(cr)).status_code == 200
    assert client.get(ADD).status_code == 403
    client.post(review_url(cr), {"operation": "approve", "payload_hash": cr.payload_hash})
    cr.refresh_from_db()
    assert cr.state == ChangeState.PENDING and not cr.approvals.exists()
    assert client.get("/admin/audit/auditevent/").status_code == 200


def test_members_see_only_their_tenants(tenant, other_tenant, editor, make_staff):
    cr = change_request_propose(tenant=tenant, key="rules.a", action="create", value=1, proposer_user=editor)
    outsider = make_staff(other_tenant, "reviewer", username="outsider")
    client = login(outsider)
    assert client.get(review_url(cr)).status_code == 404
    listing = client.get("/admin/permanent/changerequest/").content.decode()
    assert "rules.a" not in listing and "acme" not in listing
    assert "rules.a" in login(make_staff(superuser=True, username="root")).get("/admin/permanent/changerequest/").content.decode()


def test_dashboard_counts_pending_approvals(tenant, editor, reviewer):
    change_request_propose(tenant=tenant, key="rules.a", action="create", value=1, proposer_user=editor)
    page = login(reviewer).get("/admin/").content.decode()
    match = re.search(r'id="dash-pending"><strong>(\d+)</strong>', page)
    assert match and match.group(1) == "1"


def test_schedule_from_the_review_page(tenant, editor, reviewer):
    client = login(editor)
    propose_in_console(client, tenant, effective_at="2999-01-01T09:00")
    cr = ChangeRequest.objects.get()
    assert cr.effective_at.year == 2999
    reviewer_client = login(reviewer)
    reviewer_client.post(review_url(cr), {"operation": "approve", "payload_hash": cr.payload_hash})
    cr.refresh_from_db()
    assert cr.state == ChangeState.APPROVED and not PermanentEntry.objects.exists()
    page = reviewer_client.get(review_url(cr)).content.decode()
    assert 'id="schedule-form"' in page and 'id="approve-button"' not in page
    # Clearing the date means "now": the approved change is applied at once.
    reviewer_client.post(review_url(cr), {"operation": "schedule", "effective_at": ""})
    cr.refresh_from_db()
    assert cr.state == ChangeState.APPLIED and PermanentEntry.objects.get().current_version == 1
    assert login(editor).post(review_url(cr), {"operation": "withdraw"}, follow=True).status_code == 200
    cr.refresh_from_db()
    assert cr.state == ChangeState.APPLIED


def test_memberships_put_staff_in_the_matching_groups(tenant, other_tenant, django_user_model, staff_groups):
    from memoryhub.tenancy.models import Membership

    user = django_user_model.objects.create_user(username="newbie", password="x-Long-pass-1", is_staff=True)
    membership = Membership.objects.create(user=user, tenant=tenant, role="reviewer")
    Membership.objects.create(user=user, tenant=other_tenant, role="auditor")
    assert set(user.groups.values_list("name", flat=True)) == {"reviewer", "auditor"}
    assert django_user_model.objects.get(pk=user.pk).has_perm("permanent.review_changerequest")
    membership.delete()
    assert set(user.groups.values_list("name", flat=True)) == {"auditor"}


def test_creator_of_the_proposing_key_gets_nothing_to_click(tenant, make_client, reviewer, reviewer2):
    agent = make_client(tenant, scopes=["propose"], created_by=reviewer)
    created = agent.post_json("/api/v1/permanent/change-requests", {"action": "create", "key": "rules.x", "value": 1})
    cr = ChangeRequest.objects.get(pk=created.json()["id"])
    page = login(reviewer).get(review_url(cr)).content.decode()
    assert 'id="approve-button"' not in page and 'id="own-request-notice"' in page and "key created by reviewer" in page
    login(reviewer).post(review_url(cr), {"operation": "approve", "payload_hash": cr.payload_hash})
    cr.refresh_from_db()
    assert cr.state == ChangeState.PENDING
    assert 'id="approve-button"' in login(reviewer2).get(review_url(cr)).content.decode()


def test_history_version_pages_cannot_be_posted_back(tenant, editor, reviewer, auditor):
    for action, value in (("create", 1), ("update", 2)):
        cr = change_request_propose(tenant=tenant, key="rules.level", action=action, value=value, proposer_user=editor)
        change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    entry = PermanentEntry.objects.get()
    first = entry.history.order_by("history_id").first()
    for user in (auditor, reviewer):
        client = login(user)
        url = f"/admin/permanent/permanententry/{entry.pk}/history/{first.history_id}/"
        assert client.get(url).status_code == 200
        assert client.post(url, {}).status_code == 403
        cr_history = cr.history.order_by("history_id").first()
        assert client.post(f"/admin/permanent/changerequest/{cr.pk}/history/{cr_history.history_id}/", {}).status_code == 403
    entry.refresh_from_db()
    cr.refresh_from_db()
    assert entry.current_version == 2 and entry.value == 2 and cr.state == ChangeState.APPLIED


def test_a_new_rule_is_rolled_back_by_retiring_it(tenant, editor, reviewer, reviewer2, api):
    cr = change_request_propose(tenant=tenant, key="safety.new_rule", action="create", value="be careful",
                                proposer_user=editor)
    change_request_approve(change_request=cr, reviewer=reviewer, payload_hash=cr.payload_hash)
    entry = PermanentEntry.objects.get()
    client = login(reviewer)
    assert 'id="retire-button"' in client.get(f"/admin/permanent/permanententry/{entry.pk}/change/").content.decode()
    response = client.post(f"/admin/permanent/permanententry/{entry.pk}/retire/", {"reason": "too early"})
    retire = ChangeRequest.objects.get(state="pending")
    assert response["Location"] == review_url(retire) and retire.action == "retire"
    assert 'id="approve-button"' not in client.get(review_url(retire)).content.decode()
    login(reviewer2).post(review_url(retire), {"operation": "approve", "payload_hash": retire.payload_hash})
    assert api.get("/api/v1/permanent/safety.new_rule").status_code == 404


def test_superuser_cannot_approve_own_proposal_over_http(tenant, make_staff):
    boss = make_staff(superuser=True, username="boss")
    client = login(boss)
    propose_in_console(client, tenant)
    cr = ChangeRequest.objects.get()
    assert 'id="approve-button"' not in client.get(review_url(cr)).content.decode()
    response = client.post(review_url(cr), {"operation": "approve", "payload_hash": cr.payload_hash}, follow=True)
    assert "someone else must review it" in response.content.decode()
    cr.refresh_from_db()
    assert cr.state == ChangeState.PENDING and not cr.approvals.exists()
