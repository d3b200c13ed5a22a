"""The graph's audit events. Edges derived inside a memory write are covered by that write's event
(layers/long_term/events.py); only the backfill, which writes edges on its own, has one."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

GRAPH_BACKFILLED = event_type("graph.backfilled", object_type="long_term_graph.edge",
                              label=_("relation graph derived from stored memories"),
                              after="memory count, edges written, first and last memory id")
