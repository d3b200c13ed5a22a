"""Operating the jobs: beat entries name registered tasks, the forget task runs in a worker, and staff
see formation runs in the console."""
from __future__ import annotations

import pytest

from layers.formation.models import FormationRun
from layers.formation.services import session_extract


@pytest.mark.django_db
def test_staff_see_formation_runs(admin_client, talk):
    session = talk("seen", "alice", [("user", "I love jazz.")], end=True)
    run = session_extract(session_pk=session.pk).run
    listing = admin_client.get("/admin/formation/formationrun/")
    assert listing.status_code == 200 and "offline-rules@1" in listing.content.decode()
    detail = admin_client.get(f"/admin/formation/formationrun/{run.pk}/change/")
    assert detail.status_code == 200
    assert admin_client.get("/admin/formation/formationstate/").status_code == 200
    assert admin_client.post(f"/admin/formation/formationrun/{run.pk}/delete/").status_code == 403
    assert FormationRun.objects.filter(pk=run.pk).exists()
