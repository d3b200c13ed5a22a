"""The database role README "Deployment" prescribes for the service: it writes the audit trail, and can
neither switch the append-only trigger off nor remove events or heads. (The role is created inside the
test's transaction, so it is gone with the rollback.)"""
from __future__ import annotations

import uuid

import pytest
from django.db import DatabaseError, connection, transaction

from audit.models import AuditHead
from audit.selectors import audit_chain_verify
from audit.services import audit_record
from memoryhub.core.actors import Actor
from tests.support.audit_events import TEST_HAPPENED

pytestmark = pytest.mark.django_db


def _service_role() -> str:
    """The grants of README "Deployment", for a role of this test's own."""
    role = f"mh_app_{uuid.uuid4().hex[:12]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role} NOLOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS")
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        cursor.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}")
        cursor.execute(f"REVOKE UPDATE, DELETE, TRUNCATE ON audit_auditevent FROM {role}")
        cursor.execute(f"REVOKE DELETE, TRUNCATE ON audit_audithead FROM {role}")
    return role


@pytest.mark.parametrize("statement", [
    "SET session_replication_role = replica",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER ALL",
    "DELETE FROM audit_auditevent",
    "TRUNCATE audit_auditevent",
    "DELETE FROM audit_audithead",
])
def test_the_service_role_appends_but_cannot_hide_a_deletion(tenant, statement):
    role = _service_role()
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL ROLE {role}")
        for index in range(3):
            audit_record(tenant_id=tenant.id, actor=Actor.system("test"), event=TEST_HAPPENED, object_id=index)
        with pytest.raises(DatabaseError, match="permission denied|must be owner"):
            with transaction.atomic():
                cursor.execute(statement)
        cursor.execute("RESET ROLE")
    assert AuditHead.objects.get(tenant_id=tenant.id).event_count == 3
    assert audit_chain_verify(tenant_id=tenant.id).ok
