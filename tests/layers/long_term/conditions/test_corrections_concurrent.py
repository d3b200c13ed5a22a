"""Two conversations reaching the correction threshold at once (real PostgreSQL, two connections): the user's
memory lock serialises them, so the preference is replaced once and the late one counts nothing twice."""
from __future__ import annotations

import threading

import pytest
from django.db import connection

from audit.models import AuditEvent
from layers.long_term.conditions.services import preference_correction_record
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.services import memory_create
from memoryhub.core.actors import Actor

ACTOR = Actor.system("tests.conditions")


@pytest.mark.django_db(transaction=True)
def test_the_threshold_reached_twice_at_once_replaces_the_preference_once(tenant):
    memory = memory_create(tenant=tenant, actor=ACTOR, user_id="alice", kind="preference",
                           content="User sorts by price, low to high.", memory_key="user.preference.sort.price",
                           attributes={"value": "ascending"}).memory
    for occasion in ("session:a", "session:b"):
        preference_correction_record(tenant=tenant, actor=ACTOR, memory_id=memory.pk, requested_value="descending",
                                     occasion=occasion)
    outcomes, errors = [], []
    start = threading.Barrier(2)

    def correct(occasion):
        try:
            start.wait()
            outcomes.append(preference_correction_record(tenant=tenant, actor=ACTOR, memory_id=memory.pk,
                                                         requested_value="descending", occasion=occasion))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=correct, args=(f"session:{name}",)) for name in ("c", "d")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    replaced = [o.replaced_by for o in outcomes if o.replaced_by is not None]
    assert len(replaced) == 1
    assert Memory.objects.get(pk=memory.pk).status == MemoryStatus.SUPERSEDED
    assert Memory.objects.filter(memory_key="user.preference.sort.price", status=MemoryStatus.ACTIVE).count() == 1
    assert AuditEvent.objects.filter(action="memory.preference_corrected").count() == 1
