"""Who may read quarantined memories through the API: only an admin-scoped key (a reviewer's tool),
never an agent's read key. Quarantined content is held back because it may be an attack on the model
that reads it; every read path (search, list, one memory) asks here."""
from __future__ import annotations

from django.utils.translation import gettext as _

from layers.long_term.models import MemoryStatus
from memoryhub.core.errors import Forbidden
from memoryhub.tenancy.models import Scope


def quarantine_read_check(api_key, *, statuses=(), memory=None) -> None:
    wants = MemoryStatus.QUARANTINED in (statuses or ()) or (
        memory is not None and memory.status == MemoryStatus.QUARANTINED)
    if wants and not api_key.has_scope(Scope.ADMIN):
        raise Forbidden(_("reading quarantined memories needs the admin scope"), code="quarantine_needs_admin")
