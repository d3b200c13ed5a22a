"""Formation helpers shared by tests."""
from contextlib import contextmanager


def extracted_memories():
    """Memories extraction wrote, without the user's statement spans (tests/layers/formation/test_spans.py)."""
    from layers.formation.spans import SPAN_EXTRACTOR
    from layers.long_term.models import Memory

    return Memory.objects.exclude(extractor=SPAN_EXTRACTOR)


@contextmanager
def formation_signals_muted():
    """Turns and session ends without the formation receivers: as if the request never reached the
    outbox (lost work), or so that the runs a test starts itself are the only ones."""
    from layers.formation import receivers
    from layers.short_term.signals import session_ended, turns_appended

    turns_appended.disconnect(dispatch_uid="formation.on_turns_appended")
    session_ended.disconnect(dispatch_uid="formation.on_session_ended")
    try:
        yield
    finally:
        turns_appended.connect(receivers.on_turns_appended, dispatch_uid="formation.on_turns_appended")
        session_ended.connect(receivers.on_session_ended, dispatch_uid="formation.on_session_ended")
