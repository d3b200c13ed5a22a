"""Writes of the formation layer: extraction and summarisation runs (and the catch-up that finds
sessions left behind)."""
from layers.formation.services.catch_up import formation_catch_up  # noqa: F401
from layers.formation.services.extraction import extraction_due, session_extract  # noqa: F401
from layers.formation.services.runs import RunReport  # noqa: F401
from layers.formation.services.summarisation import session_summarise, summary_target  # noqa: F401
