"""Writes of the short-term layer (sessions, turns, summaries), each audited where it matters."""
from layers.short_term.services.sessions import (  # noqa: F401
    session_end,
    session_expire,
    session_open,
    sessions_expire_idle,
)
from layers.short_term.services.summaries import session_summary_create  # noqa: F401
from layers.short_term.services.turns import (  # noqa: F401
    AppendedTurn,
    TurnInput,
    TurnsAppended,
    turns_append,
    turns_append_to,
)
