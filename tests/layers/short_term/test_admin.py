"""Sessions in the admin: read-only with turns inline, searchable, scoped to the member's tenants."""
import pytest
from django.contrib.auth.models import Permission, User

from audit.models import AuditEvent
from layers.short_term.models import Session, SessionStatus
from layers.short_term.services import (
    session_open,
    session_summary_create,
    turns_append,
)
from memoryhub.core.actors import Actor
from memoryhub.tenancy.models import Membership
from tests.support.actors import TEST_ACTOR

pytestmark = pytest.mark.django_db


@pytest.fixture
def sessions(tenant, other_tenant):
    actor = Actor.system("tests")
    mine, _ = session_open(tenant=tenant, session_id="mine-1", user_id="alice", actor=actor)
    turns_append(session=mine, turns=[{"role": "user", "content": "我想订去上海的机票"},
                                      {"role": "assistant", "content": "好的，哪天出发？"}], actor=TEST_ACTOR)
    session_summary_create(session=mine, covers_up_to=1, content="用户想去上海", summariser="test", actor=actor)
    theirs, _ = session_open(tenant=other_tenant, session_id="theirs-1", user_id="zed", actor=actor)
    return mine, theirs


@pytest.fixture
def member(client, tenant):
    staff = User.objects.create_user("viewer", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(
        content_type__app_label="short_term", codename__in=["view_session", "view_sessionsummary", "change_session"]))
    Membership.objects.create(user=staff, tenant=tenant, role="editor")
    client.force_login(staff)
    return staff


def test_session_page_shows_turns_and_summary_read_only(client, member, sessions):
    mine, _ = sessions
    page = client.get(f"/admin/short_term/session/{mine.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "我想订去上海的机票" in text and "用户想去上海" in text
    assert 'name="turns-0-content"' not in text  # shown, not editable


def test_member_sees_only_their_tenants_sessions_and_can_search(client, member, sessions):
    mine, theirs = sessions
    listing = client.get("/admin/short_term/session/").content.decode()
    assert "mine-1" in listing and "theirs-1" not in listing
    assert "mine-1" in client.get("/admin/short_term/session/?q=alice").content.decode()
    assert "mine-1" not in client.get("/admin/short_term/session/?q=bob").content.decode()
    assert client.get(f"/admin/short_term/session/{theirs.pk}/change/").status_code == 302
    summaries = client.get("/admin/short_term/sessionsummary/?q=mine-1").content.decode()
    assert "mine-1" in summaries


def test_end_action_goes_through_the_service(client, member, sessions, tenant):
    mine, theirs = sessions
    response = client.post("/admin/short_term/session/", {"action": "end_selected",
                                                          "_selected_action": [mine.pk, theirs.pk]})
    assert response.status_code == 302
    assert Session.objects.get(pk=mine.pk).status == SessionStatus.ENDED
    assert Session.objects.get(pk=theirs.pk).status == SessionStatus.ACTIVE  # not theirs to end
    event = AuditEvent.objects.get(tenant_id=tenant.id, action="session.ended")
    assert event.actor_kind == "user" and event.actor_label == "viewer"
