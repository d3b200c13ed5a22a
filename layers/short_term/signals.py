"""Signals other layers listen to. Both are sent inside the writing service's transaction, so a
receiver that enqueues work must do it through the outbox (which commits with the change)."""
from django.dispatch import Signal

# kwargs: session (Session), turns (list[Turn], only the newly stored ones, in seq order)
turns_appended = Signal()
# kwargs: session (Session), reason ("ended" | "expired")
session_ended = Signal()
