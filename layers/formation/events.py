"""Formation's audit events: one per run, on the session it read."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

EXTRACTED = event_type("formation.extracted", object_type="session", label=_("memories extracted from a session"),
                       after="turn range, extractor, counts written / merged / superseded / quarantined / dropped")
SUMMARISED = event_type("formation.summarised", object_type="session", label=_("session summarised"),
                        after="turn range, summariser, summary version, episode memory")
