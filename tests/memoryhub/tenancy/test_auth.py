"""API keys: hashing, 401/403/404 semantics, tenant from the key only, revocation."""
import hashlib

import pytest

from audit.models import AuditEvent
from memoryhub.core.actors import Actor
from memoryhub.tenancy.models import ApiKey
from memoryhub.tenancy.services import api_key_create, api_key_revoke

pytestmark = pytest.mark.django_db


def test_secret_is_stored_only_as_sha256(tenant):
    issued = api_key_create(tenant=tenant, name="k", scopes=["read"], actor=Actor.system("t"))
    prefix, secret = issued.plaintext.split("_", 2)[1:]
    row = ApiKey.objects.get(pk=issued.api_key.pk)
    assert issued.plaintext.startswith("mh_") and row.prefix == prefix
    assert row.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert len(secret) >= 43  # 32 random bytes, base64url
    stored = " ".join(str(v) for v in ApiKey.objects.filter(pk=row.pk).values().first().values())
    assert secret not in stored


def test_whoami_reports_tenant_from_key(api, tenant):
    response = api.get("/api/v1/whoami")
    assert response.status_code == 200
    assert response.json() == {"tenant": tenant.slug, "key_name": "test key", "key_prefix": api.api_key.prefix,
                               "scopes": ["admin", "propose", "read", "write"]}


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer mh_nope", "Basic abc", "Bearer mh_12345678_wrong",
                                    "Token mh_a_b"])
def test_missing_or_invalid_key_is_401_with_error_format(anon, header):
    if header:
        anon.credentials(HTTP_AUTHORIZATION=header)
    response = anon.get("/api/v1/whoami")
    assert response.status_code == 401
    body = response.json()
    assert body["error"]["code"] == "unauthenticated"
    assert set(body["error"]) == {"code", "message", "details"}
    assert response["WWW-Authenticate"] == "Bearer"


def test_wrong_secret_for_real_prefix_is_401(api):
    prefix = api.api_key.prefix
    api.credentials(HTTP_AUTHORIZATION=f"Bearer mh_{prefix}_{'A' * 43}")
    assert api.get("/api/v1/whoami").status_code == 401


def test_revoked_key_is_401_and_revocation_is_audited(api):
    assert api.get("/api/v1/whoami").status_code == 200
    api_key_revoke(api_key=api.api_key, actor=Actor.system("t"))
    response = api.get("/api/v1/whoami")
    assert response.status_code == 401
    actions = list(AuditEvent.objects.filter(object_type="api_key", object_id=str(api.api_key.pk))
                   .values_list("action", flat=True))
    assert actions == ["api_key.created", "api_key.revoked"]


def test_last_used_is_recorded(api):
    assert ApiKey.objects.get(pk=api.api_key.pk).last_used_at is None
    api.get("/api/v1/whoami")
    assert ApiKey.objects.get(pk=api.api_key.pk).last_used_at is not None


def test_scope_satisfaction():
    key = ApiKey(scopes=["read"])
    assert key.has_scope("read") and not key.has_scope("write") and not key.has_scope("propose")
    key = ApiKey(scopes=["write"])
    assert key.has_scope("read") and key.has_scope("write") and not key.has_scope("admin")
    key = ApiKey(scopes=["propose"])
    assert key.has_scope("read") and key.has_scope("propose") and not key.has_scope("write")
    key = ApiKey(scopes=["admin"])
    assert all(key.has_scope(s) for s in ["read", "write", "propose", "admin"])


def test_unknown_scope_refused(tenant):
    from memoryhub.core.errors import InvalidInput

    with pytest.raises(InvalidInput):
        api_key_create(tenant=tenant, name="k", scopes=["root"], actor=Actor.system("t"))


def test_create_api_key_command_prints_working_key(db, capsys):
    from django.core.management import call_command
    from rest_framework.test import APIClient

    call_command("create_api_key", "newco", "--scopes", "read", "--quiet")
    key = capsys.readouterr().out.strip()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = client.get("/api/v1/whoami")
    assert response.status_code == 200
    assert response.json()["tenant"] == "newco" and response.json()["scopes"] == ["read"]


def test_a_new_tenant_records_who_created_it(db, capsys):
    from django.core.management import call_command

    from memoryhub.core.actors import Actor
    from memoryhub.tenancy.models import Tenant
    from memoryhub.tenancy.services import tenant_get_or_create

    call_command("create_api_key", "cli-co", "--scopes", "read", "--quiet")
    assert Tenant.objects.get(slug="cli-co").created_by == "cli.create_api_key"
    tenant, created = tenant_get_or_create(slug="cli-co", actor=Actor.system("someone else"))
    assert not created and tenant.created_by == "cli.create_api_key", "an existing tenant keeps its creator"


def test_a_tenant_added_in_the_console_records_the_staff_member(make_staff):
    from django.test import Client

    from memoryhub.tenancy.models import Tenant

    admin_user = make_staff(superuser=True)
    client = Client()
    client.force_login(admin_user)
    response = client.post("/admin/tenancy/tenant/add/", {
        "slug": "console-co", "name": "Console Co", "time_zone": "UTC",
        "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"})
    assert response.status_code == 302, response.content[:2000]
    tenant = Tenant.objects.get(slug="console-co")
    assert tenant.created_by == admin_user.get_username()
    # an edit keeps the creator although another staff member saves it
    other = make_staff(superuser=True)
    client.force_login(other)
    client.post(f"/admin/tenancy/tenant/{tenant.pk}/change/", {
        "slug": "console-co", "name": "Renamed", "time_zone": "UTC",
        "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"})
    tenant.refresh_from_db()
    assert tenant.name == "Renamed" and tenant.created_by == admin_user.get_username()
