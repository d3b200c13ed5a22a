"""The audit list reads at a glance: newest first, tenant slugs, translated action labels."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from audit.services import audit_record
from memoryhub.core.actors import Actor
from permanent.events import CHANGE_APPROVED, CHANGE_PROPOSED

pytestmark = pytest.mark.django_db
LIST = "/admin/audit/auditevent/"


def _rows(page: str) -> list[tuple[str, str]]:
    slugs = re.findall(r'class="field-tenant_slug">([^<]+)<', page)
    labels = re.findall(r'class="field-action_label">([^<]+)<', page)
    return list(zip(slugs, labels))


def test_newest_first_with_slugs_and_labels(tenant, other_tenant, make_staff):
    audit_record(tenant_id=tenant.id, actor=Actor.system("t"), event=CHANGE_PROPOSED, object_id=1)
    audit_record(tenant_id=other_tenant.id, actor=Actor.system("t"), event=CHANGE_PROPOSED, object_id=2)
    audit_record(tenant_id=tenant.id, actor=Actor.system("t"), event=CHANGE_APPROVED, object_id=1)
    client = Client()
    client.force_login(make_staff(superuser=True, username="root"))
    page = client.get(LIST).content.decode()
    assert _rows(page)[:3] == [("acme", "change approved"), ("globex", "change proposed"), ("acme", "change proposed")]
    assert "permanent.change.approved</td>" not in page
    chinese = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    chinese.force_login(make_staff(superuser=True, username="root2"))
    labels = [label for _slug, label in _rows(chinese.get(LIST).content.decode())]
    assert len(labels) >= 3 and not any(re.search("[A-Za-z]", label) for label in labels[:3]), labels


def test_the_auditor_sees_only_their_tenants_slugs(tenant, other_tenant, auditor):
    audit_record(tenant_id=other_tenant.id, actor=Actor.system("t"), event=CHANGE_PROPOSED, object_id=2)
    audit_record(tenant_id=tenant.id, actor=Actor.system("t"), event=CHANGE_PROPOSED, object_id=1)
    client = Client()
    client.force_login(auditor)
    assert {slug for slug, _label in _rows(client.get(LIST).content.decode())} == {"acme"}


def test_object_types_and_actor_kinds_read_as_words(tenant, make_staff):
    audit_record(tenant_id=tenant.id, actor=Actor.system("t"), event=CHANGE_PROPOSED, object_id=7)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(make_staff(superuser=True, username="root"))
    page = client.get(LIST, {"object_type": "permanent_change_request", "actor_kind": "system"}).content.decode()
    cells = re.findall(r'class="field-object_type_label">([^<]+)<', page)
    assert cells and all(re.search("[\u4e00-\u9fff]", cell) for cell in cells), cells
    assert not re.findall(r'class="field-object_type_label">([^<]+)<',
                          client.get(LIST, {"object_type": "api_key"}).content.decode())
