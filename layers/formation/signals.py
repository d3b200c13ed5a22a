"""What formation announces."""
from django.dispatch import Signal

# A run wrote all its rows and is about to commit; sender = the job ("extract" | "summarise"),
# kwargs: session_pk. Receivers run inside the run's transaction, holding the session's lock.
run_writes_finished = Signal()
